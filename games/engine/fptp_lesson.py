"""First Past the Post's lesson after the game, and its ensemble of random constituency maps
(pure, no Django).

``lesson(state)`` turns a First Past the Post state into the game-independent lesson of
``games.engine.lesson``; ``lesson["systems"]`` adds the same campaign counted both ways, side by
side, from the engine's own count (``fptp_count.count_constituencies``: nothing is counted
again here).

=====================================  ======================================================
The game                               The lesson
=====================================  ======================================================
a constituency (as it is at the end,   a district (unit "constituency"), in map order; its
  gerrymandered hexes included)          ``cells`` are ``[[q, r], ...]``
the top vote counter of a hex          one vote for that player (lower counters of an AV
                                         stack are preferences, not votes)
a constituency won under the game's    the seat: ``winner`` is the engine's count (the
  voting system (the ``variant``)        final one once over, with its tie-breaks and
                                         draw-offs); a tie only a draw-off could settle
                                         during the game elects nobody yet
                                         (``undecided="nobody"``)
a player (players who left included:   a party, named by its counters' colour ("Red party")
  their counters stay and count)
the other voting system                ``lesson["systems"]``: First Past the Post and
                                         Alternative Vote, each with the constituencies per
                                         party and who wins, in one sentence
=====================================  ======================================================

The ensemble answers "how unusual are these constituencies?": ``ensemble`` draws random
re-divisions of the same hexes into as many constituencies as the map has, each grown from
one of the map's Cities (so every random constituency is connected, lies in one nation and
holds exactly one City), filling the constituency furthest below its target size first (the
target: the size of that City's constituency at the end of the game), with the hex to add
drawn at random from its neighbours; a division where a constituency ends more than
``SIZE_SLACK`` hexes from its target is drawn again.  That keeps the sizes near the real ones;
it is a random draw, not a uniform one over all possible maps.  Each random map is counted by the engine's
own count with the game's final vote counters, under the game's voting system; a tie that
needs a draw-off draws from a budget pile shuffled for that map (never the game's own pile,
whose order stays secret).
"""

from games.engine.fptp_count import count_constituencies
from games.engine.fptp_data import BUDGET_CARDS, SEAT_COLOURS
from games.engine.fptp_map import board_for
from games.engine.lesson import ensemble_rng, lesson_from_districts, summarise_ensemble

GAME = "fptp"
UNIT = ("constituency", "constituencies")
SYSTEMS = ("fptp", "av")
SYSTEM_NAMES = {"fptp": "First Past the Post", "av": "Alternative Vote"}
# The board's counter colours, so the lesson's charts match the map (string keys: JSON and the
# channel layers' msgpack keep only those).
# A random constituency may end this many hexes above or below its target size.
SIZE_SLACK = 2
TRIES = 20
COLORS = {"0": "#d62828", "1": "#1d4ed8", "2": "#7b2cbf", "3": "#e05797", "4": "#222222"}


def party_name(seat):
    return f"{SEAT_COLOURS[seat]} party"


def parties_of(state):
    """``[{"party", "name"}]``: one party per seat, named by its counters' colour."""
    return [{"party": s, "name": party_name(s)} for s in range(state["players"])]


def counts(state):
    """Both counts of the position: the game's final ones once over, else the current ones
    (no draw-off during the game: the pile's order is secret)."""
    if state["over"]:
        return {system: state["final"][system] for system in SYSTEMS}
    return {system: count_constituencies(state, system, drawoff=False) for system in SYSTEMS}


def _cells(state):
    board = board_for(state["map"])
    cells = [[] for _ in board.const_names]
    for i, k in enumerate(state["const_of"]):
        cells[k].append(list(board.coords[i]))
    return cells


def lesson(state):
    """The lesson of a First Past the Post state (finished, or the counters so far).

    ``games.engine.lesson.lesson_from_districts`` over the constituencies, plus ``"game"``,
    ``"variant"`` (the game's voting system), ``"finished"``, ``"hexes_left"`` (hexes without
    a counter), ``"colors"`` (per seat, keyed "0".."4"), each party's ``"seat"`` and
    ``"hexes"`` (hexes won), each district's ``"name"``, ``"nation"``, ``"colour"`` and
    ``"winner_other"`` (its winner under the other voting system), and ``"systems"``:
    ``[{"system", "name", "played" (the game's own system), "seats" (constituencies per party,
    aligned with "parties"), "winners" (seats), "words"}]``, First Past the Post first.
    """
    board = board_for(state["map"])
    variant = state["variant"]
    other = "av" if variant == "fptp" else "fptp"
    both = counts(state)
    main = both[variant]["constituencies"]
    cells = _cells(state)
    districts = [{"votes": list(row["votes"]), "winner": row["winner"], "cells": cells[k]}
                 for k, row in enumerate(main)]
    out = lesson_from_districts(parties_of(state), districts, UNIT, undecided="nobody")
    hexes = both[variant]["hexes"]
    for row in out["parties"]:
        row["seat"] = row["party"]
        row["hexes"] = hexes[row["party"]]
    for k, row in enumerate(out["districts"]):
        row["name"] = board.const_names[k]
        row["nation"] = board.const_nation[k]
        row["colour"] = board.const_colour[k]
        row["winner_other"] = both[other]["constituencies"][k]["winner"]
    out["systems"] = [_system(state, both[system], system, system == variant)
                      for system in SYSTEMS]
    out["game"] = GAME
    out["variant"] = variant
    out["finished"] = bool(state["over"])
    out["hexes_left"] = sum(1 for stack in state["stacks"] if not stack)
    out["colors"] = {str(s): COLORS[str(s)] for s in range(state["players"])}
    return out


def _system(state, count, system, played):
    seats = list(count["per_seat"])
    n = state["players"]
    top = max(seats) if seats else 0
    winners = [s for s in range(n) if seats[s] == top] if top else []
    if len(winners) > 1:  # the game's tie-break: most hexes won
        best = max(count["hexes"][s] for s in winners)
        winners = [s for s in winners if count["hexes"][s] == best]
    parts = ", ".join(f"{SEAT_COLOURS[s]} {seats[s]}" for s in range(n))
    name = SYSTEM_NAMES[system]
    if not winners:
        verdict = "nobody has won a constituency yet"
    elif len(winners) == 1:
        verdict = f"the {party_name(winners[0])} {'wins' if played else 'would win'}"
    else:
        names = " and ".join(party_name(s) for s in winners)
        verdict = f"the {names} {'share' if played else 'would share'} the win"
    lead = f"{name} (the rule this game was played by)" if played else \
        f"{name} would have given"
    return {"system": system, "name": name, "played": played, "seats": seats,
            "winners": winners, "words": f"{lead}: {parts} constituencies; {verdict}."}


def game_seats(state):
    """Constituencies each party won in this game under its voting system."""
    return list(counts(state)[state["variant"]]["per_seat"])


def progress(state):
    """The share of hexes that carry a vote counter (1 once the game is over)."""
    if state["over"]:
        return 1.0
    stacks = state["stacks"]
    return sum(1 for s in stacks if s) / max(1, len(stacks))


# ---------------------------------------------------------------------- the ensemble

class _Geometry:
    """What drawing random divisions of one map needs, computed once per map."""

    def __init__(self, state):
        board = board_for(state["map"])
        self.board = board
        self.size = board.size
        self.cities = list(board.city)
        # a random constituency grows only inside its City's nation
        self.nbrs = [tuple(j for j in board.nbrs[i] if board.nation[j] == board.nation[i])
                     for i in range(board.size)]
        final = [0] * len(self.cities)
        for k in state["const_of"]:
            final[k] += 1
        self.targets = final


def random_division(state, rng, geo=None):
    """ONE random re-division of the map's hexes (``rng``: a ``random.Random``): the
    constituency index of every hex, constituency k grown from the City of constituency k.
    A division where some constituency ends more than ``SIZE_SLACK`` hexes away from its
    target size is drawn again (at most ``TRIES`` times; the last one is kept)."""
    geo = geo or _Geometry(state)
    for _ in range(TRIES):
        owner, sizes = _grow(geo, rng)
        if all(abs(a - b) <= SIZE_SLACK for a, b in zip(sizes, geo.targets, strict=True)):
            break
    return owner


def _grow(geo, rng):
    owner = [-1] * geo.size
    sizes = [1] * len(geo.cities)
    frontier = [[] for _ in geo.cities]
    for k, city in enumerate(geo.cities):
        owner[city] = k
    for k, city in enumerate(geo.cities):
        frontier[k] = [j for j in geo.nbrs[city] if owner[j] < 0]
    left = geo.size - len(geo.cities)
    targets = geo.targets
    while left:
        best = None
        for k, front in enumerate(frontier):
            # drop the hexes another constituency took meanwhile
            if front and any(owner[j] >= 0 for j in front):
                front[:] = [j for j in front if owner[j] < 0]
            if not front:
                continue
            key = sizes[k] / targets[k]
            if best is None or key < best[0]:
                best = (key, [k])
            elif key == best[0]:
                best[1].append(k)
        if best is None:  # cannot happen on a checked map: every hex reaches a City
            raise ValueError("some hexes cannot be reached from any City")
        k = best[1][0] if len(best[1]) == 1 else rng.choice(best[1])
        front = frontier[k]
        i = front.pop(rng.randrange(len(front)))
        owner[i] = k
        sizes[k] += 1
        left -= 1
        front.extend(j for j in geo.nbrs[i] if owner[j] < 0 and j not in front)
    return owner, sizes


def _scored_state(state, const_of, rng):
    """``state`` with the random constituencies and a budget pile of its own for draw-offs."""
    pile = list(BUDGET_CARDS)
    rng.shuffle(pile)
    return {**state, "const_of": const_of, "budget_pile": pile, "budget_discard": [],
            "shuffle_key": f"{rng.getrandbits(64):016x}"}


def random_map_seats(state, rng, geo=None):
    """Constituencies per party on ONE random division, counted under the game's system."""
    const_of = random_division(state, rng, geo)
    count = count_constituencies(_scored_state(state, const_of, rng), state["variant"])
    return list(count["per_seat"])


def ensemble(state, count=1000, seed=0, start=0, stop=None, progress=None):
    """Constituencies won per party (aligned with ``parties_of``) on random divisions
    ``start`` .. ``stop - 1`` (``stop`` defaults to ``count``) of the ensemble drawn with
    ``seed``.

    Division i is drawn with ``lesson.ensemble_rng(seed, i)``, so it is the same wherever and in
    whatever chunk it is drawn: chunks concatenate to the single-run result.  The divisions
    depend on the map and the sizes of the game's final constituencies; the scores on the
    game's final vote counters.  ``progress(done, total)`` is called every 50 maps and at the
    end.
    """
    stop = count if stop is None else stop
    if not 0 <= start <= stop:
        raise ValueError(f"need 0 <= start <= stop, got start={start}, stop={stop}")
    geo = _Geometry(state)
    out = []
    total = stop - start
    for i in range(start, stop):
        out.append(random_map_seats(state, ensemble_rng(seed, i), geo))
        if progress is not None and (len(out) % 50 == 0 or len(out) == total):
            progress(len(out), total)
    return out


def ensemble_summary(state, seats_lists):
    """``lesson.summarise_ensemble`` for this game: per party the histogram of constituencies
    won over the random maps, this game's constituencies and its percentile."""
    return summarise_ensemble(parties_of(state), game_seats(state), seats_lists)


__all__ = ["COLORS", "GAME", "SYSTEMS", "UNIT", "counts", "ensemble", "ensemble_summary",
           "game_seats", "lesson", "parties_of", "party_name", "progress", "random_division",
           "random_map_seats"]
