"""Berrymandering's lesson after the game, and its ensemble of random cuts of the cake (pure).

``lesson(state)`` turns a Berrymandering state into the game-independent lesson of
``games.engine.lesson``: the groups eaten are the districts, the berries of each team in a
group are its votes, and a candle is a seat.  Mystery tiles count with the group they were
revealed in, as they did for the candle.

=====================================  ======================================================
The game                               The lesson
=====================================  ======================================================
a group of 4 cells, once eaten         a district (unit "group": the word the board and the
                                         rules use; "piece" is one cell there)
Strawberry, Blueberry berries          votes of the parties "Strawberries", "Blueberries"
candle to the team with more berries   the seat; a tie lights no candle, so
                                         ``undecided="nobody"``
the Mystery keeper (three players)     not a party: it has no berries and no candles
solo: only the player's team gets      the lesson counts a group won by the team with more
  candles                                berries, for both teams (what a candle is with two
                                         players), so the seats still add up
=====================================  ======================================================

The ensemble answers "how unusual is the cake this game cut?": the groups eaten in a game
together cut the whole cake into groups of 4, so ``ensemble`` draws random complete cuts of
the whole cake (``tetromino.Region.random_tiling``, the same draw as the engine's own random
cuts: pieces tried in a random order, so not a uniform draw over all cuts) and scores each
group with the game's final tiles.  A Random tile counts with the Mystery tile it revealed in
this game (strategy variant: the tile face up on it).  A Random tile never revealed (only in
a game that did not end: in a finished game every cell was eaten) counts as no berries: its
Mystery tile is unknown, and guessing one would make the maps depend on a guess.
"""

from games.engine.berrymandering import GAME, geometry, group_berries, majority
from games.engine.berrymandering_data import TEAM_NAMES
from games.engine.lesson import ensemble_rng, lesson_from_districts, summarise_ensemble

UNIT = ("group", "groups")
PARTY_NAMES = ["Strawberries", "Blueberries"]
# The board's team colours, so the lesson's charts match the cake (string keys, as JSON and
# the channel layers' msgpack keep them).
COLORS = {"0": "#e03131", "1": "#3b5bdb"}


def parties_of(state):
    """``[{"party", "name"}]``: the two teams (the keeper of a three-player game is not one)."""
    return [{"party": t, "name": PARTY_NAMES[t]} for t in range(len(TEAM_NAMES))]


def lesson(state):
    """The lesson of a Berrymandering state (finished, or the groups eaten so far).

    ``games.engine.lesson.lesson_from_districts`` with ``undecided="nobody"`` over the eaten
    groups in the order they were eaten, plus ``"game": "berrymandering"``, ``"finished"``,
    ``"cells_left"`` (cells not eaten yet), ``"colors"`` (per team, keyed "0" and "1", for
    the charts), each
    party's ``"seat"`` (who plays the team; None for the other team of a solo game) and
    ``"candles"`` (the game's own count: in solo only the player's team gets them), and each
    district's ``"round"``, ``"cutter"``, ``"chooser"`` and ``"mystery"`` (the Mystery tiles
    that counted in it).  District ``"cells"`` are ``[[x, y], ...]``.
    """
    history = state["history"]
    districts = [{"votes": list(h["berries"]), "winner": majority(h["berries"]),
                  "cells": [list(c) for c in h["cells"]]} for h in history]
    out = lesson_from_districts(parties_of(state), districts, UNIT, undecided="nobody")
    seat_of = {team: seat for seat, team in enumerate(state["team_of_seat"]) if team is not None}
    for row in out["parties"]:
        row["seat"] = seat_of.get(row["party"])
        row["candles"] = state["candles"][row["party"]]
    for row, h in zip(out["districts"], history, strict=True):
        row["round"] = h["round"]
        row["cutter"] = h["cutter"]
        row["chooser"] = h["chooser"]
        row["mystery"] = [dict(m) for m in h.get("mystery", [])]
    out["game"] = GAME
    out["finished"] = state["phase"] == "over"
    out["cells_left"] = sum(1 for e in state["eaten"] if not e)
    out["colors"] = dict(COLORS)
    return out


def game_seats(state):
    """Groups each team won in this game (more berries), aligned with ``parties_of``."""
    seats = [0, 0]
    for h in state["history"]:
        winner = majority(h["berries"])
        if winner is not None:
            seats[winner] += 1
    return seats


def _final_state(state):
    """``state`` as far as scoring goes: only ``tiles`` and ``mystery_at`` are read."""
    return {"tiles": state["tiles"], "mystery_at": state["mystery_at"]}


def random_cut_seats(state, rng):
    """Groups each team wins on ONE random complete cut of the whole cake (``rng``: a
    ``random.Random``), scored with the game's final tiles."""
    geo = geometry(state)
    return _seats_of(geo.region.random_tiling(rng), geo, state)


def random_cut(state, rng):
    """ONE random complete cut of the whole cake, in full (what ``random_cut_seats`` counts,
    with the same ``rng`` draws): ``{"groups": [{"cells": [[x, y], ...], "berries": [s, b],
    "winner": team | None}], "seats": [s, b]}``."""
    geo = geometry(state)
    scored = _final_state(state)
    groups = []
    seats = [0, 0]
    for piece in sorted(geo.region.random_tiling(rng)):
        idxs = geo.idxs(piece)
        berries = group_berries(scored, idxs)
        winner = majority(berries)
        if winner is not None:
            seats[winner] += 1
        groups.append({"cells": [list(geo.cells[i]) for i in idxs], "berries": berries,
                       "winner": winner})
    return {"groups": groups, "seats": seats}


def _berry_table(geo, state):
    """Strawberries minus blueberries per cell bit (Mystery tiles included, unknown: 0)."""
    table = {}
    for i, bit in enumerate(geo.bits):
        value = 0
        for tile in (state["tiles"][i], state["mystery_at"][i]):
            if tile is not None:
                value += tile[1] if tile[0] == 0 else -tile[1]
        table[bit] = value
    return table


def _seats_of(pieces, geo, state, table=None):
    table = _berry_table(geo, state) if table is None else table
    seats = [0, 0]
    for piece in pieces:
        lead = 0
        while piece:
            low = piece & -piece
            lead += table[low]
            piece ^= low
        if lead > 0:
            seats[0] += 1
        elif lead < 0:
            seats[1] += 1
    return seats


def ensemble(state, count=1000, seed=0, start=0, stop=None, progress=None):
    """Groups won per team (aligned with ``parties_of``) on random cuts ``start`` ..
    ``stop - 1`` (``stop`` defaults to ``count``) of the ensemble drawn with ``seed``.

    Cut i is drawn with ``lesson.ensemble_rng(seed, i)``, so it is the same cut wherever and
    in whatever chunk it is drawn: chunks concatenate to the single-run result.  The cuts
    depend on the cake's cells and the seed only; the scores on the game's final tiles.
    ``progress(done, total)`` is called every 50 cuts and at the end.
    """
    stop = count if stop is None else stop
    if not 0 <= start <= stop:
        raise ValueError(f"need 0 <= start <= stop, got start={start}, stop={stop}")
    geo = geometry(state)
    table = _berry_table(geo, state)
    region = geo.region
    out = []
    total = stop - start
    for i in range(start, stop):
        out.append(_seats_of(region.random_tiling(ensemble_rng(seed, i)), geo, state, table))
        if progress is not None and (len(out) % 50 == 0 or len(out) == total):
            progress(len(out), total)
    return out


def ensemble_summary(state, seats_lists):
    """``lesson.summarise_ensemble`` for this game: per team the histogram of groups won over
    the random cuts, this game's groups won and its percentile."""
    return summarise_ensemble(parties_of(state), game_seats(state), seats_lists)
