"""Mapmaker's lesson and its ensemble of random maps (games/engine/mapmaker_lesson.py).

The lessons are worked by hand on small boards that come as map data, played through the real
engine: every border between two planned districts is placed with ``apply`` (in any order the
plan's districts form exactly, since a union of planned districts can always be split) and each
tie is settled with a ``choose_winner`` move.
"""

import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mapmaker_helpers import check_final_position

from games.engine import get_rules
from games.engine.lesson import ensemble_rng
from games.engine.mapmaker import board_for
from games.engine.mapmaker_lesson import (
    ensemble,
    ensemble_summary,
    game_seats,
    lesson,
    random_map,
    random_map_seats,
)

RULES = get_rules("mapmaker")
RED, BLUE, YELLOW, NEUTRAL = 0, 1, 2, None


def board_of(state):
    return board_for(state["board"], state["tier"], state.get("counties"))


def rows_game(players, width, rows, party_values, neutral_values, layout):
    """A fresh game on a ``width`` x ``rows`` parallelogram (row r: counties (0, r) ..
    (width - 1, r)), with ``layout[r]`` the (party, value) tokens of row r, left to right."""
    min_players = 1 if players == 2 else players
    counties = [[q, r, min_players] for r in range(rows) for q in range(width)]
    data = {"name": "rows", "counties": counties,
            "tokens": {"party": party_values, "neutral": neutral_values}}
    state = RULES.setup({"players": players, "map": data, "first_seat": 0}, 1)
    index = board_of(state).index
    before = Counter(zip(state["party_at"], state["value_at"], strict=True))
    for r, tokens in enumerate(layout):
        for q, (party, value) in enumerate(tokens):
            state["party_at"][index[(q, r)]] = party
            state["value_at"][index[(q, r)]] = value
    # the layout only moves the game's own tokens around
    assert Counter(zip(state["party_at"], state["value_at"], strict=True)) == before
    return state


def play_rows(state, tie_choices, stop_at_tie=False):
    """Place every border between two rows; a tie in row r goes to ``tie_choices[r]``."""
    board = board_of(state)
    for a, b in board.ends:
        (qa, ra), (qb, rb) = board.coords[a], board.coords[b]
        if ra == rb:
            continue
        seat = RULES.to_move(state)[0]
        state = RULES.apply(state, seat, {"type": "border", "between": [[qa, ra], [qb, rb]]})
        while state["pending"]:
            if stop_at_tie:
                return state
            district = state["districts"][state["pending"][0]]
            row = board.coords[district["counties"][0]][1]
            seat = RULES.to_move(state)[0]
            state = RULES.apply(state, seat, {"type": "choose_winner", "party": tie_choices[row]})
    assert RULES.is_over(state)
    return state


def row_of(district):
    rows = {r for _, r in district["cells"]}
    assert len(rows) == 1
    return rows.pop()


def by_row(lesson_):
    return {row_of(d): d for d in lesson_["districts"]}


# Four rows of four counties, each party holding tokens 1..8 (36 votes):
#   A: Red 11, Blue 9   B: Red 6, Blue 6 (tie)   C: Red 18   D: Blue 21, Red 1
ROWS_2P = [
    [(RED, 8), (RED, 3), (BLUE, 5), (BLUE, 4)],
    [(RED, 6), (BLUE, 3), (BLUE, 2), (BLUE, 1)],
    [(RED, 7), (RED, 5), (RED, 4), (RED, 2)],
    [(BLUE, 8), (BLUE, 7), (BLUE, 6), (RED, 1)],
]


def two_player_rows_game():
    return rows_game(2, 4, 4, list(range(1, 9)), [], ROWS_2P)


def test_two_player_lesson_worked_by_hand():
    state = play_rows(two_player_rows_game(), {1: RED})
    got = lesson(state)
    rows = by_row(got)
    assert [rows[r]["votes"] for r in range(4)] == [[11, 9], [6, 6], [18, 0], [1, 21]]
    assert [rows[r]["winner"] for r in range(4)] == [RED, RED, RED, BLUE]
    assert [rows[r]["needed"] for r in range(4)] == [10, 6, 9, 11]  # half of each district
    assert [rows[r]["wasted"] for r in range(4)] == [[1, 9], [0, 6], [9, 0], [1, 10]]
    red, blue = got["parties"]
    assert (red["votes"], blue["votes"]) == (36, 36)
    assert (red["seats"], blue["seats"]) == (3, 1)
    assert (red["wasted"], blue["wasted"]) == (11, 25)
    assert got["efficiency_gap"]["value"] == pytest.approx((11 - 25) / 72)
    assert got["efficiency_gap"]["favours"] == RED
    assert got["gallagher"] == pytest.approx(25.0)
    # Red packed in row C, Blue in row D; Blue lost rows A (by 2 of 20) and B (a tie) narrowly
    assert [rows[r]["packed"] for r in range(4)] == [None, None, RED, BLUE]
    assert blue["cracked"] and not red["cracked"]
    assert sorted(row_of(got["districts"][i]) for i in blue["narrow_losses"]) == [0, 1]
    assert rows[2]["cells"] == [[0, 2], [1, 2], [2, 2], [3, 2]]
    assert (red["seat"], blue["seat"]) == (0, 1)
    assert all(d["closed_by"] in (0, 1) for d in got["districts"])
    assert got["finished"] and got["counties_left"] == 0 and got["game"] == "mapmaker"
    assert json.loads(json.dumps(got)) == got
    assert game_seats(state) == [3, 1]
    assert [r["districts"] for r in sorted(RULES.result(state)["ranking"],
                                           key=lambda r: r["party"])] == [3, 1]


def test_a_pending_tie_is_shared_in_the_lesson():
    state = play_rows(two_player_rows_game(), {}, stop_at_tie=True)
    got = lesson(state)
    assert not got["finished"]
    tied = by_row(got)[1]
    assert (tied["winner"], tied["leaders"], tied["wasted"]) == (None, [RED, BLUE], [0, 0])
    assert [p["tied_open"] for p in got["parties"]] == [1, 1]


def test_three_players_hold_99_votes_each_yet_win_unequal_districts():
    """The rulebook's component list gives every party 99 votes; the map decides the rest."""
    state = RULES.setup({"players": 3}, 5)
    rng = random.Random(3)
    while not RULES.is_over(state):
        seat = RULES.to_move(state)[0]
        state = RULES.apply(state, seat, rng.choice(RULES.legal_moves(state, seat)))
    got = lesson(state)
    assert [p["votes"] for p in got["parties"]] == [99, 99, 99]
    assert [p["vote_share"] for p in got["parties"]] == [1 / 3] * 3
    seats = [p["seats"] for p in got["parties"]]
    assert seats == game_seats(state) and len(set(seats)) > 1
    n = len(state["districts"])
    assert got["gallagher"] == pytest.approx(
        (sum((100 / 3 - 100 * s / n) ** 2 for s in seats) / 2) ** 0.5)
    # wasted votes by the formula: losers' votes, the winner's beyond runner-up + 1
    wasted = [0, 0, 0]
    for d in state["districts"]:
        votes = d["votes"][:3]
        w = d["winner"]
        runner = max(v for p, v in enumerate(votes) if p != w)
        for p in range(3):
            wasted[p] += votes[p] - min(votes[p], runner + 1) if p == w else votes[p]
    assert [p["wasted"] for p in got["parties"]] == wasted
    assert got["efficiency_gap"] is None
    assert "Every party had exactly the same number of votes (99)" in " ".join(got["words"])


# A 4-4-4 end: three parties, 12 rows of 4 counties, each party holding twelve 1-vote tokens
# (plus twelve neutral 0s); row by row (Red, Blue, Yellow) votes and the winner:
FOUR_FOUR_FOUR = [
    ((4, 0, 0), RED), ((3, 0, 0), RED), ((2, 2, 0), RED), ((2, 2, 0), RED),
    ((1, 2, 0), BLUE), ((0, 2, 2), BLUE), ((0, 2, 1), BLUE), ((0, 2, 0), BLUE),
    ((0, 0, 3), YELLOW), ((0, 0, 2), YELLOW), ((0, 0, 2), YELLOW), ((0, 0, 2), YELLOW),
]


def test_a_4_4_4_end_worked_by_hand():
    layout = []
    for (red, blue, yellow), _ in FOUR_FOUR_FOUR:
        row = [(RED, 1)] * red + [(BLUE, 1)] * blue + [(YELLOW, 1)] * yellow
        layout.append(row + [(NEUTRAL, 0)] * (4 - len(row)))
    state = rows_game(3, 4, 12, [1] * 12, [0] * 12, layout)
    state = play_rows(state, {r: winner for r, (_, winner) in enumerate(FOUR_FOUR_FOUR)})
    got = lesson(state)
    rows = by_row(got)
    assert [rows[r]["winner"] for r in range(12)] == [w for _, w in FOUR_FOUR_FOUR]
    # needed: one more than the runner-up (a tie won by choice needed every vote)
    assert [rows[r]["needed"] for r in range(12)] == [1, 1, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1]
    assert [rows[r]["wasted"] for r in range(12)] == [
        [3, 0, 0], [2, 0, 0], [0, 2, 0], [0, 2, 0],
        [1, 0, 0], [0, 0, 2], [0, 0, 1], [0, 1, 0],
        [0, 0, 2], [0, 0, 1], [0, 0, 1], [0, 0, 1]]
    red, blue, yellow = got["parties"]
    assert [p["votes"] for p in got["parties"]] == [12, 12, 12]
    assert [p["seats"] for p in got["parties"]] == [4, 4, 4]
    assert got["gallagher"] == 0.0  # equal votes, equal seats ...
    assert [p["wasted"] for p in got["parties"]] == [6, 5, 8]  # ... but not equal waste
    assert got["efficiency_gap"] is None
    packed = {r: rows[r]["packed"] for r in range(12) if rows[r]["packed"] is not None}
    assert packed == {0: RED, 1: RED, 7: BLUE, 8: YELLOW, 9: YELLOW, 10: YELLOW, 11: YELLOW}
    assert blue["cracked"] and not red["cracked"] and not yellow["cracked"]
    assert sorted(row_of(got["districts"][i]) for i in blue["narrow_losses"]) == [2, 3]
    assert sorted(row_of(got["districts"][i]) for i in yellow["narrow_losses"]) == [5]


def test_the_lesson_of_an_unfinished_game_covers_the_districts_so_far():
    state = RULES.setup({"players": 2}, 3)
    assert lesson(state)["words"] == ["No districts have been formed yet."]
    rng = random.Random(1)
    while len(state["districts"]) < 3:
        seat = RULES.to_move(state)[0]
        state = RULES.apply(state, seat, rng.choice(RULES.legal_moves(state, seat)))
    got = lesson(state)
    assert not got["finished"] and got["district_count"] == len(state["districts"])
    assert got["counties_left"] == 37 - sum(len(d["counties"]) for d in state["districts"])


# ---------------------------------------------------------------------- the ensemble
def engine_playout(state, rng):
    """A random player through the engine contract: a random legal move, again and again."""
    while not RULES.is_over(state):
        seat = RULES.to_move(state)[0]
        state = RULES.apply(state, seat, rng.choice(RULES.legal_moves(state, seat)))
    return state


def replay(start, plan):
    """Play a sampled map's borders through the engine, settling ties as the map did."""
    coords = board_of(start).coord_lists
    winner_of = {frozenset(map(tuple, d["counties"])): d["winner"] for d in plan["districts"]}
    state = start
    for between in plan["borders"]:
        seat = RULES.to_move(state)[0]
        state = RULES.apply(state, seat, {"type": "border", "between": between})
        while state["pending"]:
            district = state["districts"][state["pending"][0]]
            winner = winner_of[frozenset(tuple(coords[c]) for c in district["counties"])]
            seat = RULES.to_move(state)[0]
            state = RULES.apply(state, seat, {"type": "choose_winner", "party": winner})
    return state


def district_sets(state):
    coords = board_of(state).coord_lists
    return sorted((sorted(coords[c] for c in d["counties"]), d["winner"])
                  for d in state["districts"])


def plan_sets(plan):
    return sorted((sorted(d["counties"]), d["winner"]) for d in plan["districts"])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_sampled_maps_replay_legally_through_the_engine(players):
    start = RULES.setup({"players": players}, 40 + players)
    for i in range(4):
        plan = random_map(start, ensemble_rng(9, i))
        state = replay(start, plan)  # apply raises IllegalMove on any illegal border
        assert RULES.is_over(state)
        assert district_sets(state) == plan_sets(plan)
        check_final_position(state)  # connected, >= 4 counties, cannot be split
        assert plan["seats"] == game_seats(state)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_sampled_map_is_the_map_a_random_engine_player_draws(players):
    """Same random source, same map: the sampler makes the engine's random choices."""
    start = RULES.setup({"players": players}, 50 + players)
    for i in range(3):
        plan = random_map(start, ensemble_rng(2, i))
        state = engine_playout(start, ensemble_rng(2, i))
        assert RULES.view(state, None)["borders"] == plan["borders"]
        assert [d["winner"] for d in state["districts"]] == \
            [d["winner"] for d in plan["districts"]]


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([2, 3]))
def test_any_sampled_map_is_legal(seed, players):
    start = RULES.setup({"players": players}, seed)
    plan = random_map(start, random.Random(seed))
    state = replay(start, plan)
    assert RULES.is_over(state) and district_sets(state) == plan_sets(plan)


def test_sampling_a_board_that_came_as_map_data():
    start = two_player_rows_game()
    for i in range(5):
        plan = random_map(start, ensemble_rng(1, i))
        state = replay(start, plan)
        assert district_sets(state) == plan_sets(plan)
        assert sum(plan["seats"]) == len(plan["districts"])


def test_the_ensemble_is_deterministic_per_seed_and_per_map():
    state = engine_playout(RULES.setup({"players": 4}, 8), random.Random(8))
    whole = ensemble(state, count=12, seed="game-8")
    assert len(whole) == 12 and all(sum(s) >= 12 for s in whole)  # 73 counties: >= 12 districts
    assert ensemble(state, count=12, seed="game-8") == whole
    chunks = ensemble(state, seed="game-8", start=0, stop=5) \
        + ensemble(state, seed="game-8", start=5, stop=9) \
        + ensemble(state, seed="game-8", start=9, stop=12)
    assert chunks == whole
    assert ensemble(state, seed="game-8", start=7, stop=8) == [whole[7]]
    assert whole[3] == random_map_seats(state, ensemble_rng("game-8", 3))
    assert whole[3] == random_map(state, ensemble_rng("game-8", 3))["seats"]
    assert ensemble(state, count=12, seed="game-9") != whole
    # the maps depend on the board and the tokens, not on the borders this game played
    assert ensemble(RULES.setup({"players": 4}, 8), count=12, seed="game-8") == whole


def test_the_ensemble_reports_progress():
    calls = []
    ensemble(RULES.setup({"players": 2}, 1), count=120, seed=1,
             progress=lambda done, total: calls.append((done, total)))
    assert calls == [(50, 120), (100, 120), (120, 120)]
    with pytest.raises(ValueError):
        ensemble(RULES.setup({"players": 2}, 1), start=5, stop=2)


def test_ensemble_summary_places_this_game_among_the_random_maps():
    state = play_rows(two_player_rows_game(), {1: RED})  # Red 3 districts, Blue 1
    seats_lists = ensemble(state, count=200, seed=4)
    summary = ensemble_summary(state, seats_lists)
    red, blue = summary["parties"]
    assert (red["seats"], blue["seats"]) == (3, 1)
    assert summary["maps"] == 200 and sum(red["histogram"]) == 200
    assert red["at_least_maps"] == sum(1 for s in seats_lists if s[0] >= 3)
    assert blue["at_most_maps"] == sum(1 for s in seats_lists if s[1] <= 1)
    assert red["at_least"] == red["at_least_maps"] / 200


def test_a_solo_game_has_an_ensemble_too():
    state = RULES.setup({"mode": "solo-competitive"}, 2)
    seats_lists = ensemble(state, count=5, seed=0)
    assert all(len(s) == 2 for s in seats_lists)
    assert ensemble_summary(state, seats_lists)["maps"] == 5
