"""Mapmaker bots: the get_bot contract, legality, determinism, budget, purity, strength smoke."""

import copy
import json
import random
import sys
import time
from pathlib import Path

import pytest

from games.bots import LEVELS, get_bot
from games.engine import get_rules

RULES = get_rules("mapmaker")


def _random_states(seed, players=2, count=6):
    """States along a random game (including ones waiting for a tie choice if they occur)."""
    rng = random.Random(seed)
    state = RULES.setup({"players": players}, seed)
    out = []
    picks = set(rng.sample(range(60), count))
    ply = 0
    while not RULES.is_over(state):
        seat = RULES.to_move(state)[0]
        if ply in picks or RULES.view(state, seat).get("pending_choice"):
            out.append(state)
        state = RULES.apply(state, seat, rng.choice(RULES.legal_moves(state, seat)))
        ply += 1
    return out


def _play(levels, seed, players=2, budget=0.05):
    state = RULES.setup({"players": players, "first_seat": 0}, seed)
    bots = [get_bot("mapmaker", lv) for lv in levels]
    ply = 0
    while not RULES.is_over(state):
        seat = RULES.to_move(state)[0]
        move = bots[seat].choose(RULES.view(state, seat), seat, seed=ply, budget_s=budget)
        state = RULES.apply(state, seat, move)
        ply += 1
        assert ply < 500
    return state


def test_levels_and_get_bot():
    assert LEVELS == ("random", "easy", "medium", "hard")
    for lv in LEVELS:
        bot = get_bot("mapmaker", lv)
        assert callable(bot.choose)
        assert bot.__class__.__doc__ and len(bot.__class__.__doc__) > 60


def test_unknown_game_or_level():
    with pytest.raises(ValueError, match="no bots for game 'chess'"):
        get_bot("chess", "easy")
    with pytest.raises(ValueError, match="unknown bot level 'expert'.*random"):
        get_bot("mapmaker", "expert")


def test_no_django_imports():
    """Bots are pure: importing them in a fresh interpreter pulls in no framework."""
    import subprocess

    code = ("import sys, games.bots.mapmaker; "
            "print(sorted({m.split('.')[0] for m in sys.modules} & "
            "{'django', 'channels', 'celery', 'rest_framework'}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=Path(__file__).resolve().parents[2])
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_always_legal_and_pure(level, seed):
    bot = get_bot("mapmaker", level)
    for state in _random_states(seed, players=2 if seed != 3 else 3):
        for seat in RULES.to_move(state):
            before = copy.deepcopy(state)
            move = bot.choose(RULES.view(state, seat), seat, seed=seed, budget_s=0.05)
            assert state == before  # never mutates
            assert move in RULES.legal_moves(state, seat)
            json.dumps(move)


def _tie_state():
    for seed in range(400):
        rng = random.Random(seed)
        state = RULES.setup({"players": 2}, seed)
        while not RULES.is_over(state):
            seat = RULES.to_move(state)[0]
            if RULES.view(state, seat).get("pending_choice"):
                return state, seat
            state = RULES.apply(state, seat, rng.choice(RULES.legal_moves(state, seat)))
    pytest.skip("no tie found")


@pytest.mark.parametrize("level", LEVELS)
def test_pending_tie_choice(level):
    state, seat = _tie_state()
    move = get_bot("mapmaker", level).choose(RULES.view(state, seat), seat, seed=0, budget_s=0.05)
    assert move["type"] == "choose_winner"
    assert move in RULES.legal_moves(state, seat)
    if level != "random":
        assert move["party"] == RULES.view(state, seat)["party_of_seat"][seat]


@pytest.mark.parametrize("level", LEVELS)
def test_deterministic(level):
    bot = get_bot("mapmaker", level)
    for state in _random_states(5, count=3):
        seat = RULES.to_move(state)[0]
        a = bot.choose(RULES.view(state, seat), seat, seed=11, budget_s=5)
        b = get_bot("mapmaker", level).choose(RULES.view(copy.deepcopy(state), seat), seat, seed=11, budget_s=5)
        assert a == b


@pytest.mark.parametrize("budget_s, most", [(0.05, 5), (5.0, None)])
def test_hard_stops_its_search_at_the_deadline(monkeypatch, stepping_clock, budget_s, most):
    """Each clock reading is 0.01 s here: with 0.05 s the hard bot stops after a handful of
    playouts (a reading per playout); with 5 s it plays its whole share of work."""
    from games.bots import base, mapmaker

    state = RULES.setup({"players": 2, "first_seat": 0}, 4)
    # play into the midgame, where a turn has 4 borders and many options
    rng = random.Random(4)
    for _ in range(10):
        seat = RULES.to_move(state)[0]
        state = RULES.apply(state, seat, rng.choice(RULES.legal_moves(state, seat)))
    seat = RULES.to_move(state)[0]
    stepping_clock(base, mapmaker)
    playouts = []
    playout = mapmaker._playout
    monkeypatch.setattr(mapmaker, "_playout", lambda *a: playouts.append(1) or playout(*a))
    move = get_bot("mapmaker", "hard").choose(RULES.view(state, seat), seat, seed=1,
                                              budget_s=budget_s)
    assert move in RULES.legal_moves(state, seat)
    if most is None:
        assert len(playouts) > 50  # stopped by its work allowance, long before 5 s
    else:
        assert 0 < len(playouts) <= most


def _winning_completion_position():
    """A position where one border closes a district the mover wins (found from random play)."""
    for seed in range(200):
        rng = random.Random(seed)
        state = RULES.setup({"players": 2}, seed)
        while not RULES.is_over(state):
            seat = RULES.to_move(state)[0]
            view = RULES.view(state, seat)
            if not view["pending_choice"]:
                me = view["party_of_seat"][seat]
                n = len(view["districts"])
                good, bad = [], []
                for m in view["legal_moves"]:
                    new = RULES.view(RULES.apply(state, seat, m), seat)["districts"][n:]
                    wins = [d["winner"] for d in new]
                    if wins and all(w == me for w in wins):
                        good.append(m)
                    else:
                        bad.append(m)
                if good and len(bad) > 5:
                    return state, seat, good
            state = RULES.apply(state, seat, rng.choice(RULES.legal_moves(state, seat)))
    pytest.skip("no position found")


def test_easy_takes_a_winning_completion():
    state, seat, good = _winning_completion_position()
    for s in range(5):
        assert get_bot("mapmaker", "easy").choose(RULES.view(state, seat), seat, seed=s, budget_s=1) in good


@pytest.mark.parametrize("players", [2, 3, 4])
def test_bots_only_games_end(players):
    levels = ["hard", "medium", "easy", "random"][:players]
    state = _play(levels, seed=players, players=players, budget=0.05)
    assert RULES.is_over(state)
    assert RULES.result(state)["winners"]


def test_smoke_hard_beats_random():
    wins = 0
    for g in range(6):
        levels = ["hard", "random"] if g % 2 == 0 else ["random", "hard"]
        hard_seat = levels.index("hard")
        state = _play(levels, seed=100 + g, budget=0.05)
        if RULES.result(state)["winners"] == [hard_seat]:
            wins += 1
    assert wins >= 4  # most of 6 (the ladder measures the real rate)


def _minimax(state, seat):
    """Plain minimax (no memo) of the mapmaker reward from ``seat``'s side: a reference."""
    from games.bots.mapmaker import _reward

    if RULES.is_over(state):
        return _reward(RULES, state, seat)
    mover = RULES.to_move(state)[0]
    moves = RULES.legal_moves(state, mover)
    if moves[0]["type"] == "choose_winner":
        party = RULES.view(state, mover)["party_of_seat"][mover]
        moves = [m for m in moves if m["party"] == party] or moves
    vals = [_minimax(RULES.apply(state, mover, m), seat) for m in moves]
    return max(vals) if mover == seat else min(vals)


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_endgame_search_is_exact(seed):
    from games.bots.mapmaker import solve_endgame

    rng = random.Random(seed)
    state = RULES.setup({"players": 2}, seed)
    while True:
        seat = RULES.to_move(state)[0]
        moves = RULES.legal_moves(state, seat)
        if moves[0]["type"] == "border" and len(moves) <= 6:
            break
        state = RULES.apply(state, seat, rng.choice(moves))
        assert not RULES.is_over(state)
    before = copy.deepcopy(state)
    best = solve_endgame(RULES, state, seat, moves, time.perf_counter() + 10, 10_000)
    assert state == before and best in moves
    values = [_minimax(RULES.apply(state, seat, m), seat) for m in moves]
    assert _minimax(RULES.apply(state, seat, best), seat) == max(values)


def test_endgame_search_handles_tie_choices_made_by_another_party():
    """Regression: with three players the closer of a tied district may not be tied itself;
    the exact search then branches on the choice (it crashed on building that branch's key)."""
    import random as _random

    from games.bots.mapmaker import solve_endgame

    searched = 0
    for seed in range(40):
        rng = _random.Random(seed)
        state = RULES.setup({"players": 3}, seed)
        while not RULES.is_over(state):
            seat = RULES.to_move(state)[0]
            moves = RULES.legal_moves(state, seat)
            if moves[0]["type"] == "border" and len(moves) <= 9:
                move = solve_endgame(RULES, state, seat, moves, time.perf_counter() + 5, 200_000)
                assert move is None or move in moves
                searched += 1
                break
            state = RULES.apply(state, seat, rng.choice(moves))
    assert searched >= 20
