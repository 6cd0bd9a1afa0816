"""The contract every game engine implements (pure Python: no Django, Channels or Celery).

A rules object is stateless; all game data lives in plain JSON-serialisable dicts.  What the
rest of the platform (the spine, classrooms, bots, the game page) may rely on is exactly
this, and nothing else of a game's own keys::

    # what the game is (class attributes, read by lobby, assignment form, dashboards)
    rules.name, rules.title                   # "mapmaker", "Mapmaker: The Gerrymandering Game"
    rules.players_min, rules.players_max      # seats at one table
    rules.imperfect_information               # some seat cannot see part of the state
    rules.simultaneous                        # to_move may list several seats at once
    rules.modes                               # (Mode, ...): the ways to play it
    rules.options                             # (Option, ...): further choices, per mode
    rules.decided_by                          # {result["decided_by"] code: short words}
    rules.anytime_moves                       # move types a seat still playing may make even
                                              #   when not to move (e.g. "leave"); not listed
                                              #   in legal_moves for seats not to move
    rules.seat_count(options) -> int          # seats a game with these options has

    # playing
    state = rules.setup(options, seed)        # deterministic from the seed (int or str)
    rules.to_move(state) -> list[int]         # seats whose input is awaited (several: a
                                              #   simultaneous step, each moves on its own)
    rules.legal_moves(state, seat) -> list    # legal moves for that seat ([] if not to move);
                                              #   a game may list a sample when the full list
                                              #   is astronomically long (say so in its docs)
    rules.apply(state, seat, move) -> dict    # a new state; the input is never mutated
    rules.view(state, seat | None) -> dict    # what that seat (None: a spectator) may see
    rules.views(state, [seat | None, ...])    # [view(state, s) for s in seats], in one go
    rules.is_over(state) -> bool
    rules.result(state) -> dict               # see RESULT below

    # for the people around the table
    rules.summary(state, seat) -> [{"key", "label", "value"}]
        # the public per-seat figures dashboards, results, CSV and end screens show
    rules.describe(before, move, after, seat, viewer) -> [str]
        # game-log lines for one applied move as ``viewer`` (a seat or None) may read them;
        # ``{seat:N}`` in a line stands for seat N's player name (the platform fills it in)
    rules.sample_state(view, seat, rng) -> state
        # a full state consistent with ``view`` (what ``seat`` sees): hidden parts drawn
        # with ``rng``.  Bots search from these; they never get the real state.
    rules.map_check(data) -> [str]            # what is wrong with map data, in words a
                                              #   teacher understands ([]: playable)
    rules.progress(state) -> float | None     # optional: how far the game has come, 0 to 1
                                              #   (a teacher's dashboard draws a bar); None
                                              #   when the game cannot say (the default)

    # the lesson after the game (games/engine/lesson.py gives the shapes and the measures)
    rules.lesson(state) -> dict | None        # votes against seats, wasted votes, ...
    rules.ensemble_maps                       # random maps a finished game is compared with
                                              #   (0: none for this game)
    rules.ensemble(state, seed=, start=, stop=) -> [[seats per party], ...]
        # random legal maps start .. stop-1 of the same board and voters; map i depends only
        # on (seed, i), so pieces drawn anywhere join up to the same ensemble
    rules.ensemble_summary(state, seats_lists) -> dict   # histograms and percentiles

VIEW: every view has ``to_move``, ``legal_moves`` (the viewer's), ``is_over`` and ``result``
(None until over); a simultaneous game adds ``committed``: the seats that have already moved
in the current step (never what they chose).

RESULT: ``{"ranking": [{"seat", "place", ...}], "winners": [seats], "decided_by": code}``;
places are 1-based and equal standings share a place.  A one-seat (solo) game adds
``"won"`` (bool) and ``"score"``; ``"outcome"`` may carry one sentence for the end screen
(``{seat:N}`` in it stands for seat N's player name, as in ``describe``).

Any bad move (malformed, out of turn, against the rules) raises ``IllegalMove``; never another
exception.  ``setup`` and ``seat_count`` raise ``IllegalMove`` (code ``"bad_options"``) for
options they refuse, with a message a student can read.
"""

from dataclasses import dataclass, field

SEAT_PLACEHOLDER = "{{seat:{}}}"  # describe() lines name seat N as "{seat:N}"


def seat_ref(seat):
    """How a describe() line names a seat's player: ``f"{seat_ref(0)} placed a border"``."""
    return SEAT_PLACEHOLDER.format(seat)


class IllegalMove(Exception):
    """A move (or option) the rules refuse.

    ``code`` is a stable snake_case identifier for programs; ``message`` is plain English a
    student can read, e.g. "That border would leave 3 counties on their own; every district
    needs at least 4."
    """

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self):
        return f"IllegalMove({self.code!r}, {self.message!r})"


@dataclass(frozen=True)
class Mode:
    """One way to play a game, as the lobby and the assignment form offer it.

    ``options`` are the engine options this mode sets (``{"players": 3}``); ``solo`` means
    one player and no table (bots never fill it).
    """

    key: str
    label: str
    options: dict = field(default_factory=dict)
    solo: bool = False


@dataclass(frozen=True)
class Option:
    """A further choice for some modes: ``choices`` are ``(value, label)`` pairs (values are
    what ``setup`` receives under ``key``); ``modes`` lists the mode keys it applies to
    (empty: every mode)."""

    key: str
    label: str
    choices: tuple
    default: object
    modes: tuple = ()
    help: str = ""

    def applies_to(self, mode_key):
        return not self.modes or mode_key in self.modes


def is_int(x):
    """A whole number (Python counts a bool as an int; a move or a map must not)."""
    return isinstance(x, int) and not isinstance(x, bool)


def seats_checked(state, seats):
    """``seats`` as a list, each a seat of this game or None (a spectator); ``IllegalMove``
    for anything else."""
    seats = list(seats)
    for seat in seats:
        if seat is not None and (not is_int(seat) or not 0 <= seat < state["players"]):
            raise IllegalMove("bad_seat", "That seat is not part of this game.")
    return seats


class SharedViews:
    """For a game whose seats all see the same board (nothing hidden from one seat that
    another sees): views differ only in ``seat`` and that seat's ``legal_moves``, so the rest,
    ``self._view_common(state)``, is built once and shared by every view."""

    def view(self, state, seat):
        return self.views(state, [seat])[0]

    def views(self, state, seats):
        seats = seats_checked(state, seats)
        common = self._view_common(state)
        return [{**common, "seat": seat,
                 "legal_moves": self.legal_moves(state, seat) if seat is not None else []}
                for seat in seats]


class Rules:
    """Base class documenting the engine contract; games override what they need."""

    name = ""
    title = ""
    players_min = 1
    players_max = 1
    imperfect_information = False
    simultaneous = False
    modes = ()
    options = ()
    decided_by = {}
    anytime_moves = ()

    # ------------------------------------------------------------------ declared metadata
    def mode(self, key):
        """The ``Mode`` called ``key`` (KeyError if none)."""
        for mode in self.modes:
            if mode.key == key:
                return mode
        raise KeyError(f"{self.name} has no mode {key!r}")

    def mode_options(self, mode_key, chosen=None):
        """The engine options for ``mode_key`` with the ``chosen`` extra options that apply to
        it (others are dropped; missing ones take their default)."""
        options = dict(self.mode(mode_key).options)
        chosen = chosen or {}
        for option in self.options:
            if option.applies_to(mode_key):
                options[option.key] = chosen.get(option.key, option.default)
        return options

    def seat_count(self, options):
        raise NotImplementedError

    # ------------------------------------------------------------------ playing
    def setup(self, options, seed):
        raise NotImplementedError

    def to_move(self, state):
        raise NotImplementedError

    def legal_moves(self, state, seat):
        raise NotImplementedError

    def apply(self, state, seat, move):
        raise NotImplementedError

    def view(self, state, seat):
        raise NotImplementedError

    def views(self, state, seats):
        """Every listed seat's view (what a broadcast needs).  A game may build the parts all
        of them see once and share those objects between the views: treat views as
        read-only."""
        return [self.view(state, seat) for seat in seats]

    def is_over(self, state):
        raise NotImplementedError

    def result(self, state):
        raise NotImplementedError

    # ------------------------------------------------------------------ around the table
    def summary(self, state, seat):
        raise NotImplementedError

    def describe(self, before, move, after, seat, viewer):
        return []

    def sample_state(self, view, seat, rng):
        raise NotImplementedError

    def map_check(self, data):
        return ["This game does not take maps."]

    def progress(self, state):
        """How far the game has come, from 0 (just set up) to 1 (over), or None when the game
        cannot tell (optional; the dashboard then draws no bar)."""
        return None

    # ------------------------------------------------------------------ the lesson after the game
    ensemble_maps = 0

    def lesson(self, state):
        return None

    def ensemble(self, state, *, seed, start, stop):
        raise NotImplementedError

    def ensemble_summary(self, state, seats_lists):
        raise NotImplementedError
