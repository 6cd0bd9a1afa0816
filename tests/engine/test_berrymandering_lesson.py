"""Berrymandering's lesson and its ensemble of random cuts (games/engine/berrymandering_lesson.py).

The lessons are worked by hand on small cakes that come as map data, played through the real
engine (cuts and choices with ``apply``); the tiles and the face-down pile are arranged first,
as a test's rigging, keeping the game's tile mix.
"""

import copy
import json
import random
from collections import Counter

import pytest

from games.engine import get_rules
from games.engine.berrymandering import group_berries
from games.engine.berrymandering_lesson import (
    ensemble,
    ensemble_summary,
    game_seats,
    lesson,
    random_cut,
    random_cut_seats,
)
from games.engine.lesson import ensemble_rng
from games.engine.tetromino import connected, shape_of

RULES = get_rules("berrymandering")
S, B = 0, 1

# A 4 x 3 cake: three rows of 4 cells.  Per team three single, one double and one quadruple
# berry tile, and 2 Random tiles.
SMALL = {"name": "rows", "cells": [[x, y] for y in range(3) for x in range(4)],
         "tiles": {"random": 2, "berries": [[3, 1, 0, 1], [3, 1, 0, 1]]},
         "mystery": [[1, 1, 0, 0], [1, 1, 0, 0]]}
LAYOUT = [  # row by row, left to right: [team, count] or None (Random)
    [[S, 4], [S, 1], [B, 1], [B, 1]],   # Strawberries 5, Blueberries 2
    [[B, 2], [S, 1], None, [B, 1]],     # Random + Blueberries 3 against Strawberries 1
    [[S, 2], [S, 1], None, [B, 4]],     # Random + Strawberries 3 against Blueberries 4
]


def small_game(players=2, pile=((B, 2), (S, 1), (S, 2), (B, 1)), **extra):
    options = {"mode": "solo"} if players == 1 else {"players": players}
    state = RULES.setup({**options, "map": SMALL, "team_chooser": 0, "team": S,
                         "first_cutter": 0, **extra}, 3)
    tiles = [tile for row in LAYOUT for tile in row]
    assert Counter(map(json.dumps, tiles)) == Counter(map(json.dumps, state["tiles"]))
    state["tiles"] = copy.deepcopy(tiles)
    if state["pile"]:
        assert Counter(map(tuple, state["pile"])) == Counter(pile)
        state["pile"] = [list(t) for t in pile]
    return state


def row(y, width=4):
    return [[x, y] for x in range(width)]


def rows_cut(ys):
    return {"type": "cut", "groups": [row(y) for y in ys]}


def play(state, moves):
    for move in moves:
        state = RULES.apply(state, RULES.to_move(state)[0], move)
    return state


def eat_rows(state, order):
    """Cut the remaining rows as rows and eat them in ``order`` (one round each)."""
    left = [0, 1, 2]
    for y in order:
        state = play(state, [rows_cut(left), {"type": "choose", "cell": [0, y]}])
        left.remove(y)
    return state


def test_a_two_player_game_worked_by_hand():
    """Row 1 first (its Random tile shows a double Blueberry: 5 to 1), then row 2 (a single
    Strawberry: 4 to 4, no candle), then row 0 (5 to 2)."""
    state = eat_rows(small_game(), [1, 2, 0])
    assert state["phase"] == "over" and state["candles"] == [1, 1]
    out = lesson(state)
    assert out["game"] == "berrymandering" and out["finished"] and out["cells_left"] == 0
    assert out["unit"] == {"one": "group", "many": "groups"}
    assert out["undecided_rule"] == "nobody"
    assert [d["votes"] for d in out["districts"]] == [[1, 5], [4, 4], [5, 2]]
    assert [d["winner"] for d in out["districts"]] == [B, None, S]
    assert [d["cells"] for d in out["districts"]] == [row(1), row(2), row(0)]
    assert [d["round"] for d in out["districts"]] == [1, 2, 3]
    assert [d["chooser"] for d in out["districts"]] == [1, 0, 1]
    assert [d["mystery"] for d in out["districts"]] == [
        [{"team": B, "count": 2}], [{"team": S, "count": 1}], []]
    strawberries, blueberries = out["parties"]
    assert (strawberries["name"], blueberries["name"]) == ("Strawberries", "Blueberries")
    assert (strawberries["votes"], blueberries["votes"]) == (10, 11)
    assert (strawberries["seats"], blueberries["seats"]) == (1, 1)
    assert (strawberries["candles"], blueberries["candles"]) == (1, 1)
    assert (strawberries["seat"], blueberries["seat"]) == (0, 1)
    # the tie elected nobody: the shares are over the 2 groups that did
    assert out["decided_count"] == 2 and strawberries["seat_share"] == 0.5
    # wasted: row 1: S lost 1, B needed 3 of 6 (2 spare); row 2: all 8 wasted (a tie);
    # row 0: B lost 2, S needed 3.5 of 7 (1.5 spare)
    assert (strawberries["wasted_lost"], strawberries["wasted_surplus"]) == (5, 1.5)
    assert (blueberries["wasted_lost"], blueberries["wasted_surplus"]) == (6, 2)
    gap = out["efficiency_gap"]
    assert gap["wasted"] == [6.5, 8] and gap["value"] == pytest.approx(-1.5 / 21)
    assert gap["favours"] == S
    # both winners had a lead of at least a third of the berries, with berries to spare
    assert [d["packed"] for d in out["districts"]] == [B, None, S]
    # the tie is the narrowest loss for both, but one narrow loss is no cracking
    assert out["districts"][1]["narrow_losses"] == [S, B]
    assert not strawberries["cracked"] and not blueberries["cracked"]
    assert out["colors"]["0"] != out["colors"]["1"]
    assert any("Strawberries" in w and "groups" in w for w in out["words"])
    assert json.loads(json.dumps(out)) == out  # stored as JSON and sent as msgpack unchanged


def test_a_tie_everywhere_elects_nobody():
    """Cut into two 2 x 2 squares of a 4 x 2 cake: 2 to 2 and 5 to 5, no candle at all."""
    data = {"name": "squares", "cells": [[x, y] for y in range(2) for x in range(4)],
            "tiles": {"random": 0, "berries": [[2, 1, 1, 0], [2, 1, 1, 0]]},
            "mystery": [[0, 0, 0, 0], [0, 0, 0, 0]]}
    state = RULES.setup({"players": 2, "map": data, "first_cutter": 0, "team_chooser": 0,
                         "team": S}, 1)
    state["tiles"] = [[S, 1], [S, 1], [S, 2], [S, 3], [B, 1], [B, 1], [B, 2], [B, 3]]
    left = [[0, 0], [1, 0], [0, 1], [1, 1]]
    right = [[2, 0], [3, 0], [2, 1], [3, 1]]
    state = play(state, [{"type": "cut", "groups": [left, right]},
                         {"type": "choose", "cell": [0, 0]},
                         {"type": "cut", "groups": [right]},
                         {"type": "choose", "cell": [3, 1]}])
    assert state["phase"] == "over" and state["candles"] == [0, 0]
    out = lesson(state)
    assert out["decided_count"] == 0
    assert [p["seats"] for p in out["parties"]] == [0, 0]
    assert [p["wasted"] for p in out["parties"]] == [7, 7]  # every berry, as no one won
    assert [p["seat_share"] for p in out["parties"]] == [0, 0]
    assert all(p["cracked"] for p in out["parties"])  # two lost ties each
    assert out["efficiency_gap"]["favours"] is None


def test_the_lesson_of_an_unfinished_game_covers_the_groups_eaten_so_far():
    state = eat_rows(small_game(), [1])
    out = lesson(state)
    assert not out["finished"] and out["cells_left"] == 8
    assert out["district_count"] == 1 and out["parties"][1]["seats"] == 1
    empty = lesson(small_game())
    assert empty["district_count"] == 0 and empty["words"] == ["No groups have been formed yet."]


def test_three_players_the_keeper_is_no_party():
    state = small_game(players=3)
    hand = state["hand"]
    # row 1 first: the keeper plays the double Blueberry on its Random tile
    state = play(state, [rows_cut([0, 1, 2]), {"type": "choose", "cell": [0, 1]},
                         {"type": "mystery", "tile": hand.index([B, 2])}])
    state = play(state, [rows_cut([0, 2]), {"type": "choose", "cell": [0, 2]},
                         {"type": "mystery", "tile": hand.index([S, 1])}])
    state = play(state, [rows_cut([0]), {"type": "choose", "cell": [0, 0]}])
    assert state["phase"] == "over" and state["team_of_seat"] == [S, B, None]
    out = lesson(state)
    assert [p["party"] for p in out["parties"]] == [S, B]
    assert [p["seat"] for p in out["parties"]] == [0, 1]
    assert [d["votes"] for d in out["districts"]] == [[1, 5], [4, 4], [5, 2]]


def test_solo_counts_the_other_teams_majorities_as_its_groups():
    """Solo: only the player's team gets candles, but the lesson counts the group where the
    Blueberries had more berries as theirs, so the seats add up."""
    state = small_game(players=1, team=S)
    state = play(state, [rows_cut([0, 1, 2]), {"type": "choose", "cell": [0, 1]},
                         {"type": "choose", "cell": [0, 2]}, {"type": "choose", "cell": [0, 0]}])
    assert state["phase"] == "over" and state["candles"] == [1, 0]
    out = lesson(state)
    assert [p["seats"] for p in out["parties"]] == [1, 1]
    assert [p["candles"] for p in out["parties"]] == [1, 0]
    assert [p["seat"] for p in out["parties"]] == [0, None]
    assert game_seats(state) == [1, 1]


def test_every_finished_game_counts_every_berry_and_mystery_tile():
    for seed in range(6):
        for options in ({"players": 2}, {"players": 3}, {"mode": "solo"},
                        {"players": 2, "variant": "strategy"}):
            state = RULES.setup(options, seed)
            rng = random.Random(seed)
            while not RULES.is_over(state):
                seat = RULES.to_move(state)[0]
                state = RULES.apply(state, seat, rng.choice(RULES.legal_moves(state, seat)))
            out = lesson(state)
            assert out["district_count"] == 9 and out["finished"]
            # 31 berries per team on the cake, and the 6 Mystery tiles revealed (4 berries each)
            assert [p["votes"] for p in out["parties"]] == [35, 35]
            won = [p["seats"] for p in out["parties"]]
            ties = sum(1 for d in out["districts"] if d["winner"] is None)
            assert sum(won) + ties == 9
            if "mode" not in options:
                assert won == state["candles"]


# ---------------------------------------------------------------------- the ensemble

def all_cuts(cells):
    """Every complete cut of ``cells`` into tetrominoes (brute force, small cakes only)."""
    cells = sorted(map(tuple, cells), key=lambda c: (c[1], c[0]))
    out = []

    def extend(left, groups):
        if not left:
            out.append(sorted(groups))
            return
        first = left[0]
        rest = set(left[1:])
        for a in rest:
            for b in rest:
                for c in rest:
                    group = {first, a, b, c}
                    if len(group) == 4 and a < b < c and shape_of(group):
                        extend([x for x in left if x not in group],
                               groups + [tuple(sorted(group))])

    extend(cells, [])
    return out


def test_random_cuts_are_complete_cuts_scored_with_the_final_tiles():
    state = eat_rows(small_game(), [1, 2, 0])
    every = {tuple(c) for c in all_cuts(SMALL["cells"])}
    assert len(every) == 23
    seen = set()
    for i in range(600):
        drawn = random_cut(state, ensemble_rng(9, i))
        assert random_cut_seats(state, ensemble_rng(9, i)) == drawn["seats"]
        groups = tuple(sorted(tuple(sorted(map(tuple, g["cells"]))) for g in drawn["groups"]))
        assert groups in every
        seen.add(groups)
        for g in drawn["groups"]:
            assert len(g["cells"]) == 4 and connected(g["cells"])
            idxs = [SMALL["cells"].index(c) for c in g["cells"]]
            assert g["berries"] == group_berries(state, idxs)
        assert drawn["seats"] == [sum(g["winner"] == t for g in drawn["groups"]) for t in (S, B)]
    assert seen == every  # every cut of this small cake comes up


def test_the_ensemble_counts_each_cuts_majorities():
    """Scored with the final tiles of the worked game (Random tiles: a double Blueberry on
    (2,1), a single Strawberry on (2,2)); the three rows by hand: 5-2, 1-5 and 4-4."""
    state = eat_rows(small_game(), [1, 2, 0])

    def berries(cut):
        return [group_berries(state, [SMALL["cells"].index(list(c)) for c in g]) for g in cut]

    rows = sorted(tuple(sorted((x, y) for x in range(4))) for y in range(3))
    assert berries(rows) == [[5, 2], [1, 5], [4, 4]]
    seats_of_cut = {}
    for cut in all_cuts(SMALL["cells"]):
        counted = berries(cut)
        assert sum(b[0] for b in counted) == 10 and sum(b[1] for b in counted) == 11
        seats_of_cut[tuple(cut)] = (sum(b[0] > b[1] for b in counted),
                                    sum(b[1] > b[0] for b in counted))
    assert seats_of_cut[tuple(rows)] == (1, 1)
    drawn = Counter(tuple(seats) for seats in ensemble(state, seed=4, stop=600))
    assert set(drawn) == set(seats_of_cut.values())


def test_a_random_tile_never_revealed_counts_as_no_berries():
    state = small_game()  # nothing eaten: both Random tiles are face down
    for i in range(20):
        for g in random_cut(state, ensemble_rng(1, i))["groups"]:
            known = [0, 0]
            for x, y in g["cells"]:
                tile = LAYOUT[y][x]
                if tile is not None:
                    known[tile[0]] += tile[1]
            assert g["berries"] == known


def test_the_ensemble_is_deterministic_per_seed_and_per_map():
    state = RULES.setup({"players": 2}, 11)
    rng = random.Random(2)
    while not RULES.is_over(state):
        seat = RULES.to_move(state)[0]
        state = RULES.apply(state, seat, rng.choice(RULES.legal_moves(state, seat)))
    whole = ensemble(state, seed=5)
    assert len(whole) == 1000 and all(len(s) == 2 and sum(s) <= 9 for s in whole)
    assert ensemble(state, seed=5, stop=300) + ensemble(state, seed=5, start=300, stop=1000) \
        == whole
    assert RULES.ensemble(state, seed=5, start=700, stop=750) == whole[700:750]
    assert ensemble(state, seed=5, start=3, stop=4) == [random_cut_seats(state,
                                                                         ensemble_rng(5, 3))]
    assert ensemble(state, seed=6, stop=100) != whole[:100]
    assert len(set(map(tuple, whole))) > 3  # the cuts really differ
    # the same cake and tiles, whatever was cut and eaten: only the final tiles count
    assert ensemble(copy.deepcopy(state), seed=5, stop=50) == whole[:50]
    calls = []
    ensemble(state, seed=5, stop=120, progress=lambda done, total: calls.append((done, total)))
    assert calls == [(50, 120), (100, 120), (120, 120)]
    with pytest.raises(ValueError):
        ensemble(state, seed=5, start=10, stop=5)


def test_the_summary_places_this_game_among_the_random_cuts():
    state = eat_rows(small_game(), [1, 2, 0])
    lists = [[1, 1], [2, 0], [0, 2], [1, 1]]
    summary = ensemble_summary(state, lists)
    assert RULES.ensemble_summary(state, lists) == summary
    assert summary["maps"] == 4
    strawberries = summary["parties"][0]
    assert strawberries["name"] == "Strawberries" and strawberries["seats"] == 1
    assert strawberries["histogram"] == [1, 2, 1]
    assert strawberries["at_least_maps"] == 3 and strawberries["at_most_maps"] == 3
    assert RULES.ensemble_maps == 1000
    assert RULES.lesson(state) == lesson(state)


def test_a_state_map_with_islands_has_an_ensemble():
    data = {"name": "islands", "cells": [[x, y] for y in range(2) for x in range(4)]
            + [[x, y] for y in range(4, 6) for x in range(2)],
            "tiles": {"random": 0, "berries": [[3, 1, 1, 1], [3, 1, 1, 1]]},
            "mystery": [[0, 0, 0, 0], [0, 0, 0, 0]]}
    state = RULES.setup({"players": 2, "map": data}, 2)
    for i in range(30):
        drawn = random_cut(state, ensemble_rng(0, i))
        assert len(drawn["groups"]) == 3
        assert sorted(c for g in drawn["groups"] for c in g["cells"]) == sorted(data["cells"])


# ---------------------------------------------------------------------- progress

def test_progress_is_the_share_of_the_cake_eaten():
    state = small_game()
    assert RULES.progress(state) == 0
    state = play(state, [rows_cut([0, 1, 2])])
    assert RULES.progress(state) == 0  # a cut eats nothing
    state = play(state, [{"type": "choose", "cell": [0, 1]}])
    assert RULES.progress(state) == pytest.approx(1 / 3)  # round 1 of 3 played
    state = eat_rows(small_game(), [1, 2, 0])
    assert RULES.progress(state) == 1.0
    solo = play(small_game(players=1), [rows_cut([0, 1, 2]), {"type": "choose", "cell": [0, 0]}])
    assert RULES.progress(solo) == pytest.approx(1 / 3)  # one choice of the solo round
