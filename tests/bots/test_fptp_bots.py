"""First Past the Post bots: legal from any view, deterministic per seed, the search respects
its time budget, blind to what their seat cannot see, and they finish games."""

import copy
import random
import subprocess
import sys
from pathlib import Path

import pytest

from games.bots import LEVELS, get_bot
from games.engine import get_rules
from games.engine.fptp_data import NEWS

RULES = get_rules("fptp")


def _positions(seed, players, steps_wanted=8, **options):
    """States along a random game, one of each kind of decision where possible."""
    rng = random.Random(seed)
    state = RULES.setup({"players": players, **options}, seed)
    seen = {}
    plies = 0
    while not RULES.is_over(state) and plies < 600:
        step = state["step"]
        key = (step, state["news_card"])
        if key not in seen or rng.random() < 0.02:
            seen.setdefault(key, []).append(state)
        seat = rng.choice(RULES.to_move(state))
        moves = [m for m in RULES.legal_moves(state, seat) if m["type"] != "leave"]
        # prefer paying for news cards, so that gerrymanders and Clean Slate get played
        paying = [m for m in moves if m["type"] == "pay"]
        state = RULES.apply(state, seat, paying[0] if paying else rng.choice(moves))
        plies += 1
    out = [states[0] for states in seen.values()]
    rng.shuffle(out)
    return out[:steps_wanted]


POSITIONS = (_positions(1, 2, 10) + _positions(2, 3, 6, variant="av")
             + _positions(3, 5, 6) + _positions(4, 4, 6, news=False))


def _end_vote_position():
    state = RULES.setup({"players": 2, "first_player": 0, "news": False}, 9)
    empty = {0, 1}
    for i in range(len(state["stacks"])):
        if i not in empty:
            state["stacks"][i] = [0]
    state = RULES.apply(state, 0, {"type": "campaign", "hex": [4, 0]})
    for seat in RULES.to_move(state):
        state = RULES.apply(state, seat, {"type": "bid", "card": state["hands"][seat][0]})
    assert state["step"] == "end_vote"
    return state


def test_levels_and_docstrings():
    for level in LEVELS:
        bot = get_bot("fptp", level)
        assert bot.__class__.__doc__ and len(bot.__class__.__doc__) > 120
    steps = {s["step"] for s in POSITIONS}
    assert {"news", "campaign", "bid"} <= steps


def test_no_django_imports():
    code = ("import sys, games.bots.fptp; "
            "print(sorted({m.split('.')[0] for m in sys.modules} & "
            "{'django', 'channels', 'celery', 'rest_framework'}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=Path(__file__).resolve().parents[2])
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_moves_legally_from_its_view_and_never_leaves(level):
    bot = get_bot("fptp", level)
    for state in POSITIONS + [_end_vote_position()]:
        for seat in RULES.to_move(state):
            before = copy.deepcopy(state)
            view = RULES.view(state, seat)
            move = bot.choose(view, seat, seed=7, budget_s=1.0)
            assert move in RULES.legal_moves(state, seat), (state["step"], move)
            assert move["type"] != "leave"
            assert state == before
            RULES.apply(state, seat, move)


@pytest.mark.parametrize("level", LEVELS)
def test_deterministic_per_seed(level):
    bot = get_bot("fptp", level)
    for state in POSITIONS[::3]:
        seat = RULES.to_move(state)[0]
        view = RULES.view(state, seat)
        assert bot.choose(view, seat, seed=11, budget_s=5) == \
            bot.choose(copy.deepcopy(view), seat, seed=11, budget_s=5)


def _scramble(state, viewer, rng):
    """The same position with every card ``viewer`` cannot see dealt again at random (other
    hands and committed bids, the budget pile's order, the unknown part of the news pile)."""
    s = copy.deepcopy(state)
    pool = list(s["budget_pile"])
    for seat in range(s["players"]):
        if seat != viewer:
            pool += s["hands"][seat] + ([s["bids"][seat]] if s["bids"][seat] else [])
    rng.shuffle(pool)
    for seat in range(s["players"]):
        if seat != viewer:
            s["hands"][seat] = [pool.pop() for _ in s["hands"][seat]]
            if s["bids"][seat] is not None:
                s["bids"][seat] = pool.pop()
    s["budget_pile"] = pool
    unknown = s["news_pile"][s["news_known"]:]
    rng.shuffle(unknown)
    s["news_pile"] = s["news_pile"][:s["news_known"]] + unknown
    s["shuffle_key"] = "scrambled"
    return s


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_the_same_answer_when_hidden_parts_of_the_real_game_differ(level):
    bot = get_bot("fptp", level)
    rng = random.Random(3)
    for state in POSITIONS[::2]:
        seat = RULES.to_move(state)[0]
        other = _scramble(state, seat, rng)
        assert other != state
        view = RULES.view(state, seat)
        assert RULES.view(other, seat) == view  # the bot is handed exactly the same input
        assert bot.choose(view, seat, seed=5) == bot.choose(RULES.view(other, seat), seat,
                                                            seed=5)


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_a_spent_budget_cuts_the_search_short(level):
    """With no time at all the search stops after its first candidate: the campaign goes to
    the hex that matters most at first sight, and bids are still legal."""
    bot = get_bot("fptp", level)
    for state in POSITIONS:
        seat = RULES.to_move(state)[0]
        view = RULES.view(state, seat)
        move = bot.choose(view, seat, seed=1, budget_s=0.0)
        assert move in RULES.legal_moves(state, seat)
        if state["step"] == "campaign":
            pos = bot.position(view, seat)
            first = min(pos.groups(), key=lambda g: (-g.stake[seat], g.hexes[0]))
            assert move["hex"] == list(pos.board.coords[first.hexes[0]])


def _play(levels, seed, **options):
    state = RULES.setup({"players": len(levels), **options}, seed)
    bots = [get_bot("fptp", lv) for lv in levels]
    ply = 0
    while not RULES.is_over(state):
        seats = RULES.to_move(state)
        views = RULES.views(state, seats)
        moves = [(s, bots[s].choose(v, s, seed=ply, budget_s=1.0))
                 for s, v in zip(seats, views, strict=True)]
        for seat, move in moves:
            if move in RULES.legal_moves(state, seat):
                state = RULES.apply(state, seat, move)
                ply += 1
        assert ply < 2000
    return RULES.result(state)


def test_bots_finish_a_game_and_easy_beats_random():
    for seed in (1, 2):
        result = _play(["easy", "random"], seed)
        assert result["winners"] == [0]
        result = _play(["random", "easy"], seed, variant="av")
        assert result["winners"] == [1]


def test_a_mixed_table_finishes():
    result = _play(["medium", "easy", "random"], 4)
    assert result["decided_by"] in RULES.decided_by
    assert sorted(r["seat"] for r in result["ranking"]) == [0, 1, 2]


def _first_paid_gerrymander(players, seed=1):
    """Along a random game that never pays, the first view where the hard bot would pay
    for a gerrymander card: (seat, view, hard's move)."""
    rng = random.Random(seed)
    hard = get_bot("fptp", "hard")
    state = RULES.setup({"players": players}, seed)
    while not RULES.is_over(state):
        seats = RULES.to_move(state)
        card = state["news_card"]
        if state["step"] == "news" and NEWS[card]["effect"].get("action") == "gerrymander":
            view = RULES.view(state, seats[0])
            move = hard.choose(view, seats[0], seed=1)
            if move["type"] == "pay":
                return seats[0], view, move
        seat = rng.choice(seats)
        moves = [m for m in RULES.legal_moves(state, seat) if m["type"] not in ("leave", "pay")]
        state = RULES.apply(state, seat, rng.choice(moves))
    raise AssertionError("no gerrymander worth paying for in this game")


def test_medium_pays_for_a_gerrymander_against_one_player_but_not_at_a_bigger_table():
    medium = get_bot("fptp", "medium")
    seat, view, paid = _first_paid_gerrymander(2)
    assert medium.choose(view, seat, seed=1) == paid
    seat, view, paid = _first_paid_gerrymander(4)
    assert medium.choose(view, seat, seed=1) == {"type": "news", "accept": False}
