"""The shared lesson measures (games/engine/lesson.py), worked by hand on constructed districts.

The two-party example is the 4 x 4 board of test_mapmaker_lesson.py (four rows of four
counties, each party holding tokens 1..8, 36 votes each):

    row  Red  Blue  total  winner            needed  wasted Red  wasted Blue
    A    11    9     20    Red                10       1           9
    B     6    6     12    Red (tie, chosen)   6       0           6
    C    18    0     18    Red                 9       9           0
    D     1   21     22    Blue               11       1          10
                     72                               11          25

Efficiency gap = (11 - 25) / 72 = -7/36: Red wasted fewer votes, the gap favours Red.
Gallagher: votes 50/50, districts 75/25 -> sqrt((25^2 + 25^2) / 2) = 25.
"""

import json
import math
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.lesson import (
    ensemble_rng,
    lesson_from_districts,
    summarise_ensemble,
)

RED, BLUE, YELLOW = 0, 1, 2
TWO = [{"party": RED, "name": "Red Elephants"}, {"party": BLUE, "name": "Blue Donkeys"}]
THREE = TWO + [{"party": YELLOW, "name": "Yellow Porcupines"}]


def rows_example(tie_winner=RED):
    return [
        {"votes": [11, 9], "winner": RED, "cells": "A"},
        {"votes": [6, 6], "winner": tie_winner, "cells": "B"},
        {"votes": [18, 0], "winner": RED, "cells": "C"},
        {"votes": [1, 21], "winner": BLUE, "cells": "D"},
    ]


def by_party(lesson, key):
    return next(p for p in lesson["parties"] if p["party"] == key)


def test_two_parties_wasted_votes_and_efficiency_gap_by_hand():
    lesson = lesson_from_districts(TWO, rows_example())
    d = lesson["districts"]
    assert [x["needed"] for x in d] == [10, 6, 9, 11]
    assert [x["wasted"] for x in d] == [[1, 9], [0, 6], [9, 0], [1, 10]]
    assert [x["margin"] for x in d] == [2, 0, 18, 20]
    red, blue = by_party(lesson, RED), by_party(lesson, BLUE)
    assert (red["votes"], blue["votes"], lesson["total_votes"]) == (36, 36, 72)
    assert (red["seats"], blue["seats"]) == (3, 1)
    assert (red["wasted"], blue["wasted"]) == (11, 25)
    assert (red["wasted_lost"], red["wasted_surplus"]) == (1, 10)
    assert (blue["wasted_lost"], blue["wasted_surplus"]) == (15, 10)
    gap = lesson["efficiency_gap"]
    assert gap["value"] == pytest.approx(-7 / 36)
    assert gap["favours"] == RED
    assert gap["wasted"] == [11, 25]
    assert gap["seats"] == pytest.approx(4 * 7 / 36)
    # the general identity: gap = (V_red - V_blue) / T - (T_won_by_red - T_won_by_blue) / 2T
    assert gap["value"] == pytest.approx(0 - ((20 + 12 + 18) - 22) / (2 * 72))
    assert (red["vote_share"], red["seat_share"]) == (0.5, 0.75)
    assert lesson["gallagher"] == pytest.approx(25.0)
    assert red["seat_minus_vote"] == pytest.approx(0.25)


def test_with_equal_districts_the_gap_is_twice_the_vote_margin_minus_the_seat_margin():
    # 4 districts of 10 votes: Red wins three 6-4, Blue one 10-0
    districts = [{"votes": [6, 4], "winner": RED}] * 3 + [{"votes": [0, 10], "winner": BLUE}]
    lesson = lesson_from_districts(TWO, districts)
    assert [p["wasted"] for p in lesson["parties"]] == [3, 17]
    assert lesson["efficiency_gap"]["value"] == pytest.approx((3 - 17) / 40)
    vote_share, seat_share = 18 / 40, 3 / 4
    assert lesson["efficiency_gap"]["value"] == pytest.approx(
        2 * (vote_share - 0.5) - (seat_share - 0.5))


def test_needed_is_the_exact_half_with_two_parties():
    lesson = lesson_from_districts(TWO, [{"votes": [10, 9], "winner": RED}])
    row = lesson["districts"][0]
    assert row["needed"] == 9.5
    assert row["wasted"] == [0.5, 9]
    assert lesson["efficiency_gap"]["value"] == pytest.approx((0.5 - 9) / 19)


def test_the_tie_going_the_other_way_changes_every_measure():
    lesson = lesson_from_districts(TWO, rows_example(tie_winner=BLUE))
    assert [by_party(lesson, k)["seats"] for k in (RED, BLUE)] == [2, 2]
    assert lesson["districts"][1]["wasted"] == [6, 0]
    assert lesson["efficiency_gap"]["value"] == pytest.approx((17 - 19) / 72)
    assert lesson["gallagher"] == 0.0


def test_an_undecided_tie_is_shared_when_split():
    districts = rows_example()
    districts[1]["winner"] = None
    lesson = lesson_from_districts(TWO, districts)
    red, blue = by_party(lesson, RED), by_party(lesson, BLUE)
    assert (red["seats"], blue["seats"]) == (2, 1)
    assert (red["tied_open"], blue["tied_open"]) == (1, 1)
    assert (red["seat_share"], blue["seat_share"]) == (0.625, 0.375)
    row = lesson["districts"][1]
    assert (row["winner"], row["leaders"], row["tied"], row["needed"]) == (None, [0, 1], True,
                                                                          None)
    assert row["wasted"] == [0, 0]
    assert (red["wasted"], blue["wasted"]) == (11, 19)
    assert lesson["efficiency_gap"]["value"] == pytest.approx(-8 / 72)
    assert lesson["gallagher"] == pytest.approx(12.5)
    assert lesson["decided_count"] == 3


def test_an_undecided_tie_elects_nobody_when_the_game_says_so():
    districts = rows_example()
    districts[1]["winner"] = None
    lesson = lesson_from_districts(TWO, districts, undecided="nobody")
    red, blue = by_party(lesson, RED), by_party(lesson, BLUE)
    assert lesson["districts"][1]["wasted"] == [6, 6]
    assert (red["seat_share"], blue["seat_share"]) == (pytest.approx(2 / 3), pytest.approx(1 / 3))
    assert 1 in red["narrow_losses"] and 1 in blue["narrow_losses"]  # nobody won: both lost
    assert (red["wasted"], blue["wasted"]) == (17, 25)


def test_a_missing_winner_with_one_leader_is_that_leader():
    lesson = lesson_from_districts(TWO, [{"votes": [3, 5], "winner": None}])
    assert lesson["districts"][0]["winner"] == BLUE
    assert by_party(lesson, BLUE)["seats"] == 1


def test_three_parties_gallagher_and_wasted_votes_by_hand():
    # votes 50 / 30 / 20 %, districts 3 / 2 / 0 of 5 = 60 / 40 / 0 %
    districts = [
        {"votes": [20, 0, 0], "winner": RED},  # needed 1 (runner-up 0, plus one)
        {"votes": [12, 5, 3], "winner": RED},  # needed 6
        {"votes": [10, 5, 5], "winner": RED},  # needed 6
        {"votes": [4, 10, 6], "winner": BLUE},  # needed 7
        {"votes": [4, 10, 6], "winner": BLUE},
    ]
    lesson = lesson_from_districts(THREE, districts)
    assert [d["needed"] for d in lesson["districts"]] == [1, 6, 6, 7, 7]
    assert [d["wasted"] for d in lesson["districts"]] == [
        [19, 0, 0], [6, 5, 3], [4, 5, 5], [4, 3, 6], [4, 3, 6]]
    assert [p["wasted"] for p in lesson["parties"]] == [37, 16, 20]
    assert lesson["efficiency_gap"] is None
    expected = math.sqrt(((50 - 60) ** 2 + (30 - 40) ** 2 + (20 - 0) ** 2) / 2)
    assert lesson["gallagher"] == pytest.approx(expected)
    assert lesson["gallagher"] == pytest.approx(math.sqrt(300))


def test_a_multi_party_tie_won_by_choice_needed_every_vote():
    lesson = lesson_from_districts(THREE, [{"votes": [7, 7, 3], "winner": BLUE}])
    row = lesson["districts"][0]
    assert row["needed"] == 7 and row["wasted"] == [7, 0, 3]
    assert row["narrow_losses"] == [RED]


def test_packed_needs_a_lead_of_a_third_and_spare_votes():
    districts = [
        {"votes": [20, 10], "winner": RED},  # lead 10 of 30: exactly a third -> packed
        {"votes": [19, 10], "winner": RED},  # lead 9 of 29: just under a third
    ]
    lesson = lesson_from_districts(TWO, districts)
    assert [d["packed"] for d in lesson["districts"]] == [RED, None]
    assert by_party(lesson, RED)["packed"] == [0]
    # with three parties a 1-0-0 or 2-1-0 win leads by a third or more but needed every vote
    three = lesson_from_districts(THREE, [{"votes": [2, 1, 0], "winner": RED},
                                          {"votes": [0, 1, 0], "winner": BLUE},
                                          {"votes": [6, 2, 1], "winner": RED}])
    assert [d["packed"] for d in three["districts"]] == [None, None, RED]


def test_cracked_means_at_least_two_narrow_losses():
    districts = [
        {"votes": [11, 9], "winner": RED},  # Blue lost by 2 of 20: exactly a tenth, narrow
        {"votes": [10, 10], "winner": RED},  # Blue lost a tie: narrow
        {"votes": [12, 8], "winner": RED},  # Blue lost by 4 of 20: not narrow
        {"votes": [9, 11], "winner": BLUE},  # Red lost narrowly once: not cracked
        {"votes": [0, 7], "winner": BLUE},  # no Red votes at all: not a narrow loss
    ]
    lesson = lesson_from_districts(TWO, districts)
    red, blue = by_party(lesson, RED), by_party(lesson, BLUE)
    assert blue["narrow_losses"] == [0, 1] and blue["cracked"]
    assert red["narrow_losses"] == [3] and not red["cracked"]
    assert [d["cracked"] for d in lesson["districts"]] == [[BLUE], [BLUE], [], [], []]
    assert [d["narrow_losses"] for d in lesson["districts"]] == [[BLUE], [BLUE], [], [RED], []]
    strict = lesson_from_districts(TWO, districts, narrow_loss=Fraction(1, 20), cracked_min=1)
    assert by_party(strict, BLUE)["narrow_losses"] == [1]
    assert by_party(strict, BLUE)["cracked"]


def test_votes_as_a_dict_and_after_a_json_round_trip():
    as_list = lesson_from_districts(TWO, rows_example())
    as_dict = lesson_from_districts(
        TWO, [{**d, "votes": {RED: d["votes"][0], BLUE: d["votes"][1]}} for d in rows_example()])
    as_json = lesson_from_districts(
        TWO, json.loads(json.dumps([{**d, "votes": {RED: d["votes"][0], BLUE: d["votes"][1]}}
                                    for d in rows_example()])))
    assert as_list == as_dict == as_json
    assert json.loads(json.dumps(as_list)) == as_list


def test_the_words_name_the_gap():
    words = " ".join(lesson_from_districts(TWO, rows_example())["words"])
    assert "The Red Elephants got 50% of the votes and won 75% of the districts (3 of 4)" in words
    assert "Efficiency gap: 19% in favour of the Red Elephants" in words
    assert "Gallagher index: 25.0" in words
    assert "The Blue Donkeys were cracked: they lost 2 districts narrowly." in words
    assert "The Red Elephants were packed in 1 district" in words
    cake = lesson_from_districts(TWO, rows_example(), ("piece", "pieces"))
    assert "of the pieces (3 of 4)" in " ".join(cake["words"])


def test_no_districts_yet():
    lesson = lesson_from_districts(TWO, [])
    assert lesson["gallagher"] is None and lesson["efficiency_gap"] is None
    assert lesson["words"] == ["No districts have been formed yet."]


def test_bad_input_says_what_is_wrong():
    with pytest.raises(ValueError, match="not a listed party"):
        lesson_from_districts(TWO, [{"votes": [1, 2], "winner": 3}])
    with pytest.raises(ValueError, match="undecided"):
        lesson_from_districts(TWO, [], undecided="coin")


district_lists = st.lists(
    st.tuples(st.integers(0, 30), st.integers(0, 30), st.booleans()), min_size=1, max_size=12)


@settings(max_examples=200, deadline=None)
@given(district_lists)
def test_two_party_formulas_hold_for_any_districts(rows):
    """The efficiency gap equals (V_a - V_b)/T - (T_a - T_b)/2T (T_x: votes cast in the
    districts x won), wasted votes add up, and shares sum to one."""
    districts = []
    for red, blue, tie_to_red in rows:
        winner = RED if red > blue or (red == blue and tie_to_red) else BLUE
        districts.append({"votes": [red, blue], "winner": winner})
    lesson = lesson_from_districts(TWO, districts)
    total = sum(r + b for r, b, _ in rows)
    red_won = sum(r + b for (r, b, _), d in zip(rows, districts, strict=True)
                  if d["winner"] == RED)
    blue_won = total - red_won
    red, blue = by_party(lesson, RED), by_party(lesson, BLUE)
    assert sum(p["seat_share"] for p in lesson["parties"]) == pytest.approx(1)
    assert red["wasted"] + blue["wasted"] == pytest.approx(total / 2)  # one half of each
    if total:
        expected = (red["votes"] - blue["votes"]) / total - (red_won - blue_won) / (2 * total)
        assert lesson["efficiency_gap"]["value"] == pytest.approx(expected)
        squares = ((red["vote_share"] - red["seat_share"]) * 100) ** 2 * 2
        assert lesson["gallagher"] == pytest.approx(math.sqrt(squares / 2))


def test_ensemble_summary_percentiles_on_a_constructed_list():
    seats_lists = [[3, 1], [2, 2], [2, 2], [1, 3], [4, 0]]
    summary = summarise_ensemble(TWO, [3, 1], seats_lists)
    red, blue = summary["parties"]
    assert summary["maps"] == 5
    assert red["histogram"] == [0, 1, 2, 1, 1] and blue["histogram"] == [1, 1, 2, 1, 0]
    assert (red["at_least_maps"], red["at_least"]) == (2, 0.4)  # 3 or 4 districts
    assert (red["at_most_maps"], red["at_most"]) == (4, 0.8)
    assert (blue["at_least_maps"], blue["at_most_maps"]) == (4, 2)
    assert (red["mean"], red["min"], red["max"]) == (2.4, 1, 4)
    assert summary["totals"] == {"histogram": [0, 0, 0, 0, 5], "this_game": 4}
    assert json.loads(json.dumps(summary)) == summary


def test_ensemble_summary_when_this_game_is_beyond_every_random_map():
    summary = summarise_ensemble(TWO, [6, 0], [[3, 3], [4, 2]])
    red = summary["parties"][0]
    assert len(red["histogram"]) == 7 and red["at_least"] == 0.0 and red["at_most"] == 1.0
    empty = summarise_ensemble(TWO, [1, 1], [])
    assert empty["parties"][0]["at_least"] is None and empty["maps"] == 0


def test_ensemble_rng_depends_on_seed_and_index_only():
    def draws(rng):
        return [rng.random() for _ in range(3)]
    assert draws(ensemble_rng(7, 3)) == draws(ensemble_rng(7, 3))
    assert draws(ensemble_rng(7, 3)) != draws(ensemble_rng(7, 4))
    assert draws(ensemble_rng(7, 3)) != draws(ensemble_rng(8, 3))
    assert isinstance(ensemble_rng("game-12", 0), random.Random)
