"""Mapmaker's lesson after the game, and its ensemble of random legal maps (pure, no Django).

``lesson(state)`` turns a Mapmaker state into the game-independent lesson of
``games.engine.lesson`` (votes against seats, wasted votes, efficiency gap, Gallagher index,
packed and cracked districts), with the county coordinates of every district so a page can
mark them on the map.  A tied district that its closer gave to a party counts for that party;
a tie still undecided (or never decided: the competitive solo game) is shared equally among
the tied parties for the seat shares, and none of them wasted a vote there.

The ensemble answers "how unusual is this map?": ``ensemble(state, ...)`` draws random legal
maps of the same board and voter tokens, ``ensemble_summary(state, seats_lists)`` says where
this game sits among them.  A random map is what random players would draw: from the empty
board, a border on a uniformly random legal edge, again and again, until every county is in a
district, under exactly the rules of ``mapmaker.py``:

=====================================  ======================================================
Rule (rulebook, rulings)               Here
=====================================  ======================================================
never close off fewer than 4 counties  ``legal``: free edges that are not "unsafe" bridges
                                         (``graph.analyse_component``, ``_newly_unsafe``)
a group that cannot be split into two  ``graph.analyse_component`` (exact), skipped when a
  connected groups of >= 4 is a          remembered split (``side``) provably survives
  district                               (``_keeps_split``)
most votes wins the district           ``_draw``
a tie: the closer chooses              the tie goes to a random tied party, drawn with the
                                         same random source (what random players do)
=====================================  ======================================================

The multiplayer rules make a map legal, whatever the game's mode (the easy solo game's "no
tied district" is a goal set for the player, not a property of a map).  A district that is
closed before any border (only possible on a map that comes as data) keeps its tie undecided
and counts for nobody, as in the engine.

Speed: one mutable set of arrays per map, no state copies and no move dicts.  Per border, the
common case is proven locally (a short path keeps the remembered split alive; the new unsafe
edges are found next to the border); only otherwise is the component around the border
analysed in full.  The random choices are made exactly as a random player of the engine makes
them (``rng.choice`` over the legal borders in the engine's order, ``rng.choice`` over the
tied parties), so with the same random source this draws the very map an engine playout
draws; ``tests/engine/test_mapmaker_lesson.py`` checks that, and replays maps through the
engine.
"""

from bisect import bisect_left

from games.engine.graph import analyse_component
from games.engine.lesson import (
    ensemble_rng,
    lesson_from_districts,
    summarise_ensemble,
)
from games.engine.mapmaker import board_for
from games.engine.mapmaker_data import PARTY_NAMES

UNIT = ("district", "districts")


def _board(state):
    return board_for(state["board"], state["tier"], state.get("counties"))


def parties_of(state):
    """``[{"party", "name"}]`` for the parties in play, in the state's order."""
    return [{"party": p, "name": PARTY_NAMES[p]} for p in state["parties"]]


def lesson(state):
    """The lesson of a Mapmaker state (finished, or the districts so far).

    ``games.engine.lesson.lesson_from_districts`` with ``undecided="split"``, plus:
    ``"game": "mapmaker"``, ``"finished"`` (bool), ``"counties_left"`` (not yet in a district),
    each party's ``"seat"`` (who plays it; None for the other party of a solo game), and each
    district's ``"closed_by"`` (seat, None if it formed before any border).  District
    ``"cells"`` are ``[[q, r], ...]`` in the board's axial coordinates.
    """
    coords = _board(state).coord_lists
    districts = [{"votes": d["votes"], "winner": d["winner"],
                  "cells": [list(coords[c]) for c in d["counties"]]}
                 for d in state["districts"]]
    out = lesson_from_districts(parties_of(state), districts, UNIT, undecided="split")
    seat_of = {party: seat for seat, party in enumerate(state["party_of_seat"])}
    for row in out["parties"]:
        row["seat"] = seat_of.get(row["party"])
    for row, d in zip(out["districts"], state["districts"], strict=True):
        row["closed_by"] = d["closed_by"]
    out["game"] = "mapmaker"
    out["finished"] = bool(state["over"])
    out["counties_left"] = len(state["district_of"]) - state["districted"]
    return out


def game_seats(state):
    """Districts each party has won in this game (decided ones), aligned with its parties."""
    seats = {p: 0 for p in state["parties"]}
    for d in state["districts"]:
        if d["winner"] is not None:
            seats[d["winner"]] += 1
    return [seats[p] for p in state["parties"]]


# ---------------------------------------------------------------------- the random map sampler
class _Geometry:
    """What the sampler needs of a board, computed once per board."""

    def __init__(self, board):
        self.board = board
        self.size = board.size
        self.nbrs = board.nbrs
        self.ends = board.ends
        # tri[e]: for each county z touching both ends of edge e: (z, edge a-z, edge b-z)
        self.tri = []
        for a, b in board.ends:
            near_a = dict(board.nbrs[a])
            self.tri.append(tuple((z, near_a[z], f) for z, f in board.nbrs[b] if z in near_a))
        self.memo = {}  # graph.analyse_component's cache for 8- and 9-county groups
        # the empty board, the same for every map: its legal borders, the remembered split of
        # each component and the components that are districts before any border
        self.start_legal = []
        self.start_side = [-1] * self.size
        self.start_districts = []
        seen = bytearray(self.size)
        for v in range(self.size):
            if seen[v]:
                continue
            verts, free, split, unsafe, witness = analyse_component(v, self.nbrs, (), self.memo)
            for c in verts:
                seen[c] = 1
            if split:
                bad = set(unsafe)
                self.start_legal.extend(f for f in free if f not in bad)
                _remember(self.start_side, verts, witness)
            else:
                self.start_districts.append(sorted(verts))
        self.start_legal.sort()


_GEOMETRY = {}


def _geometry(state):
    board = _board(state)
    geo = _GEOMETRY.get(board)
    if geo is None:
        if len(_GEOMETRY) > 64:
            _GEOMETRY.clear()
        geo = _GEOMETRY[board] = _Geometry(board)
    return geo


def _drop(legal, f):
    """Remove ``f`` from the sorted list ``legal`` if it is there."""
    i = bisect_left(legal, f)
    if i < len(legal) and legal[i] == f:
        del legal[i]


def _keeps_split(geo, cut, side, mark, stamp, a, b, e):
    """After a border on e = (a, b): does the remembered split of the component survive, with
    the component still connected?  True iff there is a border-free path from a to b (inside
    a's side when a and b are on the same side): then both sides stay connected and touching.
    A complete search, so False means the component must be analysed in full."""
    sa = side[a]
    same = sa == side[b]
    for z, eaz, ebz in geo.tri[e]:
        if not cut[eaz] and not cut[ebz] and (not same or side[z] == sa):
            return True
    nbrs = geo.nbrs
    mark[a] = stamp
    todo = [a]
    for v in todo:
        for u, f in nbrs[v]:
            if cut[f] or mark[u] == stamp or (same and side[u] != sa):
                continue
            if u == b:
                return True
            mark[u] = stamp
            todo.append(u)
    return False


def _newly_unsafe(nbrs, cut, deg, a):
    """Edges that became unsafe when a border was put next to ``a`` (``deg[a] <= 3``): the only
    border-free edge out of a connected group S of at most 3 counties containing a (cutting it
    would close off S).  Every county of such a group has at most 3 border-free edges (at most
    2 inside S plus the one out), so only those are tried."""
    found = []
    free_a = [(u, f) for u, f in nbrs[a] if not cut[f]]
    if len(free_a) == 1:  # S = {a}
        found.append(free_a[0][1])
    pairs = set()
    for u, _ in free_a:
        if deg[u] > 3:
            continue
        if len(free_a) + deg[u] == 3:  # S = {a, u}: one edge out besides the a-u edge
            found.extend(f for x, f in free_a if x != u)
            found.extend(f for x, f in nbrs[u] if not cut[f] and x != a)
        # S = {a, u, w}: w next to u, or next to a
        for w, f in nbrs[u]:
            if not cut[f] and w != a and deg[w] <= 3:
                pairs.add((u, w) if u < w else (w, u))
        for w, _ in free_a:
            if w != u and deg[w] <= 3:
                pairs.add((u, w) if u < w else (w, u))
    for u, w in pairs:
        # one edge out of 3 counties joined by 2 or 3 inner edges: at most 7 edge ends in all
        if deg[a] + deg[u] + deg[w] > 7:
            continue
        out = [f for v in (a, u, w) for x, f in nbrs[v]
               if not cut[f] and x != a and x != u and x != w]
        if len(out) == 1:
            found.append(out[0])
    return found


def _tally(verts, party_at, value_at, parties, rng):
    """(votes per party, indexed by party; the winner or None; the tied parties)."""
    votes = [0, 0, 0, 0]
    for c in verts:
        p = party_at[c]
        if p is not None:
            votes[p] += value_at[c]
    top = max(votes[p] for p in parties)
    leaders = [p for p in parties if votes[p] == top]
    if len(leaders) == 1:
        return votes, leaders[0], []
    return votes, (rng.choice(leaders) if rng is not None else None), leaders


def _draw(geo, party_at, value_at, parties, rng, keep=False):
    """One random legal map: ``(winners, borders, districts)``; ``winners`` lists each
    district's winner (None: an undecided tie from before any border), ``borders`` the edge
    ids in placement order and ``districts`` ``(counties, votes, winner, tied_parties)`` when
    ``keep``, else None."""
    nbrs, ends, memo = geo.nbrs, geo.ends, geo.memo
    size = geo.size
    bordered = set()  # the same borders as ``cut``, in the form analyse_component takes
    cut = bytearray(len(ends))
    deg = [len(x) for x in nbrs]
    side = list(geo.start_side)  # a remembered split of each component: 1 / 0, -1 for none
    mark = [0] * size
    stamp = 0
    winners = []
    borders = [] if keep else None
    districts = [] if keep else None
    legal = list(geo.start_legal)
    left = size
    for verts in geo.start_districts:  # only on a map that comes as data
        left -= len(verts)
        votes, winner, tied = _tally(verts, party_at, value_at, parties, None)
        winners.append(winner)
        if keep:
            districts.append((verts, votes, winner, tied))
    choice = rng.choice
    while left:
        e = choice(legal)
        _drop(legal, e)
        bordered.add(e)
        cut[e] = 1
        if keep:
            borders.append(e)
        a, b = ends[e]
        deg[a] -= 1
        deg[b] -= 1
        if side[a] >= 0:
            stamp += 1
            if _keeps_split(geo, cut, side, mark, stamp, a, b, e):
                for x in (a, b):
                    if deg[x] <= 3:
                        for f in _newly_unsafe(nbrs, cut, deg, x):
                            _drop(legal, f)
                continue
        first = analyse_component(a, nbrs, bordered, memo)
        if b in first[0]:
            comps = (first,)
        else:
            comps = (first, analyse_component(b, nbrs, bordered, memo))
        for verts, free, split, unsafe, witness in comps:
            if split:
                _remember(side, verts, witness)
                for f in unsafe:
                    _drop(legal, f)
                continue
            for c in verts:
                side[c] = -1
            for f in free:
                _drop(legal, f)
            left -= len(verts)
            votes, winner, tied = _tally(verts, party_at, value_at, parties, rng)
            winners.append(winner)
            if keep:
                districts.append((sorted(verts), votes, winner, tied))
    return winners, borders, districts


def _remember(side, verts, witness):
    if witness is None:
        for c in verts:
            side[c] = -1
        return
    for c in verts:
        side[c] = 0
    for c in witness:
        side[c] = 1


def _seats(winners, parties):
    seats = {p: 0 for p in parties}
    for w in winners:
        if w is not None:
            seats[w] += 1
    return [seats[p] for p in parties]


def random_map_seats(state, rng):
    """Districts each party wins on ONE random legal map of ``state``'s board and tokens,
    aligned with ``state["parties"]`` (``rng``: a ``random.Random``)."""
    geo = _geometry(state)
    winners, _, _ = _draw(geo, state["party_at"], state["value_at"], state["parties"], rng)
    return _seats(winners, state["parties"])


def random_map(state, rng):
    """ONE random legal map of ``state``'s board and tokens, in full (what ``random_map_seats``
    counts, with the same ``rng`` draws): ``{"borders": [[[q, r], [q, r]], ...] in placement
    order, "districts": [{"counties": [[q, r], ...], "votes": [4 numbers, indexed by party],
    "winner": party | None, "tied_parties": [...]}] in order of forming, "seats": [...]}``."""
    geo = _geometry(state)
    winners, borders, districts = _draw(geo, state["party_at"], state["value_at"],
                                        state["parties"], rng, keep=True)
    coords = geo.board.coord_lists
    ends = geo.ends
    return {
        "borders": [[list(coords[ends[e][0]]), list(coords[ends[e][1]])] for e in borders],
        "districts": [{"counties": [list(coords[c]) for c in verts], "votes": votes,
                       "winner": winner, "tied_parties": tied}
                      for verts, votes, winner, tied in districts],
        "seats": _seats(winners, state["parties"]),
    }


def ensemble(state, count=1000, seed=0, start=0, stop=None, progress=None):
    """Seats per party (aligned with ``state["parties"]``) on random maps ``start`` ..
    ``stop - 1`` (``stop`` defaults to ``count``) of the ensemble drawn with ``seed``.

    Map i is drawn with ``lesson.ensemble_rng(seed, i)``, so it is the same map wherever and in
    whatever chunk it is drawn: ``ensemble(s, seed=k, stop=500) + ensemble(s, seed=k,
    start=500, stop=1000) == ensemble(s, 1000, seed=k)``.  The maps depend only on the board,
    the tokens and the seed (not on the borders played).  ``progress(done, total)`` is called
    every 50 maps and at the end, for a progress bar.
    """
    stop = count if stop is None else stop
    if not 0 <= start <= stop:
        raise ValueError(f"need 0 <= start <= stop, got start={start}, stop={stop}")
    geo = _geometry(state)
    party_at, value_at, parties = state["party_at"], state["value_at"], state["parties"]
    out = []
    total = stop - start
    for i in range(start, stop):
        winners, _, _ = _draw(geo, party_at, value_at, parties, ensemble_rng(seed, i))
        out.append(_seats(winners, parties))
        if progress is not None and (len(out) % 50 == 0 or len(out) == total):
            progress(len(out), total)
    return out


def ensemble_summary(state, seats_lists):
    """``lesson.summarise_ensemble`` for this game: per party the histogram of seats over the
    random maps, this game's seats and its percentile (``at_least``: the share of random maps
    where the party won at least as many districts as in this game; ``at_most``: as few)."""
    return summarise_ensemble(parties_of(state), game_seats(state), seats_lists)
