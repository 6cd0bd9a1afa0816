"""First Past the Post's lesson and its ensemble of random constituency maps
(games/engine/fptp_lesson.py).

The rulebook's Alternative Vote example is played to the end through the engine: Blue leads
"Middle" by first preferences, so First Past the Post gives it to Blue, while Alternative Vote
gives it to Red; the lesson shows both counts side by side.  The ensemble's random maps are
checked for what makes a constituency (connected, one nation, exactly one City, a size near
the real one) and counted by the engine's own count.
"""

import copy
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import get_rules
from games.engine.fptp import FPTP
from games.engine.fptp_count import count_constituencies
from games.engine.fptp_data import BUDGET_CARDS, DEFAULT_MAP
from games.engine.fptp_lesson import (
    SIZE_SLACK,
    ensemble,
    ensemble_summary,
    game_seats,
    lesson,
    progress,
    random_division,
    random_map_seats,
)
from games.engine.fptp_map import board_for
from games.engine.lesson import ensemble_rng

R = FPTP
RED, BLUE, PURPLE = 0, 1, 2

# The rulebook's picture: one constituency of 9 hexes, and three one-hex constituencies for
# the regions the news cards name.
MIDDLE = [(0, 0), (1, -1), (0, -1), (-1, 0), (1, 0), (0, 1), (2, 0), (2, -1), (-1, 1)]
AVLAND = {
    "name": "Avland",
    "hexes": [{"q": q, "r": r, "constituency": "Middle",
               "type": {(0, 0): "city", (1, 0): "large_town", (0, 1): "small_town"}.get(
                   (q, r), "rural")} for q, r in MIDDLE] + [
        {"q": -3, "r": 0, "constituency": "London", "type": "city"},
        {"q": 0, "r": -4, "constituency": "Perth", "type": "city"},
        {"q": -6, "r": 3, "constituency": "Derry", "type": "city"},
    ],
    "constituencies": {
        "Middle": {"nation": "England", "colour": "grey"},
        "London": {"nation": "England", "colour": "green"},
        "Perth": {"nation": "Scotland", "colour": "orange"},
        "Derry": {"nation": "Northern Ireland", "colour": "yellow"},
    },
    "gerrymander_hexes": {"green": 2, "orange": 2, "yellow": 2, "grey": 2},
}
# Middle's first preferences: Blue 4 (the City among them), Red 3, Purple 2; Purple's voters
# put Red second.
MIDDLE_STACKS = {
    (0, 0): [BLUE, RED, PURPLE], (1, -1): [BLUE, RED, PURPLE], (0, -1): [BLUE, PURPLE, RED],
    (-1, 0): [BLUE, RED, PURPLE],
    (1, 0): [RED, BLUE, PURPLE], (0, 1): [RED, PURPLE, BLUE], (2, 0): [RED, BLUE, PURPLE],
    (2, -1): [PURPLE, RED, BLUE], (-1, 1): [PURPLE, RED, BLUE],
}


def idx(state, q, r):
    return board_for(state["map"]).index[(q, r)]


def give_hands(state, hands):
    """A copy where seat s holds exactly ``hands[s]``; every budget card stays in the game."""
    s = copy.deepcopy(state)
    wanted = {c for h in hands for c in h}
    rest = [c for c in BUDGET_CARDS if c not in wanted]
    s["hands"] = [list(h) for h in hands]
    s["budget_pile"] = rest
    s["budget_discard"] = []
    return s


def avland_game(variant):
    """Middle, London (Red) and Perth (Blue) won; Purple campaigns for Derry, the last hex."""
    s = R.setup({"players": 3, "news": False, "first_player": PURPLE, "variant": variant,
                 "map": AVLAND}, 3)
    s = give_hands(s, [[1, 2, 3, 4, 5], [6, 7, 8, 9, 10], [46, 47, 48, 49, 50]])
    for (q, r), stack in MIDDLE_STACKS.items():
        s["stacks"][idx(s, q, r)] = list(stack)
    s["stacks"][idx(s, -3, 0)] = [RED, BLUE, PURPLE]
    s["stacks"][idx(s, 0, -4)] = [BLUE, RED, PURPLE]
    s = R.apply(s, PURPLE, {"type": "campaign", "hex": [-6, 3]})
    for seat, card in ((RED, 1), (BLUE, 6), (PURPLE, 50)):
        s = R.apply(s, seat, {"type": "bid", "card": card})
    assert R.is_over(s) and s["end_reason"] == "all_won"
    return s


def random_game(players=3, variant="fptp", seed=1, news=True, stop_after=None):
    s = R.setup({"players": players, "variant": variant, "news": news}, seed)
    rng = random.Random(seed)
    plies = 0
    while not R.is_over(s) and (stop_after is None or plies < stop_after):
        seat = R.to_move(s)[0]
        moves = [m for m in R.legal_moves(s, seat) if m["type"] != "leave"]
        s = R.apply(s, seat, rng.choice(moves))
        plies += 1
    return s


def string_keys_only(data):
    if isinstance(data, dict):
        return all(isinstance(k, str) and string_keys_only(v) for k, v in data.items())
    if isinstance(data, list):
        return all(string_keys_only(v) for v in data)
    return True


# ---------------------------------------------------------------- the lesson

def test_the_rulebooks_alternative_vote_example_counted_both_ways():
    s = avland_game("fptp")
    out = lesson(s)
    assert out["game"] == "fptp" and out["variant"] == "fptp" and out["finished"]
    assert out["unit"] == {"one": "constituency", "many": "constituencies"}
    assert [p["name"] for p in out["parties"]] == ["Red party", "Blue party", "Purple party"]
    middle, london, perth, derry = out["districts"]
    assert [d["name"] for d in out["districts"]] == ["Middle", "London", "Perth", "Derry"]
    # each hex's top counter is a vote; First Past the Post gives Middle to Blue
    assert middle["votes"] == [3, 4, 2] and middle["winner"] == BLUE
    assert middle["winner_other"] == RED  # Alternative Vote: Purple out, its voters go Red
    assert sorted(map(tuple, middle["cells"])) == sorted(MIDDLE)
    assert middle["nation"] == "England" and middle["colour"] == "grey"
    # three parties: Blue needed one vote more than Red, so it wasted none there
    assert middle["needed"] == 4 and middle["wasted"] == [3, 0, 2]
    assert [(d["winner"], d["winner_other"]) for d in (london, perth, derry)] == \
        [(RED, RED), (BLUE, BLUE), (PURPLE, PURPLE)]
    assert [p["seats"] for p in out["parties"]] == [1, 2, 1]
    assert [p["votes"] for p in out["parties"]] == [4, 5, 3]
    assert [p["hexes"] for p in out["parties"]] == [4, 5, 3]
    fptp, av = out["systems"]
    assert (fptp["system"], fptp["played"], fptp["seats"], fptp["winners"]) == \
        ("fptp", True, [1, 2, 1], [BLUE])
    assert (av["system"], av["played"], av["seats"], av["winners"]) == \
        ("av", False, [2, 1, 1], [RED])
    assert fptp["words"] == ("First Past the Post (the rule this game was played by): Red 1, "
                             "Blue 2, Purple 1 constituencies; the Blue party wins.")
    assert av["words"] == ("Alternative Vote would have given: Red 2, Blue 1, Purple 1 "
                           "constituencies; the Red party would win.")
    # the seats are the engine's result
    assert [row["constituencies"] for row in sorted(R.result(s)["ranking"],
                                                     key=lambda r: r["seat"])] == [1, 2, 1]


def test_an_alternative_vote_game_counts_its_seats_by_alternative_vote():
    out = lesson(avland_game("av"))
    assert out["variant"] == "av"
    assert out["districts"][0]["winner"] == RED and out["districts"][0]["winner_other"] == BLUE
    assert [p["seats"] for p in out["parties"]] == [2, 1, 1]
    # the votes are still the top counters: Red won Middle with 3 first preferences of 9
    assert out["districts"][0]["votes"] == [3, 4, 2]
    fptp, av = out["systems"]
    assert not fptp["played"] and av["played"]
    assert fptp["words"].startswith("First Past the Post would have given: ")
    assert av["words"].endswith("; the Red party wins.")


@pytest.mark.parametrize("players, variant, seed", [
    (2, "fptp", 1), (3, "av", 2), (4, "fptp", 3), (5, "av", 4), (3, "fptp", 5)])
def test_a_whole_games_lesson_is_the_engines_count(players, variant, seed):
    s = random_game(players, variant, seed)
    out = lesson(s)
    other = "av" if variant == "fptp" else "fptp"
    assert [p["seats"] for p in out["parties"]] == s["final"][variant]["per_seat"]
    assert game_seats(s) == s["final"][variant]["per_seat"]
    by_system = {x["system"]: x for x in out["systems"]}
    assert by_system[variant]["seats"] == s["final"][variant]["per_seat"]
    assert by_system[other]["seats"] == s["final"][other]["per_seat"]
    assert by_system[variant]["winners"] == R.result(s)["winners"]
    assert by_system[other]["winners"] == R.result(s)["other_system"]["winners"]
    for d, main, alt in zip(out["districts"], s["final"][variant]["constituencies"],
                            s["final"][other]["constituencies"], strict=True):
        assert (d["winner"], d["winner_other"], d["votes"]) == \
            (main["winner"], alt["winner"], main["votes"])
    # every hex is in exactly one constituency of the lesson
    cells = [tuple(c) for d in out["districts"] for c in d["cells"]]
    assert len(cells) == len(set(cells)) == len(s["map"]["hexes"])
    assert out["total_votes"] == sum(1 for st_ in s["stacks"] if st_)
    assert out["hexes_left"] == 0 or s["end_reason"] == "agreed"
    # what travels over sockets: JSON, and no int keys (Redis' msgpack refuses them)
    assert json.loads(json.dumps(out)) == out
    assert string_keys_only(out)
    assert out["colors"] == {str(k): v for k, v in out["colors"].items()}
    assert sorted(out["colors"]) == [str(p) for p in range(players)]


def test_a_gerrymandered_hex_counts_in_its_new_constituency():
    s = avland_game("fptp")
    s = copy.deepcopy(s)
    board = board_for(s["map"])
    # move a Purple hex of Middle into London (as a gerrymander would); count it live
    i = idx(s, -1, 1)
    s["const_of"][i] = board.const_index["London"]
    s["over"] = False
    out = lesson(s)
    middle, london = out["districts"][:2]
    assert [-1, 1] in london["cells"] and [-1, 1] not in middle["cells"]
    assert london["votes"] == [1, 0, 1]
    # Red holds London's City: the tie is Red's
    assert london["winner"] == RED
    assert middle["votes"] == [3, 4, 1]


def test_during_a_game_a_tie_only_a_draw_off_could_settle_elects_nobody_yet():
    s = R.setup({"players": 3, "news": False, "first_player": 0, "map": AVLAND}, 3)
    s["stacks"][idx(s, 2, 0)] = [RED]  # two Rural hexes of Middle, one each
    s["stacks"][idx(s, 2, -1)] = [BLUE]
    out = lesson(s)
    middle = out["districts"][0]
    assert middle["winner"] is None and middle["tied"] and middle["votes"] == [1, 1, 0]
    assert not out["finished"] and out["hexes_left"] == len(AVLAND["hexes"]) - 2
    assert all(d["winner"] is None for d in out["districts"])
    assert [p["seats"] for p in out["parties"]] == [0, 0, 0]
    assert out["systems"][0]["words"].endswith("nobody has won a constituency yet.")
    # nothing was drawn from the pile to say so
    assert s["budget_pile"] == R.setup({"players": 3, "news": False, "first_player": 0,
                                        "map": AVLAND}, 3)["budget_pile"]


def test_a_player_who_left_keeps_its_votes_and_seats():
    s = R.setup({"players": 3, "news": False, "first_player": 0, "map": AVLAND}, 5)
    s["stacks"][idx(s, -3, 0)] = [PURPLE]
    s = R.apply(s, PURPLE, {"type": "leave"})
    out = lesson(s)
    assert out["parties"][PURPLE]["votes"] == 1
    assert out["districts"][1]["winner"] == PURPLE  # London


def test_progress_is_the_share_of_hexes_won():
    s = R.setup({"players": 2, "news": False}, 9)
    assert progress(s) == 0.0 and R.progress(s) == 0.0
    total = len(s["map"]["hexes"])
    seen = []
    while not R.is_over(s):
        seat = R.to_move(s)[0]
        moves = [m for m in R.legal_moves(s, seat) if m["type"] != "leave"]
        s = R.apply(s, seat, moves[0])
        won = sum(1 for x in s["stacks"] if x)
        assert R.progress(s) == (1.0 if R.is_over(s) else won / total)
        seen.append(R.progress(s))
    assert seen == sorted(seen) and seen[-1] == 1.0
    assert len(set(seen)) > 20


def test_the_rules_object_offers_the_lesson():
    rules = get_rules("fptp")
    s = avland_game("fptp")
    assert rules.ensemble_maps == 1000
    assert rules.lesson(s) == lesson(s)
    seats = rules.ensemble(s, seed=4, start=0, stop=10)
    assert seats == ensemble(s, seed=4, start=0, stop=10)
    assert rules.ensemble_summary(s, seats) == ensemble_summary(s, seats)


# ---------------------------------------------------------------- the ensemble

def regions(const_of, k):
    return [i for i, c in enumerate(const_of) if c == k]


def connected(board, hexes):
    hexes = set(hexes)
    start = next(iter(hexes))
    seen, todo = {start}, [start]
    for v in todo:
        for u in board.nbrs[v]:
            if u in hexes and u not in seen:
                seen.add(u)
                todo.append(u)
    return len(seen) == len(hexes)


def check_division(state, const_of):
    board = board_for(state["map"])
    assert len(const_of) == board.size
    assert set(const_of) == set(range(len(board.const_names)))
    finals = [len(regions(state["const_of"], k)) for k in range(len(board.const_names))]
    for k in range(len(board.const_names)):
        hexes = regions(const_of, k)
        assert connected(board, hexes), f"constituency {k} is in pieces"
        assert [i for i in hexes if board.types[i] == "city"] == [board.city[k]]
        assert {board.nation[i] for i in hexes} == {board.const_nation[k]}
        assert abs(len(hexes) - finals[k]) <= SIZE_SLACK


def test_random_maps_are_constituencies_of_the_real_sizes():
    s = random_game(3, "fptp", 7)
    seen = set()
    for i in range(200):
        const_of = random_division(s, ensemble_rng(3, i))
        check_division(s, const_of)
        seen.add(tuple(const_of))
    assert len(seen) > 190  # they really are different maps


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**9))
def test_any_random_map_is_a_legal_division(seed):
    s = R.setup({"players": 2, "news": False}, 1)
    check_division(s, random_division(s, random.Random(seed)))


def test_random_maps_on_a_gerrymandered_map_follow_the_final_sizes():
    s = copy.deepcopy(random_game(2, "fptp", 2))
    board = board_for(s["map"])
    # Leeds took a Rural hex of Newcastle: Leeds' random constituencies are one bigger
    i = board.index[(3, 4)]
    s["const_of"][i] = board.const_index["Leeds"]
    for k in range(50):
        check_division(s, random_division(s, ensemble_rng(1, k)))


def test_each_random_map_is_counted_by_the_engine_with_the_games_counters():
    for variant in ("fptp", "av"):
        s = random_game(3, variant, 11)
        for i in range(30):
            rng = ensemble_rng(5, i)
            const_of = random_division(s, rng)
            rest = random.Random(0)
            rest.setstate(rng.getstate())
            pile = list(BUDGET_CARDS)
            rest.shuffle(pile)
            scored = {**s, "const_of": const_of, "budget_pile": pile, "budget_discard": [],
                      "shuffle_key": f"{rest.getrandbits(64):016x}"}
            expected = count_constituencies(scored, variant)["per_seat"]
            assert random_map_seats(s, ensemble_rng(5, i)) == expected
            assert sum(expected) == len(board_for(s["map"]).const_names)


def test_the_ensemble_is_the_same_in_chunks_and_does_not_touch_the_state():
    s = random_game(4, "av", 6)
    before = copy.deepcopy(s)
    whole = ensemble(s, count=60, seed=9)
    assert whole == ensemble(s, seed=9, stop=25) + ensemble(s, seed=9, start=25, stop=60)
    assert whole != ensemble(s, count=60, seed=10)
    assert s == before
    assert all(len(seats) == 4 for seats in whole)
    ticks = []
    ensemble(s, count=100, seed=9, progress=lambda done, total: ticks.append((done, total)))
    assert ticks == [(50, 100), (100, 100)]
    with pytest.raises(ValueError):
        ensemble(s, seed=1, start=5, stop=2)


def test_the_maps_do_not_depend_on_the_counters_nor_on_the_secret_pile():
    a = random_game(2, "fptp", 3)
    b = copy.deepcopy(a)
    b["stacks"] = [[1 - st_[0]] if st_ else [] for st_ in a["stacks"]]  # every counter swapped
    b["budget_pile"] = list(reversed(a["budget_pile"]))
    b["shuffle_key"] = "0" * 16
    for i in range(20):
        assert random_division(a, ensemble_rng(2, i)) == random_division(b, ensemble_rng(2, i))
    # and what each party wins swaps with the counters
    seats_a = ensemble(a, count=20, seed=2)
    seats_b = ensemble(b, count=20, seed=2)
    assert seats_b == [[y, x] for x, y in seats_a]


def test_the_ensemble_summary_places_this_game_among_the_random_maps():
    s = random_game(3, "fptp", 8)
    seats = ensemble(s, count=200, seed=1)
    summary = ensemble_summary(s, seats)
    assert summary["maps"] == 200
    mine = s["final"]["fptp"]["per_seat"]
    for p, row in enumerate(summary["parties"]):
        assert row["party"] == p and row["seats"] == mine[p]
        assert sum(row["histogram"]) == 200
        assert row["at_least_maps"] == sum(1 for x in seats if x[p] >= mine[p])
    assert summary["totals"]["this_game"] == sum(mine)
    assert json.loads(json.dumps(summary)) == summary and string_keys_only(summary)


def test_the_default_map_makes_a_full_ensemble():
    """What the end screen draws: 1,000 maps of the United Kingdom map."""
    s = random_game(4, "fptp", 12)
    assert s["map"]["name"] == DEFAULT_MAP["name"]
    seats = ensemble(s, count=1000, seed=7)
    assert len(seats) == 1000
    assert all(sum(x) == 11 for x in seats)  # nobody ties unresolved on these counters
    assert len({tuple(x) for x in seats}) > 5
