"""Mapmaker rules: the rulebook's examples and the rulings, as concrete positions."""

import json
from collections import Counter

import pytest
from mapmaker_helpers import (
    RULES,
    board_of,
    border,
    boundary,
    check_final_position,
    district_of,
    first_seat_for,
    play,
    set_tokens,
)

from games.engine import IllegalMove, get_rules
from games.engine.mapmaker import DIRECTIONS
from games.engine.mapmaker_data import BOARDS, PARTY_NAMES

RED, BLUE, YELLOW, GREEN = 0, 1, 2, 3

# A 2 x 2 rhombus and a 3-county triangle at the edge of the 3-player board.
RHOMBUS = [(-3, 3), (-2, 3), (-3, 4), (-2, 4)]
TRIANGLE = [(-3, 4), (-2, 4), (-2, 3)]
# 2 x 4 parallelogram on the 4-player board (splits into two rows or two halves).
PARALLELOGRAM = [(q, r) for q in range(4) for r in (-3, -2)]
HALF_CUT = [((1, -3), (2, -3)), ((1, -2), (2, -2)), ((2, -3), (1, -2))]
# 8 counties in the middle of the board that one dangling border makes unsplittable.
EIGHT = [(-1, 0), (-1, 1), (0, -2), (0, -1), (0, 0), (1, -1), (1, 0), (2, 0)]
DANGLING = ((0, -1), (-1, 0))
FLOWER = [(0, 0)] + [(dq, dr) for dq, dr in DIRECTIONS]


def new(players=3, first_seat=0, seed=1, **extra):
    return RULES.setup({"players": players, "first_seat": first_seat, **extra}, seed)


def dist(q, r):
    return (abs(q) + abs(r) + abs(q + r)) // 2


# ---------------------------------------------------------------- contract basics

def test_registry_and_error_type():
    from games.engine import RULES as registry

    assert get_rules("mapmaker") is registry["mapmaker"]
    err = IllegalMove("too_small", "msg")
    assert isinstance(err, Exception) and err.code == "too_small" and err.message == "msg"
    with pytest.raises(KeyError):
        get_rules("chess")


@pytest.mark.parametrize("options", [
    None, [], {"players": 1}, {"players": 5}, {"players": "3"}, {"players": True},
    {"mode": "solo-hard"}, {"mode": "solo-easy", "party": 2}, {"players": 2, "first_seat": 2},
    {"players": 2, "board": "moon"}, {"mode": "solo-easy", "players": 2},
])
def test_bad_options_raise_illegal_move(options):
    with pytest.raises(IllegalMove) as err:
        RULES.setup(options, 1)
    assert err.value.code == "bad_options"


# ---------------------------------------------------------------- board, tokens, setup

@pytest.mark.parametrize("players,size", [(2, 37), (3, 55), (4, 73)])
def test_board_sizes(players, size):
    state = RULES.setup({"players": players}, 7)
    view = RULES.view(state, None)
    assert len(view["counties"]) == size
    assert len({(c["q"], c["r"]) for c in view["counties"]}) == size


def test_board_tiers_follow_the_rulings():
    counties = BOARDS["standard"]["counties"]
    tier = {(q, r): m for q, r, m in counties}
    assert {c for c, m in tier.items() if m == 1} == {
        (q, r) for q in range(-3, 4) for r in range(-3, 4) if dist(q, r) <= 3}
    ring4 = {c for c in tier if dist(*c) == 4}
    corners4 = {(4 * dq, 4 * dr) for dq, dr in DIRECTIONS}
    assert corners4 <= ring4 and len(ring4) == 24
    assert all(tier[c] == 3 for c in ring4 - corners4)
    assert all(tier[c] == 4 for c in corners4)
    ring5 = {c for c in tier if dist(*c) == 5}
    assert len(ring5) == 12 and all(tier[c] == 4 for c in ring5)
    # the two middle counties of each side of ring 5 lie 2 and 3 steps from its corners
    assert all(sorted(map(abs, (q, r, q + r))) == [2, 3, 5] for q, r in ring5)
    assert len(counties) == 73 and max(dist(q, r) for q, r, _ in counties) == 5


@pytest.mark.parametrize("options,parties", [
    ({"players": 2}, [0, 1]), ({"players": 3}, [0, 1, 2]), ({"players": 4}, [0, 1, 2, 3]),
    ({"mode": "solo-easy"}, [0, 1]), ({"mode": "solo-competitive", "party": 0}, [0, 1]),
])
def test_token_counts_per_party(options, parties):
    view = RULES.view(RULES.setup(options, 3), None)
    tokens = Counter((c["party"], c["value"]) for c in view["counties"])
    expected = Counter()
    for p in parties:
        expected.update({(p, 1): 1, (p, 10): 1, **{(p, v): 2 for v in range(2, 10)}})
    expected[(None, 0)] = 1
    assert tokens == expected
    for p in parties:
        assert sum(c["value"] for c in view["counties"] if c["party"] == p) == 99
    swing = [c for c in view["counties"] if c["swing"]]
    assert len(swing) == len(parties) + 1 and all(c["value"] in (0, 1) for c in swing)


def test_setup_is_random_but_deterministic():
    a = RULES.setup({"players": 4}, "seed-a")
    assert a == RULES.setup({"players": 4}, "seed-a")
    assert a != RULES.setup({"players": 4}, "seed-b")
    firsts = {RULES.setup({"players": 4}, s)["first_seat"] for s in range(40)}
    assert firsts == {0, 1, 2, 3}
    assert RULES.setup({"players": 3, "first_seat": 2}, 5)["seat"] == 2
    assert "seed" not in json.dumps(RULES.view(a, 0))


def test_solo_setup():
    state = RULES.setup({"mode": "solo-easy"}, 4)
    view = RULES.view(state, 0)
    assert view["party_of_seat"] == [1] and view["players"] == 1 and view["parties"] == [0, 1]
    assert len(view["counties"]) == 37 and RULES.to_move(state) == [0]
    assert view["score"] == 0 and view["borders_used"] == 0 and view["can_undo"] is False
    assert RULES.view(RULES.setup({"mode": "solo-easy", "party": 0}, 4), 0)["party_of_seat"] == [0]


# ---------------------------------------------------------------- turns

@pytest.mark.parametrize("players", [2, 3, 4])
def test_turn_quotas_1_2_3_then_4(players):
    state = RULES.setup({"players": players, "first_seat": 1}, 11)
    seats, quotas = [], []
    for _ in range(7):
        view = RULES.view(state, None)
        seat, quota = view["turn"]["seat"], view["turn"]["quota"]
        assert view["turn"]["borders_left"] == quota
        seats.append(seat)
        quotas.append(quota)
        for k in range(quota):
            assert RULES.to_move(state) == [seat]
            move = RULES.legal_moves(state, seat)[0]
            for other in range(players):
                if other != seat:
                    assert RULES.legal_moves(state, other) == []
                    with pytest.raises(IllegalMove) as err:
                        RULES.apply(state, other, move)
                    assert err.value.code == "not_your_turn"
            state = RULES.apply(state, seat, move)
            if k < quota - 1:
                assert RULES.view(state, None)["turn"]["borders_left"] == quota - k - 1
    assert quotas == [1, 2, 3, 4, 4, 4, 4]
    assert seats == [(1 + k) % players for k in range(7)]


# ---------------------------------------------------------------- districts (rulebook pages 3-5)

def test_smallest_district_of_four():
    state = new(3)
    state = play(state, boundary(state, RHOMBUS))
    d = district_of(state, RHOMBUS[0])
    assert d is not None and all(district_of(state, c) == d for c in RHOMBUS)
    view = RULES.view(state, None)
    assert sorted(map(tuple, view["districts"][d]["counties"])) == sorted(RHOMBUS)
    assert view["counties_left"] == 55 - 4


def test_eight_counties_that_split_four_and_four_are_not_a_district():
    state = new(4)
    state = play(state, boundary(state, PARALLELOGRAM))
    assert all(district_of(state, c) is None for c in PARALLELOGRAM)
    assert RULES.view(state, None)["districts"] == []


def test_one_border_completes_two_districts_at_once():
    state = new(4)
    state = play(state, boundary(state, PARALLELOGRAM) + HALF_CUT[:2])
    assert state["districts"] == []
    state = play(state, HALF_CUT[2:])
    view = RULES.view(state, None)
    assert len(view["districts"]) == 2
    halves = sorted(sorted(map(tuple, d["counties"])) for d in view["districts"])
    assert halves == [[(0, -3), (0, -2), (1, -3), (1, -2)], [(2, -3), (2, -2), (3, -3), (3, -2)]]


def test_seven_counties_that_cannot_split_are_a_district():
    state = new(2)
    state = play(state, boundary(state, FLOWER))
    d = district_of(state, (0, 0))
    assert d is not None and len(state["districts"][d]["counties"]) == 7


def test_eight_counties_made_unsplittable_by_a_dangling_border():
    state = new(3)
    state = play(state, boundary(state, EIGHT))
    assert district_of(state, EIGHT[0]) is None  # 8 counties that can still be split
    before = RULES.view(state, None)
    state = play(state, [DANGLING])  # disconnects nothing ...
    d = district_of(state, EIGHT[0])  # ... yet completes a district
    assert d is not None and all(district_of(state, c) == d for c in EIGHT)
    assert len(state["districts"][d]["counties"]) == 8
    assert before["districts"] == []
    # the dangling border lies inside the district
    assert [list(DANGLING[0]), list(DANGLING[1])] in RULES.view(state, None)["borders"]


def test_enclosing_fewer_than_four_is_illegal():
    state = new(3)
    pairs = boundary(state, TRIANGLE)
    last = pairs.pop()
    state = play(state, pairs)
    seat = RULES.to_move(state)[0]
    with pytest.raises(IllegalMove) as err:
        RULES.apply(state, seat, border(*last))
    assert err.value.code == "too_small"
    assert err.value.message == (
        "That border would leave 3 counties on their own; every district needs at least 4.")
    assert border(*last) not in RULES.legal_moves(state, seat)


def test_no_borders_inside_a_district_or_twice_or_on_the_edge():
    state = new(3)
    state = play(state, boundary(state, RHOMBUS))
    seat = RULES.to_move(state)[0]
    cases = [
        (border((-3, 3), (-2, 3)), "inside_district"),
        (border(*boundary(state, RHOMBUS)[0]), "already_bordered"),
        (border((0, 0), (5, 5)), "not_adjacent"),
        (border((0, 0), (0, 0)), "not_adjacent"),
        (border((-4, 4), (-3, 4)), "edge_of_board"),  # (-4, 4) is only in 4-player games
        (border((9, 9), (9, 10)), "off_board"),
    ]
    for move, code in cases:
        with pytest.raises(IllegalMove) as err:
            RULES.apply(state, seat, move)
        assert err.value.code == code
        assert err.value.message and err.value.message[0].isupper()


# ---------------------------------------------------------------- winners and ties

def test_district_winner_by_votes():
    state = new(3, first_seat=0)
    state = set_tokens(state, {(-3, 3): (YELLOW, 5), (-2, 3): (YELLOW, 6),
                               (-3, 4): (RED, 9), (-2, 4): (BLUE, 5)})
    state = play(state, boundary(state, RHOMBUS))
    d = RULES.view(state, None)["districts"][0]
    assert d["winner"] == YELLOW and d["tied"] is False
    assert d["votes"][YELLOW] == 11 and d["votes"][RED] == 9 and d["votes"][BLUE] == 5
    assert RULES.view(state, None)["district_counts"] == [0, 0, 1, 0]


def test_tie_the_closer_yellow_chooses_red():
    state = new(3)
    pairs = boundary(state, RHOMBUS)
    state = RULES.setup({"players": 3, "first_seat": first_seat_for(len(pairs) - 1, YELLOW, 3)}, 1)
    state = set_tokens(state, {(-3, 3): (RED, 5), (-2, 3): (RED, 4),
                               (-3, 4): (BLUE, 9), (-2, 4): (YELLOW, 3)})
    state = play(state, pairs[:-1])
    assert RULES.to_move(state) == [YELLOW]
    left_before = state["left"]
    state = RULES.apply(state, YELLOW, border(*pairs[-1]))
    view = RULES.view(state, YELLOW)
    assert view["pending_choice"] == {"seat": YELLOW, "district": 0, "parties": [RED, BLUE]}
    assert view["to_move"] == [YELLOW]
    assert view["districts"][0]["winner"] is None and view["districts"][0]["tied"] is True
    assert view["legal_moves"] == [{"type": "choose_winner", "party": RED},
                                   {"type": "choose_winner", "party": BLUE}]
    with pytest.raises(IllegalMove) as err:
        RULES.apply(state, YELLOW, border((0, 0), (1, 0)))
    assert err.value.code == "choice_pending"
    for bad in (YELLOW, GREEN, "0", None, True):
        with pytest.raises(IllegalMove) as err:
            RULES.apply(state, YELLOW, {"type": "choose_winner", "party": bad})
        assert err.value.code == "not_tied_party"
    with pytest.raises(IllegalMove) as err:
        RULES.apply(state, RED, {"type": "choose_winner", "party": RED})
    assert err.value.code == "not_your_turn"
    state = RULES.apply(state, YELLOW, {"type": "choose_winner", "party": RED})
    view = RULES.view(state, None)
    assert view["districts"][0]["winner"] == RED and view["districts"][0]["closed_by"] == YELLOW
    assert view["pending_choice"] is None
    # the closer goes on with the turn if borders remain
    if left_before > 1:
        assert RULES.to_move(state) == [YELLOW] and view["turn"]["borders_left"] == left_before - 1
    with pytest.raises(IllegalMove) as err:
        RULES.apply(state, RULES.to_move(state)[0], {"type": "choose_winner", "party": RED})
    assert err.value.code == "no_choice_pending"


def test_two_tied_districts_are_chosen_one_at_a_time_then_the_turn_goes_on():
    state = new(4, first_seat=0)
    pairs = boundary(state, PARALLELOGRAM) + HALF_CUT[:2]
    closing = len(pairs)
    # make both halves tied: Red 9 vs Blue 9 (left), Yellow 8 vs Green 8 (right)
    state = RULES.setup({"players": 4, "first_seat": first_seat_for(closing, GREEN, 4)}, 1)
    state = set_tokens(state, {
        (0, -3): (RED, 5), (0, -2): (RED, 4), (1, -3): (BLUE, 9), (1, -2): (GREEN, 2),
        (2, -3): (YELLOW, 8), (2, -2): (GREEN, 6), (3, -3): (GREEN, 2), (3, -2): (RED, 3),
    })
    state = play(state, pairs)
    state = RULES.apply(state, GREEN, border(*HALF_CUT[2]))
    view = RULES.view(state, GREEN)
    assert len(view["districts"]) == 2
    first = view["pending_choice"]
    assert first["seat"] == GREEN and RULES.to_move(state) == [GREEN]
    state = RULES.apply(state, GREEN, {"type": "choose_winner", "party": first["parties"][0]})
    second = RULES.view(state, GREEN)["pending_choice"]
    assert second is not None and second["district"] != first["district"]
    state = RULES.apply(state, GREEN, {"type": "choose_winner", "party": second["parties"][-1]})
    view = RULES.view(state, None)
    assert view["pending_choice"] is None
    assert sorted(d["winner"] for d in view["districts"]) == sorted(
        [first["parties"][0], second["parties"][-1]])


# ---------------------------------------------------------------- end of game

def finished(players, winners, swing_in, own_values=None):
    """A finished position: the board cut into len(winners) districts (by county order; the
    geometry does not matter for scoring) won as listed; ``swing_in[k]`` swing tokens are moved
    into district k."""
    state = RULES.setup({"players": players, "first_seat": 0}, 9)
    size = len(state["party_at"])
    k = len(winners)
    groups = [list(range(i * size // k, (i + 1) * size // k)) for i in range(k)]
    swing = [i for i in range(size) if state["value_at"][i] in (0, 1)]
    plain = [i for i in range(size) if state["value_at"][i] not in (0, 1)]
    # put the requested number of swing tokens in each district, plain tokens elsewhere
    order = []
    for g, want in zip(groups, swing_in, strict=True):
        order += [swing.pop() for _ in range(want)]
        order += [plain.pop() for _ in range(len(g) - want)]
    party_at = [state["party_at"][i] for i in order]
    value_at = [state["value_at"][i] for i in order]
    state["party_at"], state["value_at"] = party_at, value_at
    state["district_of"] = [0] * size
    state["districts"] = []
    for d, (g, w) in enumerate(zip(groups, winners, strict=True)):
        votes = [0, 0, 0, 0]
        for c in g:
            state["district_of"][c] = d
            if party_at[c] is not None:
                votes[party_at[c]] += value_at[c]
        state["districts"].append({"counties": g, "votes": votes, "winner": w,
                                   "tied_parties": [], "closed_by": 0})
    state.update(districted=size, over=True, legal=[], side=[-1] * size, pending=[])
    return state


def test_most_districts_wins():
    # rulebook: Yellow 5, Blue 4, Red 3
    state = finished(3, [YELLOW] * 5 + [BLUE] * 4 + [RED] * 3, [1, 1, 1, 1] + [0] * 8)
    result = RULES.result(state)
    assert result["winners"] == [YELLOW] and result["decided_by"] == "districts"
    places = {r["seat"]: (r["place"], r["districts"]) for r in result["ranking"]}
    assert places == {YELLOW: (1, 5), BLUE: (2, 4), RED: (3, 3)}
    assert RULES.is_over(state) and RULES.to_move(state) == []
    assert RULES.view(state, None)["result"] == result


def test_four_four_four_broken_by_swing_counties():
    # rulebook: all parties 4 districts; Red controls 2 swing counties, Blue 1, Yellow 1
    winners = [RED] * 4 + [BLUE] * 4 + [YELLOW] * 4
    swing_in = [2, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0]
    result = RULES.result(finished(3, winners, swing_in))
    assert result["winners"] == [RED] and result["decided_by"] == "swing_counties"
    rows = {r["seat"]: r for r in result["ranking"]}
    assert [rows[s]["swing_counties"] for s in (RED, BLUE, YELLOW)] == [2, 1, 1]
    assert rows[RED]["place"] == 1 and {rows[BLUE]["place"], rows[YELLOW]["place"]} <= {2, 3}
    assert all(rows[s]["districts"] == 4 for s in rows)


def test_shared_win_when_every_rule_ties():
    state = RULES.setup({"players": 2, "first_seat": 0}, 2)
    size = len(state["party_at"])
    state["party_at"] = [RED, BLUE, RED, BLUE] + [None] * (size - 4)
    state["value_at"] = [1, 1, 7, 7] + [5] * (size - 4)
    state["districts"] = [{"counties": [c], "votes": [0, 0, 0, 0], "winner": w,
                           "tied_parties": [], "closed_by": 0}
                          for c, w in zip(range(4), [RED, BLUE, RED, BLUE], strict=True)]
    state.update(over=True, districted=size)
    result = RULES.result(state)
    assert result["decided_by"] == "shared" and result["winners"] == [RED, BLUE]
    assert [r["place"] for r in result["ranking"]] == [1, 1]


def test_supreme_court_fewest_own_votes_wins():
    state = RULES.setup({"players": 2, "first_seat": 0}, 2)
    size = len(state["party_at"])
    # two districts each; Red's own votes 10 + 9, Blue's 10 + 10 -> Red wins in court
    state["party_at"] = [RED, RED, BLUE, BLUE] + [None] * (size - 4)
    state["value_at"] = [10, 9, 10, 10] + [5] * (size - 4)
    groups = [[0], [1], [2], [3]]
    state["districts"] = [{"counties": g, "votes": [0, 0, 0, 0], "winner": w,
                           "tied_parties": [], "closed_by": 0}
                          for g, w in zip(groups, [RED, RED, BLUE, BLUE], strict=True)]
    state.update(over=True, districted=size)
    result = RULES.result(state)
    assert result["decided_by"] == "supreme_court" and result["winners"] == [RED]
    assert {r["seat"]: r["own_votes"] for r in result["ranking"]} == {RED: 19, BLUE: 20}


# ---------------------------------------------------------------- solo modes

def test_solo_scoring_example_six_tied_districts_fifty_one_borders():
    state = RULES.setup({"mode": "solo-competitive"}, 3)
    size = len(state["party_at"])
    groups = [list(range(i * size // 6, (i + 1) * size // 6)) for i in range(6)]
    state["districts"] = [{"counties": g, "votes": [9, 9, 0, 0], "winner": None,
                           "tied_parties": [0, 1], "closed_by": 0} for g in groups]
    state["district_of"] = [next(k for k, g in enumerate(groups) if c in g) for c in range(size)]
    state["borders"] = list(range(51))
    state.update(over=True, districted=size, legal=[])
    result = RULES.result(state)
    assert result["score"] == 9 and result["won"] is True and result["borders_used"] == 51
    assert result["decided_by"] == "solo" and result["winners"] == [0]
    view = RULES.view(state, 0)
    assert view["score"] == 9 and view["borders_used"] == 51 and len(view["borders"]) == 51
    assert all(d["tied"] and d["winner"] is None for d in view["districts"])


def rhombus_on_solo_board(mode, layout):
    # a 2 x 2 rhombus at the edge of the 37-county board
    region = [(3, -3), (2, -2), (3, -2), (2, -3)]
    state = RULES.setup({"mode": mode}, 5)
    state = set_tokens(state, dict(zip(region, layout, strict=True)))
    return state, region, boundary(state, region)


def test_solo_easy_forbids_tied_districts():
    state, region, pairs = rhombus_on_solo_board(
        "solo-easy", [(RED, 5), (RED, 4), (BLUE, 9), (None, 0)])
    state = play(state, pairs[:-1])
    last = border(*pairs[-1])
    assert last not in RULES.legal_moves(state, 0)
    with pytest.raises(IllegalMove) as err:
        RULES.apply(state, 0, last)
    assert err.value.code == "tie_not_allowed"
    assert "tied" in err.value.message


def test_solo_easy_score_and_undo():
    state, region, pairs = rhombus_on_solo_board(
        "solo-easy", [(BLUE, 5), (BLUE, 4), (RED, 2), (RED, 3)])
    assert RULES.to_move(state) == [0] and RULES.view(state, 0)["turn"]["quota"] is None
    history = [state]
    for c1, c2 in pairs:
        state = RULES.apply(state, 0, border(c1, c2))
        history.append(state)
    view = RULES.view(state, 0)
    assert view["district_counts"][BLUE] == 1 and view["score"] == 1 and view["can_undo"]
    assert view["borders_used"] == len(pairs)
    # unlimited undo walks back through every earlier state exactly
    for earlier in reversed(history[:-1]):
        state = RULES.apply(state, 0, {"type": "undo"})
        assert state == earlier
    with pytest.raises(IllegalMove) as err:
        RULES.apply(state, 0, {"type": "undo"})
    assert err.value.code == "nothing_to_undo"


def test_solo_competitive_tied_districts_and_loss_by_untied_district_with_undo():
    state, region, pairs = rhombus_on_solo_board(
        "solo-competitive", [(RED, 5), (RED, 4), (BLUE, 9), (None, 0)])
    state = play(state, pairs)
    view = RULES.view(state, 0)
    assert view["districts"][0]["tied"] and view["districts"][0]["winner"] is None
    assert view["pending_choice"] is None and not view["is_over"]
    assert view["score"] == 10 - len(pairs)
    # now an untied district ends the attempt as a loss
    other = [(-3, 3), (-2, 3), (-3, 2), (-2, 2)]
    state = set_tokens(state, dict(zip(other, [(RED, 10), (BLUE, 2), (RED, 3), (BLUE, 3)],
                                       strict=True)))
    more = boundary(state, other)
    state = play(state, more)
    assert RULES.is_over(state) and RULES.to_move(state) == []
    result = RULES.result(state)
    assert result["won"] is False and result["winners"] == [] and result["lost"] is True
    assert result["score"] == 0 == RULES.view(state, 0)["score"]  # only a win scores
    with pytest.raises(IllegalMove) as err:
        RULES.apply(state, 0, border((0, 0), (1, 0)))
    assert err.value.code == "game_over"
    assert RULES.view(state, 0)["can_undo"] is True
    state = RULES.apply(state, 0, {"type": "undo"})  # undo also undoes the game over
    assert not RULES.is_over(state) and RULES.to_move(state) == [0]
    assert len(state["districts"]) == 1


def test_undo_is_not_allowed_in_multiplayer():
    state = new(2)
    state = play(state, [((0, 0), (1, 0))])
    with pytest.raises(IllegalMove) as err:
        RULES.apply(state, RULES.to_move(state)[0], {"type": "undo"})
    assert err.value.code == "undo_not_allowed"
    assert "can_undo" not in RULES.view(state, 0)


# ---------------------------------------------------------------- full games

@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_full_multiplayer_game(players):
    import random

    rng = random.Random(players)
    state = RULES.setup({"players": players}, players)
    while not RULES.is_over(state):
        seat = RULES.to_move(state)[0]
        state = RULES.apply(state, seat, rng.choice(RULES.legal_moves(state, seat)))
    check_final_position(state)
    view = RULES.view(state, 0)
    assert view["is_over"] and view["to_move"] == [] and view["legal_moves"] == []
    result = view["result"]
    assert result == RULES.result(state)
    assert sum(r["districts"] for r in result["ranking"]) == len(state["districts"])
    assert sorted(r["seat"] for r in result["ranking"]) == list(range(players))
    assert result["winners"] and all(
        r["place"] == 1 for r in result["ranking"] if r["seat"] in result["winners"])
    assert result["decided_by"] in {"districts", "swing_counties", "supreme_court", "shared"}
    json.dumps(view)


def test_view_format():
    state = new(3)
    view = RULES.view(state, 0)
    for key in ("counties", "borders", "districts", "to_move", "turn", "pending_choice",
                "players", "mode", "party_of_seat", "district_counts", "legal_moves",
                "is_over", "result"):
        assert key in view
    assert set(view["counties"][0]) >= {"q", "r", "party", "value", "swing", "district"}
    assert set(view["turn"]) == {"number", "seat", "quota", "borders_left"}
    assert view["turn"]["number"] == 1 and view["result"] is None
    assert view["legal_moves"] == RULES.legal_moves(state, 0)
    assert RULES.view(state, 1)["legal_moves"] == []
    assert RULES.view(state, None)["legal_moves"] == []
    with pytest.raises(IllegalMove):
        RULES.view(state, 7)
    assert board_of(state).size == 55


def test_solo_easy_can_get_stuck_and_undo_frees_it():
    import random

    rng = random.Random(0)
    for seed in range(30):
        state = RULES.setup({"mode": "solo-easy"}, seed)
        while not RULES.is_over(state):
            moves = RULES.legal_moves(state, 0)
            if moves == [{"type": "undo"}]:  # stuck: undo is the only move left
                view = RULES.view(state, 0)
                assert view["stuck"] and view["can_undo"] and not view["is_over"]
                state = RULES.apply(state, 0, {"type": "undo"})
                # the border just taken back was legal here, so the player is unstuck
                assert RULES.legal_moves(state, 0) and not RULES.view(state, 0)["stuck"]
                return
            state = RULES.apply(state, 0, rng.choice(moves))
    pytest.fail("no stuck position met in 30 seeded games")


def test_game_log_lines_name_the_mover_and_each_new_district():
    """describe(): the game log reads "<player> placed a border" and, for each district the
    border closes, who won it and by how much (or that it is tied and who chooses)."""
    from games.engine import seat_ref

    state = RULES.setup({"players": 2, "first_seat": 0}, 3)
    rng = __import__("random").Random(3)
    saw_district = False
    while not RULES.is_over(state):
        seat = RULES.to_move(state)[0]
        move = rng.choice(RULES.legal_moves(state, seat))
        after = RULES.apply(state, seat, move)
        lines = RULES.describe(state, move, after, seat, None)
        assert lines == RULES.describe(state, move, after, seat, 1 - seat)  # nothing hidden
        if move["type"] == "border":
            assert lines[0] == f"{seat_ref(seat)} placed a border."
            for d, line in zip(after["districts"][len(state["districts"]):], lines[1:],
                               strict=False):
                saw_district = True
                votes = sorted((d["votes"][p] for p in after["parties"]), reverse=True)
                if d["tied_parties"]:
                    assert "tied" in line and seat_ref(d["closed_by"]) in line
                else:
                    assert line == (f"The {PARTY_NAMES[d['winner']]} won a district "
                                    f"{votes[0]} to {votes[1]}.")
        else:
            assert lines == [f"{seat_ref(seat)} gave the tied district to the "
                             f"{PARTY_NAMES[move['party']]}."]
        state = after
    assert saw_district and "the game is over" in lines[-1]


def test_border_turns_follow_the_quotas_so_the_last_turn_can_be_marked():
    state = RULES.setup({"players": 3, "first_seat": 0}, 5)
    rng = __import__("random").Random(5)
    for _ in range(20):
        seat = RULES.to_move(state)[0]
        state = RULES.apply(state, seat, rng.choice(RULES.legal_moves(state, seat)))
    view = RULES.view(state, 0)
    assert view["border_turns"][:10] == [0, 1, 1, 2, 2, 2, 3, 3, 3, 3]
    assert view["border_turns"][-1] == view["turn"]["number"] - 1 or view["turn"]["borders_left"] == \
        view["turn"]["quota"]
    assert RULES.view(RULES.setup({"mode": "solo-easy"}, 1), 0)["border_turns"] is None
