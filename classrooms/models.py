"""Classes, their students, and assignments (one game per table).

Roles: a *teacher* is a user in the ``teachers`` group (sign-up or added by an admin); an
*admin* is Django staff; a *student* is any user with a ``Membership``.  Games themselves live
in the games app; ``AssignmentGame`` ties one game (one table) to an assignment.
"""

from django.conf import settings
from django.db import models
from django.urls import reverse

from games.catalog import game_label

TEACHERS_GROUP = "teachers"

# No 0/O, 1/I/L: codes are read off a projector and typed on tablets.
JOIN_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
JOIN_CODE_LENGTH = 6


class Classroom(models.Model):
    name = models.CharField(max_length=100)
    teacher = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="classrooms_taught"
    )
    join_code = models.CharField(max_length=16, unique=True)
    join_open = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "pk"]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("classrooms:class_detail", args=[self.pk])


class Membership(models.Model):
    classroom = models.ForeignKey(Classroom, on_delete=models.CASCADE, related_name="memberships")
    student = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    joined_at = models.DateTimeField(auto_now_add=True)
    # "roster" (created by the teacher) or "code" (self-joined)
    source = models.CharField(max_length=16, default="roster")

    class Meta:
        ordering = ["student__first_name", "student__username"]
        constraints = [
            models.UniqueConstraint(fields=["classroom", "student"], name="membership_unique"),
        ]

    def __str__(self):
        return f"{self.student} in {self.classroom}"

    def clean(self):
        """Only plain student accounts can be members (the admin's inline validates this)."""
        from django.core.exceptions import ValidationError

        from classrooms.selectors import is_plain_student

        if self.student_id and not is_plain_student(self.student):
            raise ValidationError({"student": "Teacher and admin accounts cannot be students "
                                              "of a class."})


class Assignment(models.Model):
    class Grouping(models.TextChoices):
        RANDOM = "random", "Random tables"
        MANUAL = "manual", "I arrange the tables"

    class Status(models.TextChoices):
        DRAFT = "draft", "Arranging tables"
        STARTED = "started", "Started"

    classroom = models.ForeignKey(Classroom, on_delete=models.CASCADE, related_name="assignments")
    title = models.CharField(max_length=120)
    # A registered game (``games.engine.kinds()``), one of its declared modes, and the
    # further options chosen for it ({option key: value}, see ``Rules.options``).
    kind = models.CharField(max_length=32)
    mode = models.CharField(max_length=32)
    options = models.JSONField(default=dict, blank=True)
    table_size = models.PositiveSmallIntegerField(default=2)  # students per table
    grouping = models.CharField(max_length=16, choices=Grouping.choices, default=Grouping.RANDOM)
    bot_level = models.CharField(max_length=16, blank=True)  # "" = leave seats open
    due_at = models.DateTimeField(null=True, blank=True)
    # The teacher's choice: at ``due_at`` the unfinished games stop (paused with a message,
    # see services.assignments_close_due); ``closed_at`` says when that happened.
    close_at_due = models.BooleanField(default=False)
    closed_at = models.DateTimeField(null=True, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.DRAFT)
    paused = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self):
        return self.title

    def get_absolute_url(self):
        return reverse("classrooms:assignment_dashboard", args=[self.pk])

    @property
    def rules(self):
        from games.engine import get_rules

        return get_rules(self.kind)

    @property
    def is_solo(self):
        return self.rules.mode(self.mode).solo

    @property
    def game_label(self):
        """What is played, in words: the game's title, its mode and any option chosen."""
        return game_label(self.kind, self.mode, self.options)

    def engine_options(self):
        return self.rules.mode_options(self.mode, self.options)

    def seat_count(self):
        return self.rules.seat_count(self.engine_options())


class AssignmentGame(models.Model):
    """One table of an assignment: its game, and who was benched for a bot (to give back)."""

    assignment = models.ForeignKey(Assignment, on_delete=models.CASCADE, related_name="tables")
    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, related_name="assignment_table")
    table = models.PositiveSmallIntegerField()
    # {"<seat index>": user_id}: students whose seat a bot took over, so the teacher can hand it back.
    benched = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["assignment", "table"]
        constraints = [
            models.UniqueConstraint(fields=["assignment", "table"], name="assignment_table_unique"),
        ]

    def __str__(self):
        return f"{self.assignment} table {self.table}"


class TeacherProfile(models.Model):
    """A teacher's standing.  Anyone may sign up as a teacher; until an admin approves them,
    their classes cannot take students who already belong to another teacher's class (so a
    stranger cannot collect other schools' students).  Teachers an admin makes are approved."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="teacher_profile")
    approved = models.BooleanField(default=False)
    approved_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return f"{self.user} ({'approved' if self.approved else 'waiting for approval'})"


class StudentAccount(models.Model):
    """Who may change a student account (password, name, existence): the teacher of the class
    that created it, and teachers an admin granted it to.  Joining another class by code
    never gives that class's teacher a say over the account."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="student_account")
    # The name as the teacher pasted it (or the student typed it), for the teacher's roster,
    # results and CSV; the account's first_name is the short, class-unique display name
    # everyone else sees (classrooms.names).
    full_name = models.CharField(max_length=150, blank=True)
    created_by_class = models.ForeignKey(Classroom, null=True, blank=True,
                                         on_delete=models.SET_NULL,
                                         related_name="created_accounts")
    managers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="managed_students",
        help_text="Teachers an admin allows to manage this account besides the teacher of "
                  "the class that created it.")

    def __str__(self):
        return f"{self.user} (made by {self.created_by_class or 'no class'})"


class SignInLink(models.Model):
    """A QR code's sign-in link on a login card: signs one student in on a shared tablet.

    Only a hash of the link's secret is kept; the link itself is signed and expires
    (services.SIGNIN_LINK_TTL), works once, and the teacher can revoke it (per student, or
    every link of the class).  A student has at most one live link: a new card revokes the
    old one."""

    student = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="signin_links")
    classroom = models.ForeignKey(Classroom, on_delete=models.CASCADE,
                                  related_name="signin_links")
    secret_hash = models.CharField(max_length=64, unique=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["classroom", "student"])]

    def __str__(self):
        return f"sign-in link for {self.student} ({self.classroom})"
