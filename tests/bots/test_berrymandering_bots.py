"""Berrymandering bots: legal, deterministic, within budget, blind to the face-down order, and
their searches checked against brute force."""

import copy
import json
import random
import sys
import time
from pathlib import Path

import pytest

from games.bots import LEVELS, get_bot
from games.bots.berrymandering import (
    Exact,
    Knowledge,
    MinMax,
    Valuer,
    balance_values,
    draws,
    keeper_outcome,
    placements_in,
)
from games.engine import get_rules

RULES = get_rules("berrymandering")
MODES = [{"players": 2}, {"players": 3}, {"mode": "solo"}, {"players": 2, "variant": "strategy"},
         {"mode": "solo", "variant": "strategy"}]


def positions(options, seed, count=5, keeper=False):
    """Positions along a random game (with a keeper's pick among them if ``keeper``)."""
    rng = random.Random(seed)
    state = RULES.setup(options, seed)
    seen = []
    while not RULES.is_over(state):
        seen.append(state)
        seat = RULES.to_move(state)[0]
        state = RULES.apply(state, seat, rng.choice(RULES.legal_moves(state, seat)))
    picks = rng.sample(seen, min(count, len(seen)))
    if keeper:
        picks += [s for s in seen if s["phase"] == "mystery"][:2]
    return picks


def ask(level, state, seed=0, budget=0.05):
    seat = RULES.to_move(state)[0]
    return seat, get_bot("berrymandering", level).choose(RULES.view(state, seat), seat,
                                                          seed=seed, budget_s=budget)


def test_levels_are_registered_with_a_readable_docstring():
    for level in LEVELS:
        bot = get_bot("berrymandering", level)
        assert bot.level == level and len(type(bot).__doc__) > 100


def test_bots_import_no_web_framework():
    code = ("import sys, games.bots.berrymandering; "
            "print(sorted({m.split('.')[0] for m in sys.modules} & "
            "{'django', 'channels', 'celery', 'rest_framework'}))")
    import subprocess

    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=Path(__file__).resolve().parents[2])
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("options", MODES, ids=["2", "3", "solo", "strategy", "solo-strategy"])
def test_every_level_moves_legally_in_every_role(level, options):
    for k, state in enumerate(positions(options, 11, count=4, keeper=True)):
        before = copy.deepcopy(state)
        seat, move = ask(level, state, seed=k)
        assert state == before
        json.dumps(move)
        RULES.apply(state, seat, move)  # legal in the real position (raises if not)
        if move["type"] != "cut":
            assert move in RULES.legal_moves(state, seat)


def _midgame(seed, groups_left):
    rng = random.Random(seed)
    state = RULES.setup({"players": 2}, seed)
    while sum(1 for e in state["eaten"] if not e) > 4 * groups_left or state["phase"] != "cut":
        seat = RULES.to_move(state)[0]
        state = RULES.apply(state, seat, rng.choice(RULES.legal_moves(state, seat)))
    return state


@pytest.mark.parametrize("level", LEVELS)
def test_deterministic_per_seed_and_blind_to_the_face_down_order(level):
    """The same view and seed give the same move, and so does the real position with its
    face-down Mystery tiles in another order (the bot only ever gets the view)."""
    for groups_left in (7, 5):
        state = _midgame(3, groups_left)
        for phase_state in (state, RULES.apply(state, state["cutter"],
                                               RULES.legal_moves(state, state["cutter"])[0])):
            seat, move = ask(level, phase_state, seed=4, budget=5)
            assert ask(level, copy.deepcopy(phase_state), seed=4, budget=5)[1] == move
            other = copy.deepcopy(phase_state)
            random.Random(groups_left).shuffle(other["pile"])
            assert len(set(map(tuple, other["pile"]))) > 1
            assert ask(level, other, seed=4, budget=5)[1] == move


@pytest.mark.parametrize("budget_s, quick", [(0.05, True), (500.0, False)])
def test_hard_plays_the_quick_move_when_its_time_runs_out(stepping_clock, budget_s, quick):
    """The opening cut is the hard bot's longest search.  Each clock reading is 0.01 s here:
    with 0.05 s its searches stop at once and it plays the medium bot's quick move; with all
    the time it wants, its own search finds another cut."""
    from games.bots import base, berrymandering

    stepping_clock(base, berrymandering)
    state = RULES.setup({"players": 2}, 4)
    seat = RULES.to_move(state)[0]
    view = RULES.view(state, seat)
    move = get_bot("berrymandering", "hard").choose(view, seat, seed=1, budget_s=budget_s)
    quick_move = get_bot("berrymandering", "medium").choose(view, seat, seed=1,
                                                           budget_s=budget_s)
    assert (move == quick_move) is quick
    RULES.apply(state, seat, move)


# ---------------------------------------------------------------- searches vs brute force

def all_cuts(board, free):
    """Every cut of ``free`` (group masks), by plain enumeration."""
    if not free:
        yield []
        return
    low = (free & -free).bit_length() - 1
    for p in board.by_low[low]:
        if p & free == p:
            for rest in all_cuts(board, free ^ p):
                yield [p, *rest]


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_the_min_max_cut_is_the_best_of_all_cuts(seed):
    """The threshold search finds exactly min over cuts of max over groups."""
    state = _midgame(seed, 6)
    kn = Knowledge(RULES.view(state, state["cutter"]), state["cutter"])
    values = balance_values(kn, Valuer(kn), 1 - kn.team)
    cuts = list(all_cuts(kn.board, kn.free))
    assert len(cuts) > 3
    brute = min(max(values[p] for p in cut) for cut in cuts)
    mm = MinMax(kn.board, values)
    assert mm.value(kn.free) == brute
    for cut in mm.cuts(kn.free, brute, random.Random(seed), 4):
        assert max(values[p] for p in cut) == brute
        assert sorted(cut) in [sorted(c) for c in cuts]
    # and for every smaller position inside it
    for g in placements_in(kn.board, kn.free)[:15]:
        rest = kn.free ^ g
        options = list(all_cuts(kn.board, rest))
        want = min((max(values[p] for p in c) for c in options), default=None)
        assert mm.value(rest) == want


def plain_value(kn, free, diff, pile, cutter):
    """Strawberry's chance to win by plain minimax over every cut, choice and draw."""
    if not free:
        return 1.0 if diff > 0 else 0.5 if diff == 0 else 0.0
    chooser = 1 - cutter
    best = None
    for cut in all_cuts(kn.board, free):
        eats = []
        for g in cut:
            d, r, _ = kn.group(g)
            v = sum(prob * plain_value(kn, free ^ g, diff + ((d + delta) > 0)
                                       - ((d + delta) < 0), left, chooser)
                    for prob, delta, left in draws(kn.pile_kinds, pile, r))
            eats.append(v)
        got = max(eats) if chooser == 0 else min(eats)  # the chooser's best group
        if best is None or (got < best if chooser == 0 else got > best):
            best = got  # the cutter's best cut
    return best


@pytest.mark.parametrize("seed", [1, 2, 3, 6])
def test_the_endgame_search_is_exact(seed):
    state = _midgame(seed, 3)
    cutter = state["cutter"]
    kn = Knowledge(RULES.view(state, cutter), cutter)
    ex = Exact(kn, 10**6, time.perf_counter() + 60)
    got = ex.cut_value(kn.free, kn.diff, kn.pile, kn.team)
    assert got == pytest.approx(plain_value(kn, kn.free, kn.diff, kn.pile, kn.team))


# ---------------------------------------------------------------- behaviour

def _with_tiles(state, layout):
    state = copy.deepcopy(state)
    cells = [tuple(c) for c in state["map"]["cells"]]
    for cell, tile in layout.items():
        i = cells.index(cell)
        state["tiles"][i] = tile
        if tile is not None:
            state["mystery_at"][i] = None
    return state


SQUARES = [[[x, y], [x + 1, y], [x, y + 1], [x + 1, y + 1]]
           for y in range(0, 6, 2) for x in range(0, 6, 2)]


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_the_chooser_takes_a_candle_on_offer(level):
    """A cut where exactly one group gives the chooser's team a candle and every other gives
    the cutter one: every level above random eats it."""
    state = RULES.setup({"players": 2, "variant": "strategy", "team_chooser": 0, "team": 0,
                         "first_cutter": 1}, 2)
    layout = {}
    for k, group in enumerate(SQUARES):
        team = 0 if k == 4 else 1  # seat 0 (Strawberry) chooses
        for x, y in group:
            layout[(x, y)] = [team, 1]
    state = _with_tiles(state, layout)
    state = RULES.apply(state, 1, {"type": "cut", "groups": SQUARES})
    seat, move = ask(level, state, budget=2)
    assert seat == 0 and move == {"type": "choose", "cell": [2, 2]}


def test_the_keeper_evens_the_candles():
    """Strawberry leads by a candle; the group is 3 to 3 plus one Random tile: the keeper
    plays a Blueberry tile (Blueberry's candle evens the score)."""
    state = RULES.setup({"players": 3, "variant": "standard", "team_chooser": 0, "team": 0,
                         "first_cutter": 1}, 5)
    state = _with_tiles(state, {(0, 0): [0, 3], (1, 0): [1, 3], (0, 1): None, (1, 1): None})
    state = copy.deepcopy(state)
    state["candles"] = [1, 0]
    state = RULES.apply(state, 1, {"type": "cut", "groups": SQUARES})
    state = RULES.apply(state, 0, {"type": "choose", "cell": [0, 0]})
    assert RULES.to_move(state) == [2]
    for level in ("easy", "medium", "hard"):
        after = state
        while after["phase"] == "mystery":
            _, move = ask(level, after, budget=1)
            after = RULES.apply(after, 2, move)
        assert after["candles"] == [1, 1], level
    kinds, hand = ((0, 1), (1, 1)), (1, 1)
    assert keeper_outcome(kinds, hand, 1, 0, 1) == -1  # one tile: Blueberry's candle evens
    assert keeper_outcome(kinds, hand, 2, 0, 0) == 0  # both tiles: a tie keeps it even


def test_hard_beats_random_in_most_games():
    wins = 0
    for g in range(4):
        state = RULES.setup({"players": 2}, 300 + g)
        hard = g % 2
        while not RULES.is_over(state):
            seat = RULES.to_move(state)[0]
            level = "hard" if seat == hard else "random"
            _, move = ask(level, state, seed=g, budget=0.2)
            state = RULES.apply(state, seat, move)
        wins += RULES.result(state)["winners"] == [hard]
    assert wins >= 3  # the ladder measures the real rate


def island_map():
    """68 cells: an 8 x 6 block, a 4 x 2 strip and a ring of 12, apart from each other."""
    ring = [(x + 20, y + 10) for x in range(4) for y in range(4) if x in (0, 3) or y in (0, 3)]
    cells = [(x, y) for x in range(8) for y in range(6)] + \
        [(x, y) for x in range(10, 14) for y in range(2)] + ring
    return {"name": "Islands", "cells": [list(c) for c in cells],
            "tiles": {"random": 4, "berries": [[12, 10, 6, 4], [12, 10, 6, 4]]},
            "mystery": [[2, 1, 0, 0], [2, 1, 0, 0]]}


def test_bots_know_every_group_of_an_irregular_map():
    """Every group position of a map, found from each group's first cell (a group whose
    bounding box corner is off the map counts too)."""
    from games.bots.berrymandering import board_for
    from games.engine.tetromino import Region

    cells = [tuple(c) for c in island_map()["cells"]]
    cells = sorted(cells, key=lambda c: (c[1], c[0]))
    board = board_for(tuple(cells))
    region = Region(cells)
    assert sorted(sorted(board.cells[i] for i in board.ids(p)) for p in board.placements) == \
        sorted(sorted(region.cells_of(p)) for p in region.placements())


@pytest.mark.parametrize("level", LEVELS)
def test_bots_play_a_map_with_islands(level):
    data = island_map()
    assert RULES.map_check(data) == []
    state = RULES.setup({"players": 2, "map": data}, 3)
    rng = random.Random(3)
    for ply in range(34):  # the whole game: 17 rounds
        seat = RULES.to_move(state)[0]
        if ply % 2 == 0 or level != "random":
            move = get_bot("berrymandering", level).choose(RULES.view(state, seat), seat,
                                                            seed=ply, budget_s=0.5)
        else:
            move = rng.choice(RULES.legal_moves(state, seat))
        state = RULES.apply(state, seat, move)
    assert RULES.is_over(state)
