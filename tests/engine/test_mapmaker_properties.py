"""Property tests: random games, random moves, round trips, and a networkx reference (legal
borders and districts found its own way; it shares only the splittability test)."""

import copy
import json
import random
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mapmaker_helpers import DIRS, RULES, board_of, check_final_position

from games.engine import IllegalMove

OPTIONS = [{"players": 2}, {"players": 3}, {"players": 4}, {"mode": "solo-easy"},
           {"mode": "solo-competitive"}]
options_st = st.sampled_from(OPTIONS)
seeds = st.one_of(st.integers(0, 2**32), st.text(max_size=8))
FAST = settings(max_examples=25, deadline=None,
                suppress_health_check=[HealthCheck.too_slow])


def random_step(state, rng):
    """One random legal move for whoever is to move (solo easy when stuck: the undo)."""
    seat = RULES.to_move(state)[0]
    return RULES.apply(state, seat, rng.choice(RULES.legal_moves(state, seat)))


def advance(options, seed, steps):
    rng = random.Random(repr(seed))
    state = RULES.setup(options, seed)
    for _ in range(steps):
        if RULES.is_over(state):
            break
        state = random_step(state, rng)
    return state


@FAST
@given(st.sampled_from(OPTIONS[:3] + [OPTIONS[4]]), seeds)
def test_random_playouts_end_with_every_county_in_a_proper_district(options, seed):
    state = advance(options, seed, 10_000)
    assert RULES.is_over(state)
    if not state["lost"]:
        check_final_position(state)
    json.dumps(RULES.view(state, 0))
    json.dumps(RULES.result(state))


@FAST
@given(options_st, seeds, st.integers(0, 120))
def test_apply_never_mutates_and_json_round_trip_behaves_identically(options, seed, steps):
    state = advance(options, seed, steps)
    if RULES.is_over(state):
        return
    seat = RULES.to_move(state)[0]
    moves = RULES.legal_moves(state, seat)
    if not moves:
        return
    frozen = copy.deepcopy(state)
    trip = json.loads(json.dumps(state))
    assert trip == state
    for move in random.Random(steps).sample(moves, min(5, len(moves))):
        new = RULES.apply(state, seat, move)
        assert state == frozen
        assert RULES.apply(trip, seat, copy.deepcopy(move)) == new
        assert json.loads(json.dumps(new)) == new
        # the new state shares no list or dict with the old one
        old_ids = {id(x) for x in _containers(state)}
        assert not old_ids & {id(x) for x in _containers(new)}
    assert RULES.view(trip, seat) == RULES.view(state, seat)


def _containers(obj):
    if isinstance(obj, dict):
        yield obj
        for v in obj.values():
            yield from _containers(v)
    elif isinstance(obj, list):
        yield obj
        for v in obj:
            yield from _containers(v)


@FAST
@given(options_st, seeds)
def test_same_seed_same_game(options, seed):
    assert advance(options, seed, 40) == advance(options, seed, 40)


def _adjacent_pairs(reach=6):
    """Every pair of neighbouring hexes on the board or just beyond it, each edge once."""
    pairs = set()
    for q in range(-reach, reach + 1):
        for r in range(-reach, reach + 1):
            for dq, dr in DIRS:
                pair = tuple(sorted([(q, r), (q + dq, r + dr)]))
                if max(map(abs, pair[0] + pair[1])) <= reach:
                    pairs.add(pair)
    return sorted(pairs)


PAIRS = _adjacent_pairs()


@FAST
@given(options_st, seeds, st.integers(0, 150))
def test_views_in_one_go_equal_each_seats_own_view(options, seed, steps):
    """A broadcast builds every seat's view in one call, sharing what they have in common;
    each must still be exactly what building that seat's view alone gives (no seat's legal
    moves or seat number leaking into another's).  What a single view holds is checked by
    the rules tests."""
    state = advance(options, seed, steps)
    seats = list(range(state["players"])) + [None]
    views = RULES.views(state, seats)
    assert [json.dumps(v) for v in views] == [json.dumps(RULES.view(state, s)) for s in seats]
    with pytest.raises(IllegalMove):
        RULES.views(state, [0, state["players"]])


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(OPTIONS[:4]), seeds, st.integers(0, 100))
def test_legal_moves_equal_the_borders_that_apply(options, seed, steps):
    state = advance(options, seed, steps)
    if RULES.is_over(state) or state["pending"]:
        return
    seat = RULES.to_move(state)[0]
    legal = {tuple(sorted(map(tuple, m["between"]))) for m in RULES.legal_moves(state, seat)
             if m["type"] == "border"}
    applied = set()
    codes = set()
    for pair in PAIRS:
        try:
            RULES.apply(state, seat, {"type": "border", "between": [list(pair[0]), list(pair[1])]})
        except IllegalMove as err:
            codes.add(err.code)
            continue
        applied.add(pair)
    assert applied == legal
    assert codes <= {"edge_of_board", "off_board", "already_bordered", "inside_district",
                     "too_small", "tie_not_allowed"}


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 10) | st.floats(allow_nan=True) | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                                  max_size=3),
    max_leaves=8,
)
coord = st.one_of(st.lists(st.integers(-7, 7), min_size=2, max_size=2), json_values)
moves_st = st.one_of(
    json_values,
    st.fixed_dictionaries({"type": st.sampled_from(["border", "choose_winner", "undo", "pass"])},
                          optional={"between": st.one_of(st.lists(coord, max_size=3), json_values),
                                    "party": json_values}),
    st.builds(lambda a, b: {"type": "border", "between": [a, b]}, coord, coord),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options_st, st.integers(0, 50), moves_st, st.one_of(st.integers(-2, 5), json_values))
def test_random_moves_raise_only_illegal_move(options, steps, move, seat):
    state = _cached_state(options["players"] if "players" in options else options["mode"], steps)
    frozen = copy.deepcopy(state)
    try:
        new = RULES.apply(state, seat, move)
    except IllegalMove as err:
        assert isinstance(err.code, str) and err.code and isinstance(err.message, str)
    else:
        json.dumps(new)
    assert state == frozen
    assert isinstance(RULES.legal_moves(state, seat), list)


_STATES = {}


def _cached_state(key, steps):
    if (key, steps) not in _STATES:
        options = {"players": key} if isinstance(key, int) else {"mode": key}
        _STATES[(key, steps)] = advance(options, 12345, steps)
    return _STATES[(key, steps)]


@FAST
@given(st.sampled_from(OPTIONS[:3]), seeds, st.integers(0, 150))
def test_every_legal_move_applies(options, seed, steps):
    state = advance(options, seed, steps)
    if RULES.is_over(state):
        return
    seat = RULES.to_move(state)[0]
    for move in RULES.legal_moves(state, seat):
        RULES.apply(state, seat, move)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_engine_agrees_with_the_networkx_reference(players):
    """The benchmark's networkx reference replays engine games step by step: the same legal
    borders, districts and (untied) winners after every move."""
    root = str(Path(__file__).resolve().parents[2])
    if root not in sys.path:
        sys.path.insert(0, root)
    from bench.engine_bench import cross_check

    for seed in range(2):
        cross_check(players, 500 + seed)


def test_solo_undo_restores_every_earlier_state():
    rng = random.Random(3)
    for mode in ("solo-easy", "solo-competitive"):
        state = RULES.setup({"mode": mode}, 8)
        history = []
        while not RULES.is_over(state) and len(history) < 40:
            moves = [m for m in RULES.legal_moves(state, 0) if m["type"] != "undo"]
            if not moves:
                break
            history.append(state)
            state = RULES.apply(state, 0, rng.choice(moves))
        while history:
            state = RULES.apply(state, 0, {"type": "undo"})
            assert state == history.pop()
        assert board_of(state).size == 37
