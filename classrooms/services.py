"""Every write in the classrooms app goes through here (views and commands only parse input).

Games are created and changed only through ``games.services``.
"""

import hashlib
import random
import re
import secrets
import unicodedata
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from pathlib import Path

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import Group
from django.core import signing
from django.db import IntegrityError, transaction
from django.utils import timezone

from classrooms import names
from classrooms.models import (
    JOIN_CODE_ALPHABET,
    JOIN_CODE_LENGTH,
    TEACHERS_GROUP,
    Assignment,
    AssignmentGame,
    Classroom,
    Membership,
    SignInLink,
    StudentAccount,
    TeacherProfile,
)
from classrooms.selectors import (
    class_plain_students,
    is_plain_student,
    managed_student_ids,
    teacher_is_approved,
    teacher_manages,
)
from classrooms.selectors import class_students as class_memberships
from games import maps as game_maps
from games import services as game_services
from games.engine import IllegalMove, get_rules, kinds
from games.models import Game, Seat
from gerrymander_site.errors import ServiceError
from gerrymander_site.sockets import CLOSE_RESYNC, sockets_close

User = get_user_model()

# Each new password is hashed with the production hasher (PBKDF2, 1M iterations: ~0.25 s a
# password on one idle core): one request hashes at most this many, so a roster paste or a
# batch of new login cards stays under ~8 s even on a busy single core (60 took 15-20 s).
MAX_ROSTER = 30
HASH_WORKERS = 4  # hashlib's PBKDF2 releases the GIL: hash a batch on a few threads
NAME_MAX = 60
TEACHER_PASSWORD_MIN = 10
DEFAULT_BENCH_BOT = "easy"

# Student passwords are three short words and two digits ("maple-otter-kite-47"): easy for a
# ten-year-old to type, and with ~2,950 words at least 40 bits of randomness.
_WORDS = tuple(
    line.strip() for line in (Path(__file__).parent / "password_words.txt").read_text().splitlines()
    if line.strip() and not line.startswith("#")
)
_DIGITS = "23456789"


class ClassroomError(ServiceError):
    """A classroom request that cannot be done; ``message`` says why."""


# --- accounts ---------------------------------------------------------------------------

def teachers_group():
    return Group.objects.get_or_create(name=TEACHERS_GROUP)[0]


@transaction.atomic
def teacher_make(*, user, approved=True):
    """Make ``user`` a teacher.  An admin's teachers are approved; a self-signed-up teacher
    (``approved=False``) is limited until an admin approves them (``teacher_approve``)."""
    user.groups.add(teachers_group())
    profile, created = TeacherProfile.objects.get_or_create(
        user=user, defaults={"approved": approved,
                             "approved_at": timezone.now() if approved else None})
    if not created and approved and not profile.approved:
        teacher_approve(user=user)
    return user


def teacher_approve(*, user):
    TeacherProfile.objects.update_or_create(
        user=user, defaults={"approved": True, "approved_at": timezone.now()})
    return user


@transaction.atomic
def teacher_signup(*, username, password, name="", email=""):
    if User.objects.filter(username__iexact=username).exists():
        raise ClassroomError("That username is taken.", code="username_taken")
    user = User.objects.create_user(username=username, password=password, email=email,
                                    first_name=name[:150])
    return teacher_make(user=user, approved=False)


def easy_password():
    words = "-".join(secrets.choice(_WORDS) for _ in range(3))
    return f"{words}-{''.join(secrets.choice(_DIGITS) for _ in range(2))}"


def password_strength_bits():
    """The randomness of ``easy_password`` in bits."""
    import math

    return 3 * math.log2(len(_WORDS)) + 2 * math.log2(len(_DIGITS))


def password_check(password, *, name="", teacher=False):
    """Django's password validators (common passwords, likeness to the name, length: at least
    10 for teachers), as one ClassroomError that says what to change."""
    from django.contrib.auth.password_validation import (
        MinimumLengthValidator,
        get_default_password_validators,
        validate_password,
    )
    from django.core.exceptions import ValidationError

    validators = get_default_password_validators()
    if teacher:
        validators = [*validators, MinimumLengthValidator(TEACHER_PASSWORD_MIN)]
    try:
        validate_password(password or "", user=User(first_name=name, username=name),
                          password_validators=validators)
    except ValidationError as exc:
        raise ClassroomError(" ".join(exc.messages), code="password") from None


def _ascii_slug(name):
    folded = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    first = (folded.split() or [""])[0].lower()
    return re.sub(r"[^a-z]", "", first)[:12] or "student"


def username_generate(name):
    """``ana`` + 3 digits (2-9), unique; longer suffixes if a short one keeps colliding."""
    base = _ascii_slug(name)
    for attempt in range(60):
        digits = 3 if attempt < 30 else 5
        candidate = base + "".join(secrets.choice(_DIGITS) for _ in range(digits))
        if not User.objects.filter(username__iexact=candidate).exists():
            return candidate
    raise ClassroomError("Could not find a free username; try again.")  # pragma: no cover


# Bidirectional-text controls can make a name display as something else ("evil\u202etxt.exe")
# and are never needed in a classroom name; control characters likewise.
_INVISIBLE = dict.fromkeys(
    [*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F, 0x061C,
     *range(0x00, 0x20), 0x7F], " ")


def strip_controls(text):
    return (text or "").translate(_INVISIBLE)


def clean_display_name(name):
    name = " ".join(strip_controls(name).split())
    if not name:
        raise ClassroomError("A name cannot be empty.", code="name")
    if len(name) > NAME_MAX:
        raise ClassroomError(f"A name can be at most {NAME_MAX} characters.", code="name")
    return name


def hash_passwords(passwords):
    """``make_password`` for each, on a few threads (same hasher and strength as always)."""
    passwords = list(passwords)
    if len(passwords) <= 1:
        return [make_password(p) for p in passwords]
    with ThreadPoolExecutor(max_workers=min(HASH_WORKERS, len(passwords))) as pool:
        return list(pool.map(make_password, passwords))


def _student_create(name, password=None, *, encoded=None, classroom, display=None):
    """A new student account with ``password`` (or an already hashed ``encoded`` one), made
    by ``classroom``: that class's teacher manages it.  ``name`` is the full name (kept for
    the teacher), ``display`` the class-unique short name everyone sees (classrooms.names)."""
    display = display or name
    for _ in range(5):
        try:
            with transaction.atomic():
                if encoded is None:
                    user = User.objects.create_user(
                        username=username_generate(name), password=password,
                        first_name=display,
                    )
                else:
                    user = User(username=username_generate(name), first_name=display,
                                password=encoded)
                    user.save()
                StudentAccount.objects.create(user=user, created_by_class=classroom,
                                              full_name=name)
                return user
        except IntegrityError:  # a racing join took the same username
            continue
    raise ClassroomError("Could not create the account; try again.")  # pragma: no cover


def _room_changed(classroom_id):
    """The class's live dashboards list its students: tell them someone came or went."""
    from classrooms.live import room_changed_broadcast

    room_changed_broadcast(classroom_id)


# --- classes ----------------------------------------------------------------------------

def join_code_generate():
    while True:
        code = "".join(secrets.choice(JOIN_CODE_ALPHABET) for _ in range(JOIN_CODE_LENGTH))
        if not Classroom.objects.filter(join_code=code).exists():
            return code


def join_code_normalize(code):
    """Upper-case, drop spaces and dashes; map look-alikes a student might type."""
    code = re.sub(r"[\s\-]", "", code or "").upper()
    return code.translate(str.maketrans({"0": "O", "1": "I"}))  # never valid: stays a miss


def classroom_create(*, teacher, name):
    name = clean_display_name(name)
    return Classroom.objects.create(teacher=teacher, name=name, join_code=join_code_generate())


def classroom_rename(*, classroom, name):
    classroom.name = clean_display_name(name)
    classroom.save(update_fields=["name"])
    return classroom


def join_code_regenerate(*, classroom):
    classroom.join_code = join_code_generate()
    classroom.save(update_fields=["join_code"])
    return classroom


def join_code_set_open(*, classroom, is_open):
    classroom.join_open = bool(is_open)
    classroom.save(update_fields=["join_open"])
    return classroom


def roster_parse(text):
    """The students of a roster paste (``names.RosterLine``: first and last name, the line
    it came from), each name checked; the header row of a spreadsheet paste is skipped."""
    roster = names.roster_read(strip_controls_lines(text))
    for line in roster.lines:
        clean_display_name(line.full)  # not too long (names are already one-spaced)
    if not roster.lines:
        raise ClassroomError("Paste at least one name, one per line.", code="roster_empty")
    if len(roster.lines) > MAX_ROSTER:
        raise ClassroomError(f"At most {MAX_ROSTER} names at a time.", code="roster_large")
    return roster


def strip_controls_lines(text):
    """``strip_controls`` that keeps line breaks and tabs (a roster's rows and columns)."""
    return "\n".join("\t".join(strip_controls(cell) for cell in line.split("\t"))
                     for line in (text or "").splitlines())


def _class_people(classroom, exclude_id=None):
    """``(display name, first, last)`` of the class's students, for ``names``."""
    people = []
    memberships = Membership.objects.filter(classroom=classroom).select_related(
        "student", "student__student_account")
    for m in memberships:
        if m.student_id == exclude_id:
            continue
        account = getattr(m.student, "student_account", None)
        full = (account.full_name if account else "") or m.student.first_name
        first, last, _ = names.split_name(full) if full else ("", "", False)
        people.append((m.student.first_name or m.student.username, first, last))
    return people


def roster_preview(*, classroom, text):
    """What ``roster_add`` would make of ``text``, without making anything: ``{"lines":
    [{"full", "first", "last", "display", "source", "notes", "twice", "in_class"}],
    "header"}``.  ``twice``: the same name is on another line too; ``in_class``: a student
    of the class already has this name.  ClassroomError as ``roster_add``."""
    roster = roster_parse(text)
    existing = _class_people(classroom)
    displays = names.unique_display_names([(r.first, r.last) for r in roster.lines], existing)
    fulls = [r.full.casefold() for r in roster.lines]
    in_class = {f"{first} {last}".strip().casefold() for _, first, last in existing}
    lines = [{"full": r.full, "first": r.first, "last": r.last, "display": display,
              "source": r.source, "notes": list(r.notes),
              "twice": fulls.count(r.full.casefold()) > 1,
              "in_class": r.full.casefold() in in_class}
             for r, display in zip(roster.lines, displays, strict=True)]
    return {"lines": lines, "header": roster.header}


@transaction.atomic
def roster_add(*, classroom, text):
    """Create an account per pasted name.  Returns [(user, password)] for the login cards.

    Each account's display name is short and unique in the class (``names``); the full
    name is kept for the teacher.  New accounts are always plain students (never staff or
    teachers)."""
    Classroom.objects.select_for_update().filter(pk=classroom.pk).first()  # one paste at once
    lines = roster_preview(classroom=classroom, text=text)["lines"]
    passwords = [easy_password() for _ in lines]
    created = []
    for line, password, encoded in zip(lines, passwords, hash_passwords(passwords),
                                       strict=True):
        user = _student_create(line["full"], encoded=encoded, classroom=classroom,
                               display=line["display"])
        Membership.objects.create(classroom=classroom, student=user, source="roster")
        created.append((user, password))
    transaction.on_commit(lambda: _room_changed(classroom.pk))
    return created


def join_target(*, code, user=None):
    """The open class a code names, when ``user`` (signed in, or None for a new account) may
    join it: what the "join this class?" question names.  ClassroomError otherwise (code
    "bad_code" for a code that opens nothing: the caller counts these for the rate limit).

    A teacher not yet approved by an admin cannot take students who already belong to
    another teacher's class."""
    classroom = Classroom.objects.select_related("teacher").filter(
        join_code=join_code_normalize(code), join_open=True).first()
    if classroom is None:
        raise ClassroomError("That code does not open any class. Check it with your teacher.",
                             code="bad_code")
    if user is not None and getattr(user, "is_authenticated", False):
        if classroom.teacher_id == user.pk:
            raise ClassroomError("You teach this class.", code="own_class")
        if not is_plain_student(user):
            raise ClassroomError(
                "Teacher and admin accounts cannot join a class as students. Sign out, "
                "then join with a new student account.", code="not_student")
        elsewhere = Membership.objects.filter(student=user).exclude(
            classroom__teacher=classroom.teacher).exists()
        if elsewhere and not teacher_is_approved(classroom.teacher):
            raise ClassroomError(
                f"{classroom.name}'s teacher is new here and not approved yet, so the class "
                "cannot take students who are already in another teacher's class. Ask your "
                "teacher.", code="teacher_not_approved")
    return classroom


@transaction.atomic
def student_join(*, code, name, password, user=None):
    """Self-join with a code: a new account (returned) or, if ``user`` is signed in, theirs
    (the page asks them first, naming the class and its teacher).

    A signed-in student keeps their account's manager: joining gives the new class's teacher
    no say over it.
    """
    signed_in = user is not None and getattr(user, "is_authenticated", False)
    classroom = join_target(code=code, user=user if signed_in else None)
    if signed_in:
        _, made = Membership.objects.get_or_create(classroom=classroom, student=user,
                                                   defaults={"source": "code"})
        if made:
            transaction.on_commit(lambda: _room_changed(classroom.pk))
        return classroom, user
    name = clean_display_name(name)
    password_check(password, name=name)
    first, last, _ = names.split_name(name)
    Classroom.objects.select_for_update().filter(pk=classroom.pk).first()  # unique names
    display = names.unique_display_names([(first, last)], _class_people(classroom))[0]
    user = _student_create(name, password, classroom=classroom, display=display)
    Membership.objects.create(classroom=classroom, student=user, source="code")
    transaction.on_commit(lambda: _room_changed(classroom.pk))
    return classroom, user


def _membership(classroom, student_id):
    membership = Membership.objects.select_related("student").filter(
        classroom=classroom, student_id=student_id
    ).first()
    if membership is None:
        raise ClassroomError("That student is not in this class.", code="not_member")
    return membership


def _managed_membership(classroom, student_id, by):
    """The membership, if ``by`` may change that account: a plain student whose account
    ``by``'s class created (or an admin granted ``by``, or ``by`` is an admin)."""
    membership = _membership(classroom, student_id)
    student = membership.student
    if not is_plain_student(student):
        raise ClassroomError(
            f"{student.username} is a teacher or admin account: only an admin can change it.",
            code="protected_account")
    if not teacher_manages(teacher=by, student=student):
        raise ClassroomError(
            f"{student.first_name or student.username}'s account was made by another class: "
            "only that class's teacher (or an admin) can change it.", code="not_your_account")
    return membership


def student_password_reset(*, classroom, student_id, by):
    student = _managed_membership(classroom, student_id, by).student
    password = easy_password()
    student.set_password(password)
    student.save(update_fields=["password"])
    return student, password


def cards_reissue(*, classroom, by, skip_ids=(), only_ids=None):
    """New passwords for up to MAX_ROSTER students of the class whose accounts ``by`` may
    change, not in ``skip_ids`` (and in ``only_ids`` when given).

    Returns ({user_id: password}, number still to do).  Teacher and admin accounts, and
    accounts another class made, are never touched."""
    skip = {int(i) for i in skip_ids}
    managed = managed_student_ids(teacher=by, classroom=classroom)
    only = None if only_ids is None else {int(i) for i in only_ids}
    todo = [m.student for m in class_plain_students(classroom=classroom)
            if m.student_id not in skip and m.student_id in managed
            and (only is None or m.student_id in only)]
    batch, remaining = todo[:MAX_ROSTER], len(todo) - min(len(todo), MAX_ROSTER)
    passwords = [easy_password() for _ in batch]
    with transaction.atomic():
        for student, encoded in zip(batch, hash_passwords(passwords), strict=True):
            student.password = encoded
            student.save(update_fields=["password"])
    return {s.pk: p for s, p in zip(batch, passwords, strict=True)}, remaining


@transaction.atomic
def student_rename(*, classroom, student_id, name, by):
    """Give a student a new full name; their display name follows, unique in the class."""
    student = _managed_membership(classroom, student_id, by).student
    full = clean_display_name(name)
    first, last, _ = names.split_name(full)
    student.first_name = names.unique_display_names(
        [(first, last)], _class_people(classroom, exclude_id=student.pk))[0]
    student.last_name = ""
    student.save(update_fields=["first_name", "last_name"])
    StudentAccount.objects.filter(user=student).update(full_name=full)
    return student


@transaction.atomic
def student_remove(*, classroom, student_id, by):
    """Take a student out of the class; their unfinished seats there go to bots.

    An account that belongs to no other class (and is no teacher or admin) is deactivated,
    not deleted, so finished games keep their players - but only by a teacher who manages
    the account: any other teacher just takes the student out of their own class.
    """
    membership = _membership(classroom, student_id)
    student = membership.student
    if not is_plain_student(student):
        raise ClassroomError(
            f"{student.username} is a teacher or admin account: only an admin can change it.",
            code="protected_account")
    tables = AssignmentGame.objects.filter(
        assignment__classroom=classroom, game__seats__user=student
    ).exclude(game__status=Game.Status.FINISHED).select_related("assignment", "game")
    for table in tables:
        seat = table.game.seats.get(user=student)
        _seat_assign(game_id=table.game_id, index=seat.index, expect=(student.pk, ""),
                     bot_level=table.assignment.bot_level or DEFAULT_BENCH_BOT)
    membership.delete()
    if teacher_manages(teacher=by, student=student) and not student.memberships.exists():
        student.is_active = False
        student.save(update_fields=["is_active"])
    else:
        transaction.on_commit(lambda: sockets_close(user_id=student.pk, code=CLOSE_RESYNC))
    # their card's QR code no longer signs them in
    SignInLink.objects.filter(classroom=classroom, student=student,
                              revoked_at__isnull=True).update(revoked_at=timezone.now())
    transaction.on_commit(lambda: _room_changed(classroom.pk))
    return student


# --- QR sign-in links (login cards) -----------------------------------------------------

SIGNIN_LINK_TTL = timedelta(days=3)
SIGNIN_SALT = "classrooms.signin-link"


def _secret_hash(secret):
    return hashlib.sha256(secret.encode()).hexdigest()


@transaction.atomic
def signin_links_issue(*, classroom, by, student_ids):
    """A new sign-in link (for a card's QR code) for each of ``student_ids`` whose account
    ``by`` may change; the student's older links for this class stop working.

    Returns ``{student id: token}`` (the token is the signed part of the link's URL; only a
    hash of its secret is stored, so it cannot be shown again)."""
    managed = managed_student_ids(teacher=by, classroom=classroom)
    wanted = [int(i) for i in student_ids if int(i) in managed]
    now = timezone.now()
    SignInLink.objects.filter(classroom=classroom, student_id__in=wanted,
                              revoked_at__isnull=True, used_at__isnull=True) \
        .update(revoked_at=now)
    tokens = {}
    signer = signing.TimestampSigner(salt=SIGNIN_SALT)
    for student_id in wanted:
        secret = secrets.token_urlsafe(16)
        link = SignInLink.objects.create(student_id=student_id, classroom=classroom,
                                         secret_hash=_secret_hash(secret), created_by=by,
                                         expires_at=now + SIGNIN_LINK_TTL)
        tokens[student_id] = signer.sign(f"{link.pk}.{secret}")
    return tokens


def _signin_link(token):
    """The live link a token names, else ClassroomError (code ``link_bad``, ``link_used``,
    ``link_revoked`` or ``link_expired``) whose message a student can read."""
    expired = ClassroomError("This sign-in code is too old. Ask your teacher for a new card.",
                             code="link_expired")
    try:
        value = signing.TimestampSigner(salt=SIGNIN_SALT).unsign(
            str(token or ""), max_age=SIGNIN_LINK_TTL)
    except signing.SignatureExpired:
        raise expired from None
    except signing.BadSignature:
        raise ClassroomError("This sign-in code does not work. Sign in with your username "
                             "and password, or ask your teacher.", code="link_bad") from None
    link_id, _, secret = value.partition(".")
    link = SignInLink.objects.select_related("student", "classroom").filter(
        pk=int(link_id) if link_id.isdigit() else 0).first()
    if link is None or not secrets.compare_digest(link.secret_hash, _secret_hash(secret)):
        raise ClassroomError("This sign-in code does not work. Ask your teacher.",
                             code="link_bad")
    if link.used_at is not None:
        raise ClassroomError("This sign-in code was already used. Sign in with your username "
                             "and password, or ask your teacher for a new card.",
                             code="link_used")
    if link.revoked_at is not None:
        raise ClassroomError("Your teacher turned this sign-in code off. Ask for a new card.",
                             code="link_revoked")
    if link.expires_at <= timezone.now():
        raise expired
    student = link.student
    if not (student.is_active and is_plain_student(student)
            and Membership.objects.filter(classroom=link.classroom, student=student).exists()):
        raise ClassroomError("This sign-in code does not work any more. Ask your teacher.",
                             code="link_bad")
    return link


def signin_link_peek(token):
    """Whose link this is (checked, not used): for the "Sign in as ...?" question."""
    return _signin_link(token)


@transaction.atomic
def signin_link_use(token):
    """Use a sign-in link (once): returns the student to sign in."""
    link = _signin_link(token)
    used = SignInLink.objects.filter(pk=link.pk, used_at__isnull=True,
                                     revoked_at__isnull=True).update(used_at=timezone.now())
    if not used:  # another tablet was quicker
        raise ClassroomError("This sign-in code was already used. Ask your teacher for a new "
                             "card.", code="link_used")
    return link.student


def signin_links_revoke(*, classroom, student_id=None):
    """Turn off the class's unused sign-in links (one student's, or everyone's); returns how
    many were turned off."""
    links = SignInLink.objects.filter(classroom=classroom, used_at__isnull=True,
                                      revoked_at__isnull=True, expires_at__gt=timezone.now())
    if student_id is not None:
        _membership(classroom, student_id)
        links = links.filter(student_id=student_id)
    return links.update(revoked_at=timezone.now())


# --- assignments ------------------------------------------------------------------------

def tables_propose(*, students, table_size, seed=None):
    """Shuffle and split into ceil(n / size) tables whose sizes differ by at most one."""
    students = list(students)
    random.Random(seed).shuffle(students)
    if not students:
        return []
    count = -(-len(students) // table_size)
    tables = [[] for _ in range(count)]
    for i, student in enumerate(students):
        tables[i % count].append(student)
    return tables


def _students(classroom):
    return [m.student for m in class_memberships(classroom=classroom)]


def empty_seats_check(*, bot_level, table_sizes, seats):
    """With "no bots", every seat needs a student: a seat left open would keep its table
    waiting for good (only the teacher can fill it)."""
    if bot_level:
        return
    empty = sum(seats - size for size in table_sizes)
    if empty:
        raise ClassroomError(
            f"Choose a bot level to fill the {empty} empty seat{'s' if empty != 1 else ''}, "
            "or change the table size.", code="empty_seats")


@transaction.atomic
def assignment_create(*, classroom, title, kind, mode, options=None, table_size=None,
                      grouping="random", bot_level="", due_at=None, close_at_due=False):
    """Create an assignment of game ``kind`` in ``mode`` with the chosen ``options``; random
    grouping starts it at once (one game per table)."""
    if kind not in kinds():
        raise ClassroomError("Unknown game.", code="kind")
    rules = get_rules(kind)
    try:
        rules.mode(mode)
    except KeyError:
        raise ClassroomError("Unknown game mode.", code="mode") from None
    if bot_level not in ("", *Seat.BotLevel.values):
        raise ClassroomError("Unknown bot level.", code="bot_level")
    if close_at_due and due_at is None:
        raise ClassroomError("Choose a due time to close the games at, or untick \"Close the "
                             "games at the due time\".", code="due_at")
    assignment = Assignment(classroom=classroom, kind=kind, mode=mode, options=dict(options or {}),
                            grouping=grouping, bot_level=bot_level, due_at=due_at,
                            close_at_due=bool(close_at_due))
    try:
        seats = rules.seat_count(_game_options(assignment))
    except IllegalMove as exc:
        raise ClassroomError(exc.message, code="options") from exc
    table_size = seats if table_size is None else int(table_size)
    if not 1 <= table_size <= seats:
        raise ClassroomError(f"A table of this game seats 1 to {seats} students.",
                             code="table_size")
    if grouping not in Assignment.Grouping.values:
        raise ClassroomError("Unknown grouping.", code="grouping")
    assignment.title = clean_display_name(title)
    assignment.table_size = table_size
    assignment.save()
    if grouping == Assignment.Grouping.RANDOM:
        students = _students(classroom)
        if not students:
            raise ClassroomError("This class has no students yet.", code="no_students")
        assignment_start(assignment=assignment,
                         tables=tables_propose(students=students, table_size=table_size))
    return assignment


def _game_options(assignment):
    """The engine options of an assignment's games: its mode and options, and the data of the
    map chosen (``options["map"]``, a map id), copied into each game (games.maps)."""
    try:
        return game_maps.map_options(kind=assignment.kind, options=assignment.engine_options(),
                                     map_id=(assignment.options or {}).get("map"))
    except game_maps.MapUnavailable as exc:
        raise ClassroomError(exc.message, code="map") from exc


@transaction.atomic
def assignment_start(*, assignment, tables):
    """Create one game per table.  ``tables`` is a list of lists of users (or user ids)."""
    given, assignment = assignment, Assignment.objects.select_for_update().get(pk=assignment.pk)
    if assignment.status == Assignment.Status.STARTED:
        raise ClassroomError("This assignment has already started.", code="started")
    members = {s.pk: s for s in _students(assignment.classroom)}
    seen = set()
    resolved = []
    for table in tables:
        users = []
        for entry in table:
            pk = getattr(entry, "pk", entry)
            if isinstance(pk, str) and pk.isascii() and pk.isdigit() and len(pk) <= 18:
                pk = int(pk)
            if not isinstance(pk, int) or isinstance(pk, bool):  # 2.5, true, "x", [...]
                raise ClassroomError("Each student is given by their whole-number id.",
                                     code="not_member")
            if pk not in members:
                raise ClassroomError("Every player must be a student of this class.",
                                     code="not_member")
            if pk in seen:
                raise ClassroomError("A student can sit at one table only.", code="duplicate")
            seen.add(pk)
            users.append(members[pk])
        if users:
            resolved.append(users)
    if not resolved:
        raise ClassroomError("Put at least one student at a table.", code="no_students")
    seats = assignment.seat_count()
    for number, users in enumerate(resolved, start=1):
        if len(users) > seats:
            raise ClassroomError(f"Table {number} has {len(users)} students; it seats {seats}.",
                                 code="table_full")
    empty_seats_check(bot_level=assignment.bot_level, seats=seats,
                      table_sizes=[len(users) for users in resolved])
    options = _game_options(assignment)  # every table gets the same map version
    for number, users in enumerate(resolved, start=1):
        specs = [game_services.SeatSpec(user=u) for u in users]
        specs += [game_services.SeatSpec(bot_level=assignment.bot_level)] * (seats - len(users))
        random.shuffle(specs)  # parties (seat i = party i) are dealt at random
        game = game_services.game_create(
            kind=assignment.kind, options=options,
            created_by=assignment.classroom.teacher, seats=specs,
        )
        AssignmentGame.objects.create(assignment=assignment, game=game, table=number)
    assignment.status = given.status = Assignment.Status.STARTED
    assignment.save(update_fields=["status"])
    return given


def _seat_assign(*, game_id, index, expect, user=None, bot_level=""):
    """``games.services.seat_assign`` guarded by who held the seat when we looked (checked
    again under the game's row lock: a seat changed meanwhile raises, nothing is overwritten)."""
    try:
        return game_services.seat_assign(game_id=game_id, index=index, user=user,
                                         bot_level=bot_level, expect=expect)
    except game_services.GameError as exc:
        raise ClassroomError(exc.message, code=exc.code) from exc


def _table(assignment, table_id):
    table = AssignmentGame.objects.select_related("game", "assignment").filter(
        assignment=assignment, pk=table_id
    ).first()
    if table is None:
        raise ClassroomError("There is no such table.", code="no_table")
    return table


@transaction.atomic
def seat_to_bot(*, assignment, table_id, index, bot_level=""):
    """Hand a student's seat to a bot mid-game; remember the student to hand it back."""
    table = _table(assignment, table_id)
    seat = table.game.seats.filter(index=index).first()
    if seat is None:
        raise ClassroomError("There is no such seat.", code="no_seat")
    _seat_assign(game_id=table.game_id, index=index, expect=(seat.user_id, seat.bot_level),
                 bot_level=bot_level or assignment.bot_level or DEFAULT_BENCH_BOT)
    if seat.user_id is not None:
        table.refresh_from_db(fields=["benched"])  # read under the game's row lock
        table.benched[str(index)] = seat.user_id
        table.save(update_fields=["benched"])
    return table


@transaction.atomic
def seat_to_student(*, assignment, table_id, index, student_id):
    """Give a seat (a bot's or an open one) to a student of the class.

    A student sitting at another unfinished table of this assignment leaves it to a bot first,
    so this is also "move a student to another table".
    """
    table = _table(assignment, table_id)
    student = _membership(assignment.classroom, student_id).student
    seat = table.game.seats.filter(index=index).first()
    if seat is None:
        raise ClassroomError("There is no such seat.", code="no_seat")
    if seat.user_id == student.pk:
        return table
    if seat.user_id is not None:
        raise ClassroomError("A student holds that seat; hand it to a bot first.",
                             code="seat_taken")
    others = AssignmentGame.objects.filter(assignment=assignment, game__seats__user=student) \
        .exclude(pk=table.pk).exclude(game__status=Game.Status.FINISHED)
    for other in others:
        other_seat = other.game.seats.get(user=student)
        seat_to_bot(assignment=assignment, table_id=other.pk, index=other_seat.index)
    _seat_assign(game_id=table.game_id, index=index, user=student,
                 expect=(seat.user_id, seat.bot_level))
    table.refresh_from_db()
    table.benched.pop(str(index), None)
    table.save(update_fields=["benched"])
    return table


def student_move(*, assignment, student_id, table_id):
    """Move a student to another table: they take its first open seat, else a bot's seat."""
    table = _table(assignment, table_id)
    if table.game.status == Game.Status.FINISHED:
        raise ClassroomError("That table's game is over.", code="finished")
    seats = list(table.game.seats.all())
    if any(s.user_id == int(student_id) for s in seats):
        return table
    free = [s for s in seats if s.is_empty] or [s for s in seats if s.is_bot]
    if not free:
        raise ClassroomError("That table has no seat free for a student.", code="table_full")
    return seat_to_student(assignment=assignment, table_id=table.pk, index=free[0].index,
                           student_id=student_id)


@transaction.atomic
def assignment_set_paused(*, assignment, paused, message=""):
    """"Eyes on me": pause (or resume) every game of the assignment; the students' boards show
    the teacher's ``message``.  Resuming an assignment closed at its due time opens it again
    (and it no longer closes by itself)."""
    for game_id in assignment.tables.values_list("game_id", flat=True):
        game_services.game_set_paused(game_id=game_id, paused=paused, message=message)
    assignment.paused = bool(paused)
    fields = ["paused"]
    if not paused and assignment.closed_at is not None:
        assignment.closed_at, assignment.close_at_due = None, False
        fields += ["closed_at", "close_at_due"]
    assignment.save(update_fields=fields)
    from classrooms.live import assignment_paused_broadcast

    transaction.on_commit(lambda: assignment_paused_broadcast(assignment.pk, paused))
    return assignment


# --- late joiners, new tables ---------------------------------------------------------------

def _table_new(assignment, users):
    """A new table (game) for a started assignment: ``users`` and bots in the other seats
    (the assignment's level, or DEFAULT_BENCH_BOT when it has none: a late joiner must be
    able to play).  The caller holds the assignment's row lock (table numbers)."""
    from django.db.models import Max

    seats = assignment.seat_count()
    bot = assignment.bot_level or DEFAULT_BENCH_BOT
    specs = [game_services.SeatSpec(user=u) for u in users]
    specs += [game_services.SeatSpec(bot_level=bot)] * (seats - len(users))
    random.shuffle(specs)
    try:
        game = game_services.game_create(kind=assignment.kind, options=_game_options(assignment),
                                          created_by=assignment.classroom.teacher, seats=specs)
    except game_services.GameError as exc:
        raise ClassroomError(exc.message, code=exc.code) from exc
    number = (assignment.tables.aggregate(n=Max("table"))["n"] or 0) + 1
    table = AssignmentGame.objects.create(assignment=assignment, game=game, table=number)
    if assignment.paused:
        game_services.game_set_paused(game_id=game.pk, paused=True)
    return table


@transaction.atomic
def student_seat(*, assignment, student_id):
    """One click for a student without a seat (a late joiner, or one replaced by a bot):
    their own seat back if a bot still holds it, else a free seat at an unfinished table,
    else a bot's seat (the student takes over mid-game; a seat kept for a replaced student
    is left alone), else a new table with bots in the other seats.  Solo games always get a
    new table.  Returns the ``AssignmentGame``.

    A student already at an unfinished table, or finished there, is not seated again: one
    student never holds two seats of one assignment this way (the dashboard's "give seat"
    moves them instead, see ``seat_to_student``)."""
    from classrooms import selectors

    assignment = Assignment.objects.select_for_update().select_related("classroom") \
        .get(pk=assignment.pk)
    if assignment.status != Assignment.Status.STARTED:
        raise ClassroomError("The tables are still being arranged: start the games first.",
                             code="not_started")
    if assignment.closed_at is not None:
        raise ClassroomError("This assignment closed at its due time: open it again first.",
                             code="closed")
    student = _membership(assignment.classroom, student_id).student
    name = student.first_name or student.username
    tables = list(assignment.tables.select_related("game").prefetch_related("game__seats"))
    standing = selectors.student_standings(assignment=assignment, tables=tables).get(student.pk)
    status = standing["status"] if standing else selectors.NOT_SEATED
    if status in (selectors.PLAYING, selectors.CLOSED):
        raise ClassroomError(f"{name} already has a seat at table {standing['table'].table}.",
                             code="already_seated")
    if status == selectors.FINISHED:
        raise ClassroomError(f"{name} has finished their game at table "
                             f"{standing['table'].table}.", code="finished")
    open_tables = [t for t in tables if t.game.status != Game.Status.FINISHED]
    if status == selectors.REPLACED:
        table = standing["table"]
        seat = next((x for x in table.game.seats.all() if x.index == standing["seat"]), None)
        if table.game.status != Game.Status.FINISHED and seat is not None and seat.is_bot:
            return seat_to_student(assignment=assignment, table_id=table.pk, index=seat.index,
                                   student_id=student.pk)
    if not assignment.is_solo:
        def students_at(table):
            return sum(1 for x in table.game.seats.all() if x.user_id)

        free = [(students_at(t), t.table, x.index, t) for t in open_tables
                for x in t.game.seats.all() if x.is_empty]
        if not free:
            free = [(students_at(t), t.table, x.index, t) for t in open_tables
                    for x in t.game.seats.all()
                    if x.is_bot and str(x.index) not in (t.benched or {})]
        if free:
            _, _, index, table = min(free, key=lambda f: f[:3])
            return seat_to_student(assignment=assignment, table_id=table.pk, index=index,
                                   student_id=student.pk)
    return _table_new(assignment, [student])


def students_seat_all(*, assignment):
    """``student_seat`` for every student of the class who is not seated; returns
    ``[(student id, table or ClassroomError)]``."""
    from classrooms import selectors

    room = selectors.dashboard_room(assignment=assignment)
    done = []
    for student in room["students"]:
        if student["status"] != selectors.NOT_SEATED:
            continue
        try:
            done.append((student["id"], student_seat(assignment=assignment,
                                                     student_id=student["id"])))
        except ClassroomError as exc:
            done.append((student["id"], exc))
    return done


# --- the due time ---------------------------------------------------------------------------

CLOSED_MESSAGE = "Time is up: this assignment closed at its due time."


@transaction.atomic
def assignment_close(*, assignment, message=CLOSED_MESSAGE):
    """Close an assignment: its unfinished games are paused with ``message`` (finished games
    keep their results; nothing is decided for the others: results say "not finished").
    The teacher can open it again with "Resume all games"."""
    assignment = Assignment.objects.select_for_update().get(pk=assignment.pk)
    if assignment.closed_at is not None:
        return assignment
    for game_id in assignment.tables.exclude(game__status=Game.Status.FINISHED) \
            .values_list("game_id", flat=True):
        game_services.game_set_paused(game_id=game_id, paused=True, message=message)
    assignment.closed_at = timezone.now()
    assignment.paused = True
    assignment.save(update_fields=["closed_at", "paused"])
    from classrooms.live import assignment_paused_broadcast

    transaction.on_commit(lambda: assignment_paused_broadcast(assignment.pk, True))
    return assignment


def assignments_close_due(*, now=None):
    """Close every started assignment whose teacher chose "close at the due time" and whose
    due time has passed; returns their ids.  Cheap when there is nothing to do (one query):
    run by Celery beat, and whenever a dashboard or "my games" asks."""
    now = now or timezone.now()
    due = list(Assignment.objects.filter(
        close_at_due=True, closed_at__isnull=True, due_at__lte=now,
        status=Assignment.Status.STARTED).values_list("pk", flat=True))
    closed = []
    for pk in due:
        assignment = Assignment.objects.filter(pk=pk).first()
        if assignment is not None:
            assignment_close(assignment=assignment)
            closed.append(pk)
    return closed
