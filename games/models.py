"""Games, their seats and their append-only move log.

The engine state is a JSON snapshot on ``Game``; ``Move`` rows are the source of truth from
which any game can be rebuilt (``manage.py game_replay``).  Only ``games.services`` writes
these rows.
"""

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone

from games.access import share_key_new


class Game(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting", "Waiting for players"
        ACTIVE = "active", "In play"
        PAUSED = "paused", "Paused"
        FINISHED = "finished", "Finished"

    # A registered game (``games.engine.kinds()``); its title comes from the engine.
    kind = models.CharField(max_length=32)
    options = models.JSONField(default=dict, blank=True)
    # The seed never leaves the server: it decides hidden setup (tiles, hands, deck orders).
    seed = models.CharField(max_length=64)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.WAITING)
    # What the teacher said when pausing ("Eyes on me: we talk about packing").
    pause_message = models.CharField(max_length=200, blank=True)
    state = models.JSONField()
    version = models.PositiveIntegerField(default=0)
    # The version at which the current step began.  Usually the version itself; in a
    # simultaneous step (several seats to move) every seat may still move on the board as it
    # was at any version since then (see ``services.move_submit``).
    step_version = models.PositiveIntegerField(default=0)
    result = models.JSONField(null=True, blank=True)
    # Made in the lobby (classroom tables are made by an assignment and seated by the teacher).
    lobby = models.BooleanField(default=False)
    # The key of the game's share link: with it, a signed-in user may watch and take a seat.
    share_key = models.CharField(max_length=32, default=share_key_new, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="games_created",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    last_move_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["status"])]

    def __str__(self):
        return f"{self.title} #{self.pk}"

    def get_absolute_url(self):
        return reverse("games:detail", args=[self.pk])

    @property
    def title(self):
        from games.engine import RULES

        rules = RULES.get(self.kind)
        return rules.title if rules else self.kind

    @property
    def is_open(self):
        return self.status == self.Status.WAITING

    @property
    def map_name(self):
        """The name of the state map the game is played on, as it was when the game was made
        ("" on the game's own board)."""
        ref = (self.options or {}).get("map_ref")
        name = ref.get("name") if isinstance(ref, dict) else None
        return name if isinstance(name, str) else ""


class Seat(models.Model):
    """One place at the table: a user, a bot of some level, or (while waiting) nobody."""

    class BotLevel(models.TextChoices):
        RANDOM = "random", "Random"
        EASY = "easy", "Easy"
        MEDIUM = "medium", "Medium"
        HARD = "hard", "Hard"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="seats",
    )
    bot_level = models.CharField(max_length=16, choices=BotLevel.choices, blank=True)

    class Meta:
        ordering = ["game", "index"]
        constraints = [
            models.UniqueConstraint(fields=["game", "index"], name="seat_unique_index"),
            models.UniqueConstraint(
                fields=["game", "user"], condition=models.Q(user__isnull=False),
                name="seat_unique_user",
            ),
        ]

    def __str__(self):
        return f"{self.game} seat {self.index}: {self.display_name}"

    @property
    def is_bot(self):
        return bool(self.bot_level)

    @property
    def is_empty(self):
        return not self.is_bot and self.user_id is None

    @property
    def display_name(self):
        if self.is_bot:
            return f"Bot ({self.get_bot_level_display()})"
        if self.user_id is None:
            return "Open seat"
        return self.user.get_full_name() or self.user.get_username()


class Move(models.Model):
    """Append-only log: one row per ply, never updated or deleted."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    ply = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    move = models.JSONField()
    by_bot = models.BooleanField(default=False)
    # The game-log lines of this move per viewer, names filled in when it was made:
    # {"<seat>": [...], "s": [...] (spectators)}, or {"*": [...]} when every viewer reads the
    # same.  Derived data (``rules.describe``), kept so the log never needs a replay.
    log = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "ply"]
        constraints = [
            models.UniqueConstraint(fields=["game", "ply"], name="move_unique_ply"),
        ]

    def __str__(self):
        return f"{self.game} ply {self.ply}: seat {self.seat} {self.move}"


class GameLesson(models.Model):
    """What a finished game teaches (``rules.lesson``), and where its map sits among random
    legal maps of the same board (the ensemble), computed once and kept.

    The ensemble is drawn in chunks (``EnsembleChunk``), by Celery workers in the production
    shape and a background process in the embedded one; ``summary`` is filled when the last
    chunk is in.  Everything is derived from the game's final state and seed: deleting this
    row only means computing it again.
    """

    class Status(models.TextChoices):
        NONE = "none", "No ensemble for this game"
        RUNNING = "running", "Drawing random maps"
        DONE = "done", "Done"

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="lesson")
    lesson = models.JSONField(null=True, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.NONE)
    maps = models.PositiveIntegerField(default=0)  # random maps asked for
    chunks = models.PositiveIntegerField(default=0)  # ... in this many pieces
    summary = models.JSONField(null=True, blank=True)  # histograms and percentiles
    # when the ensemble was (last) set going: one still running long after lost its worker
    created_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)

    def __str__(self):
        return f"lesson of {self.game} ({self.status})"


class EnsembleChunk(models.Model):
    """One piece of a game's ensemble: the seats per party of random maps
    ``start`` .. ``stop - 1`` (map i is drawn from its own seed, so pieces can be drawn
    anywhere, in any order, and join up to the same result)."""

    lesson = models.ForeignKey(GameLesson, on_delete=models.CASCADE, related_name="pieces")
    start = models.PositiveIntegerField()
    stop = models.PositiveIntegerField()
    seats = models.JSONField()

    class Meta:
        ordering = ["lesson", "start"]
        constraints = [
            models.UniqueConstraint(fields=["lesson", "start"], name="ensemble_chunk_unique"),
        ]

    def __str__(self):
        return f"{self.lesson} maps {self.start}-{self.stop - 1}"


class GameMap(models.Model):
    """A map for one game (its engine's map data), uploaded by staff or built in.

    Games never point here: a game copies the map's data into its options when it is created
    (with the map's id, name and version for display), so editing or deleting a map never
    changes a game.  Only ``games.maps`` writes these rows; every save passed the engine's
    ``map_check``.  Built-in maps are loaded from ``games/map_data/`` on every migrate.
    """

    kind = models.CharField(max_length=32)  # a registered game
    name = models.CharField(max_length=80)
    slug = models.SlugField(max_length=80)
    description = models.TextField(blank=True, max_length=2000)
    data = models.JSONField()
    # Goes up by one whenever the data changes.
    version = models.PositiveIntegerField(default=1)
    published = models.BooleanField(default=False)
    builtin = models.BooleanField(default=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="maps_created",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["kind", "name", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["kind", "slug"], name="gamemap_unique_slug"),
        ]

    def __str__(self):
        return f"{self.name} ({self.kind})"
