"""The contract every game engine implements (pure Python: no Django, Channels or Celery).

A rules object is stateless; all game data lives in plain JSON-serialisable dicts::

    state = rules.setup(options, seed)        # deterministic from the seed (int or str)
    rules.to_move(state) -> list[int]         # seats whose input is awaited
    rules.legal_moves(state, seat) -> list    # every legal move for that seat ([] if not to move)
    rules.apply(state, seat, move) -> dict    # a new state; the input is never mutated
    rules.view(state, seat | None) -> dict    # what that seat (None: a spectator) may see
    rules.views(state, [seat | None, ...])    # [view(state, s) for s in seats], in one go
    rules.is_over(state) -> bool
    rules.result(state) -> dict               # ranking and which tie-break decided

Any bad move (malformed, out of turn, against the rules) raises ``IllegalMove``; never another
exception.  ``setup`` raises ``IllegalMove`` (code ``"bad_options"``) for options it refuses.
"""


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


class Rules:
    """Base class documenting the engine contract; games override every method."""

    name = ""

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
