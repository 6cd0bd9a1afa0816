"""Berrymandering property tests: hidden Mystery order never shows, cuts are partitions,
apply refuses every invalid partition, the variants keep their books, and the tetromino
search is exact (against brute force)."""

import copy
import itertools
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import IllegalMove, get_rules
from games.engine.berrymandering import geometry, random_cut
from games.engine.tetromino import ORIENTATIONS, Region, connected, islands

RULES = get_rules("berrymandering")
FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
OPTIONS = [{"players": 2}, {"players": 3}, {"mode": "solo"}, {"players": 2,
                                                                 "variant": "strategy"},
           {"mode": "solo", "variant": "strategy"}]
seeds = st.one_of(st.integers(0, 2**32), st.text(max_size=6))


def advance(options, seed, steps):
    rng = random.Random(repr(seed))
    state = RULES.setup(options, seed)
    for _ in range(steps):
        if RULES.is_over(state):
            break
        seat = RULES.to_move(state)[0]
        state = RULES.apply(state, seat, rng.choice(RULES.legal_moves(state, seat)))
    return state


def viewers(state):
    return [None, *range(state["players"])]


def reshuffled(state, rng):
    """The same position with the face-down Mystery tiles in another order."""
    other = copy.deepcopy(state)
    rng.shuffle(other["pile"])
    return other


# ---------------------------------------------------------------- hidden information

@FAST
@given(seeds, st.integers(0, 30), st.integers(0, 2**16))
def test_views_do_not_depend_on_the_face_down_order(seed, steps, shuffle_seed):
    state = advance({"players": 2}, seed, steps)
    other = reshuffled(state, random.Random(shuffle_seed))
    assert RULES.views(other, viewers(state)) == RULES.views(state, viewers(state))
    for seat in range(2):
        assert RULES.summary(other, seat) == RULES.summary(state, seat)
    if RULES.is_over(state):
        return
    seat = RULES.to_move(state)[0]
    for move in RULES.legal_moves(state, seat)[:4]:
        a, b = RULES.apply(state, seat, move), RULES.apply(other, seat, move)
        k = len(a["revealed"]) - len(state["revealed"])  # tiles this move turns over
        same_top = state["pile"][:k] == other["pile"][:k]
        for viewer in viewers(state):
            lines_a = RULES.describe(state, move, a, seat, viewer)
            lines_b = RULES.describe(other, move, b, seat, viewer)
            # the lines name only the tiles turned face up, never the order of the others
            if same_top:
                assert lines_a == lines_b
                assert RULES.view(a, viewer) == RULES.view(b, viewer)


@FAST
@given(st.sampled_from(OPTIONS), seeds, st.integers(0, 40), st.integers(0, 2**16))
def test_in_every_mode_only_the_pile_order_is_hidden(options, seed, steps, k):
    """Every variant: views and summaries ignore the face-down order, and a state sampled from
    any view deals the same face-down tiles (in some order) and shows the same view."""
    state = advance(options, seed, steps)
    other = reshuffled(state, random.Random(k))
    assert RULES.views(other, viewers(state)) == RULES.views(state, viewers(state))
    for viewer in viewers(state):
        view = RULES.view(state, viewer)
        assert "pile" not in view and "seed" not in view
        sampled = RULES.sample_state(view, viewer, random.Random(k))
        assert RULES.view(sampled, viewer) == view
        assert sorted(map(tuple, sampled["pile"])) == sorted(map(tuple, state["pile"]))
        assert {**sampled, "pile": state["pile"]} == state


# ---------------------------------------------------------------- cuts

def is_partition(state, groups):
    """An independent oracle: groups of 4 distinct connected uneaten cells covering all."""
    cells = {tuple(c) for c, e in zip(state["map"]["cells"], state["eaten"], strict=True)
             if not e}
    seen = set()
    for group in groups:
        group = [tuple(c) for c in group]
        if len(group) != 4 or len(set(group)) != 4 or not set(group) <= cells:
            return False
        if seen & set(group) or not connected(group):
            return False
        seen |= set(group)
    return seen == cells


@FAST
@given(st.sampled_from(OPTIONS), seeds, st.integers(0, 30), st.integers(0, 2**16))
def test_random_complete_cuts_are_valid_partitions(options, seed, steps, k):
    state = advance(options, seed, steps)
    if RULES.is_over(state):
        return
    geo = geometry(state)
    groups = [[geo.cells[i] for i in g] for g in random_cut(state, random.Random(k))]
    assert is_partition(state, groups)
    if state["phase"] == "cut":
        for move in RULES.legal_moves(state, state["cutter"]):
            assert is_partition(state, move["groups"])
        RULES.apply(state, state["cutter"], {"type": "cut", "groups": groups})


def mutate(groups, rng, cells):
    """A random small change to a cut (it may stay valid by chance)."""
    groups = [list(map(list, g)) for g in groups]
    kind = rng.randrange(6)
    i = rng.randrange(len(groups))
    j = rng.randrange(len(groups))
    if kind == 0 and len(groups) > 1:  # swap a cell between two groups
        a, b = rng.randrange(4), rng.randrange(4)
        groups[i][a], groups[j][b] = groups[j][b], groups[i][a]
    elif kind == 1:  # drop a group
        groups.pop(i)
    elif kind == 2:  # a cell twice
        groups[i][rng.randrange(4)] = list(groups[j][rng.randrange(4)])
    elif kind == 3:  # move a cell somewhere else on the board (maybe eaten or off it)
        x, y = rng.choice(cells)
        groups[i][rng.randrange(4)] = [x + rng.choice((0, 0, 1, -1)), y + rng.choice((0, 1))]
    elif kind == 4:  # a group of 3 or 5
        if rng.random() < 0.5:
            groups[i].pop()
        else:
            groups[i].append(list(groups[j][0]))
    else:  # shift a whole group by one
        dx, dy = rng.choice([(1, 0), (0, 1), (-1, 0), (0, -1)])
        groups[i] = [[x + dx, y + dy] for x, y in groups[i]]
    return groups


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seeds, st.integers(0, 14), st.integers(0, 2**16))
def test_apply_never_accepts_an_invalid_partition(seed, rounds, k):
    state = advance({"players": 2}, seed, 2 * rounds)
    if state["phase"] != "cut":
        return
    rng = random.Random(k)
    geo = geometry(state)
    groups = [[geo.cells[i] for i in g] for g in random_cut(state, rng)]
    for _ in range(6):
        bad = mutate(groups, rng, geo.cells)
        move = {"type": "cut", "groups": bad}
        if is_partition(state, bad):
            RULES.apply(state, state["cutter"], move)
        else:
            try:
                RULES.apply(state, state["cutter"], move)
            except IllegalMove as err:
                assert err.message and err.code
            else:
                raise AssertionError(f"accepted an invalid cut: {bad}")


# ---------------------------------------------------------------- variants

@FAST
@given(st.sampled_from(OPTIONS), seeds)
def test_every_game_keeps_its_books(options, seed):
    """Played to the end at random: every cell eaten once, a candle per won group (solo:
    per group the player's team won), each Mystery tile used at most once, the revealed
    tiles listed in the view, and the result by the rules of the variant."""
    state = advance(options, seed, 10_000)
    assert RULES.is_over(state) and all(state["eaten"])
    eaten = [tuple(c) for h in state["history"] for c in h["cells"]]
    assert sorted(eaten) == sorted(map(tuple, state["map"]["cells"]))
    candles = [0, 0]
    for h in state["history"]:
        s, b = h["berries"]
        if s != b and (state["mode"] != "solo" or (0 if s > b else 1) ==
                       state["team_of_seat"][0]):
            candles[0 if s > b else 1] += 1
    assert candles == state["candles"]
    used = sorted((t, k) for _, t, k in state["revealed"])
    if state["mode"] == "3":
        assert len(used) == sum(1 for t in state["hand"] if t is None)
    elif state["variant"] == "standard":
        assert sorted(used + [tuple(t) for t in state["pile"]]) == [(0, 1), (0, 1), (0, 2),
                                                                    (1, 1), (1, 1), (1, 2)]
    else:
        assert state["pile"] == [] and len(used) == 6
    result = RULES.result(state)
    a, b = state["candles"]
    if state["mode"] == "3":
        assert (result["winners"] == [2]) == (a == b)
    elif state["mode"] == "2":
        assert (result["winners"] == []) == (a == b)
    else:
        assert result["won"] == (max(a, b) > 4)
    assert len(RULES.view(state, None)["mystery_revealed"]) == len(state["revealed"])


@FAST
@given(seeds, st.integers(0, 40))
def test_three_player_keeper_moves_only_for_random_tiles(seed, steps):
    state = advance({"players": 3}, seed, steps)
    waiting = RULES.to_move(state)
    if state["phase"] == "mystery":
        assert waiting == [2] and state["pending"]["random"]
        assert all(state["tiles"][i] is None for i in state["pending"]["random"])
        for move in RULES.legal_moves(state, 2):
            after = RULES.apply(state, 2, move)
            assert after["hand"][move["tile"]] is None
    else:
        assert 2 not in waiting and RULES.legal_moves(state, 2) == []


# ---------------------------------------------------------------- the tetromino search

def brute_tileable(cells):
    """Every way of covering the first cell, recursively: no pruning, no memory."""
    left = set(cells)
    if not left:
        return True
    x0, y0 = min(left, key=lambda c: (c[1], c[0]))
    for _, shape in ORIENTATIONS:
        ax, ay = shape[0]
        piece = {(x0 + x - ax, y0 + y - ay) for x, y in shape}
        if piece <= left and brute_tileable(left - piece):
            return True
    return False


shapes = st.sets(st.tuples(st.integers(0, 5), st.integers(0, 4)), min_size=4, max_size=24)


@settings(max_examples=150, deadline=None)
@given(shapes, st.integers(0, 99))
def test_tileability_is_exact(cells, k):
    cells = sorted(cells)
    region = Region(cells)
    expected = brute_tileable(cells)
    assert region.tileable() == expected
    tiling = region.random_tiling(random.Random(k))
    if expected:
        pieces = [region.cells_of(p) for p in tiling]
        assert sorted(c for p in pieces for c in p) == sorted(cells)
        assert all(len(p) == 4 and connected(p) for p in pieces)
    else:
        assert tiling is None


@settings(max_examples=60, deadline=None)
@given(shapes)
def test_map_check_names_exactly_the_islands_that_cannot_be_cut(cells):
    cells = sorted(cells)
    n = len(cells)
    data = {"cells": [list(c) for c in cells],
            "tiles": {"random": n % 2, "berries": [[n // 2, 0, 0, 0]] * 2},
            "mystery": [[1, 0, 0, 0]] * 2}
    problems = RULES.map_check(data)
    for part in islands(cells):
        where = f"The island at ({part[0][0]},{part[0][1]})"
        named = [p for p in problems if p.startswith(where)]
        if len(part) % 4:
            assert named and "multiple of 4" in named[0]
        elif brute_tileable(part):
            assert not named
        else:
            assert named and "cannot be cut into groups of 4" in named[0]
    if not problems:
        state = RULES.setup({"players": 2, "map": data}, 1)
        assert state["rounds"] == n // 4


def test_the_comb_and_its_relatives():
    """The 8-cell comb (a column of 5 with teeth by the 1st, 3rd and 5th) is the smallest
    classic: no tiling, though 8 is a multiple of 4; a 2 x 4 block is fine."""
    comb = [(0, y) for y in range(5)] + [(1, 0), (1, 2), (1, 4)]
    assert not Region(comb).tileable() and not brute_tileable(comb)
    assert Region([(x, y) for x in range(4) for y in range(2)]).tileable()
    for k in range(4):  # the comb turned and mirrored
        turned = [(y, x) if k & 1 else (x, y) for x, y in comb]
        turned = [(-x, y) if k & 2 else (x, y) for x, y in turned]
        assert not Region(turned).tileable()
    # every 2 x n strip with n even and every 4 x 4 ring tile; counts from brute force
    for cells in ([(x, y) for x in range(6) for y in range(2)],
                  [(x, y) for x in range(4) for y in range(4) if x in (0, 3) or y in (0, 3)]):
        assert Region(cells).tileable() == brute_tileable(cells) is True
    odd = list(itertools.islice(((x, 0) for x in range(100)), 6))
    assert not Region(odd).tileable()
