"""Berrymandering rules: the rulebook's examples, the rulings and the map checks, as concrete
positions."""

import copy
import json
import random

import pytest

from games.engine import IllegalMove, get_rules
from games.engine.berrymandering import group_berries
from games.engine.berrymandering_data import SOLO_RATINGS, STANDARD_MAP
from games.engine.tetromino import ORIENTATIONS, Region

RULES = get_rules("berrymandering")
STRAWBERRY, BLUEBERRY = 0, 1


def new(players=2, seed=1, **extra):
    options = {"mode": "solo"} if players == 1 else {"players": players}
    return RULES.setup({**options, "team_chooser": 0, "team": STRAWBERRY, **extra}, seed)


def squares(cells=None):
    """The cake cut into 2 x 2 squares (the 6 x 6 board: nine of them)."""
    return [[[x, y], [x + 1, y], [x, y + 1], [x + 1, y + 1]]
            for y in range(0, 6, 2) for x in range(0, 6, 2)]


def cut(groups):
    return {"type": "cut", "groups": [[list(c) for c in g] for g in groups]}


def choose(cell):
    return {"type": "choose", "cell": list(cell)}


def index(state, cell):
    return [tuple(c) for c in state["map"]["cells"]].index(tuple(cell))


def set_tiles(state, layout):
    """Move tiles so that each cell of ``layout`` holds the given tile ([team, count] or None
    for a Random tile); tiles are swapped, so the game's tile mix stays the same."""
    state = copy.deepcopy(state)
    fixed = set()
    for cell, tile in layout.items():
        target = index(state, cell)
        source = next(i for i, t in enumerate(state["tiles"])
                      if i not in fixed and t == tile)
        state["tiles"][target], state["tiles"][source] = \
            state["tiles"][source], state["tiles"][target]
        fixed.add(target)
    return state


def put_on_top(state, tile):
    """Put a face-down Mystery tile like ``tile`` on top of the pile (a test's rigging)."""
    state = copy.deepcopy(state)
    k = state["pile"].index(list(tile))
    state["pile"].insert(0, state["pile"].pop(k))
    return state


def play(state, moves):
    """Apply moves in order, each by whoever is to move."""
    for move in moves:
        state = RULES.apply(state, RULES.to_move(state)[0], move)
    return state


def refused(state, move, code, message=None, seat=None):
    seat = RULES.to_move(state)[0] if seat is None else seat
    with pytest.raises(IllegalMove) as err:
        RULES.apply(state, seat, move)
    assert err.value.code == code, err.value.message
    if message is not None:
        assert err.value.message == message
    return err.value.message


# ---------------------------------------------------------------- setup and options

def test_registered_with_its_metadata():
    assert RULES.name == "berrymandering" and RULES.title == "Berrymandering"
    assert [m.key for m in RULES.modes] == ["2", "3", "solo"]
    assert RULES.imperfect_information and not RULES.simultaneous
    assert [RULES.seat_count(RULES.mode_options(m)) for m in ("2", "3", "solo")] == [2, 3, 1]
    assert RULES.mode_options("2") == {"players": 2, "variant": "standard"}
    assert "variant" not in RULES.mode_options("3")


def test_standard_setup_has_the_published_components():
    state = RULES.setup({"players": 2}, 3)
    tiles = state["tiles"]
    assert len(tiles) == 36 and tiles.count(None) == 6
    for team in (STRAWBERRY, BLUEBERRY):
        assert [tiles.count([team, k]) for k in (1, 2, 3, 4)] == [6, 4, 3, 2]
        assert sum(t[1] for t in tiles if t and t[0] == team) == 31
    assert sorted(map(tuple, state["pile"])) == [(0, 1), (0, 1), (0, 2), (1, 1), (1, 1), (1, 2)]
    assert state["rounds"] == 9 and state["round"] == 1
    assert RULES.setup({"players": 2}, 3) == state  # the seed decides everything
    boards = {json.dumps(RULES.setup({"players": 2}, s)["tiles"]) for s in range(6)}
    assert len(boards) == 6  # shuffled


def test_team_chooser_picks_and_the_other_player_cuts_first():
    state = RULES.setup({"players": 2, "team_chooser": 1, "team": STRAWBERRY}, 1)
    assert state["team_of_seat"] == [BLUEBERRY, STRAWBERRY]
    assert RULES.to_move(state) == [0]  # "The other player gets to Cut cake first."
    view = RULES.view(state, 0)
    assert view["cutter"] == 0 and view["chooser"] == 1 and view["team_of_seat"] == [1, 0]
    state = RULES.setup({"players": 2, "team_chooser": 1, "team": 1, "first_cutter": 1}, 1)
    assert state["team_of_seat"] == [0, 1] and RULES.to_move(state) == [1]
    # left out: drawn from the seed, and the first cutter is the other player
    drawn = {(s["team_chooser"], tuple(s["team_of_seat"]), s["first_cutter"])
             for s in (RULES.setup({"players": 2}, seed) for seed in range(20))}
    assert {c for c, _, _ in drawn} == {0, 1} and {t for _, t, _ in drawn} == {(0, 1), (1, 0)}
    assert all(first == 1 - chooser for chooser, _, first in drawn)


def test_three_players_and_solo_seats():
    state = new(3)
    assert state["team_of_seat"] == [0, 1, None] and state["players"] == 3
    assert RULES.view(state, 2)["mystery_face_down"][0] == {"tile": 0, "team": 0, "count": 1}
    solo = RULES.setup({"mode": "solo", "team": BLUEBERRY}, 1)
    assert solo["team_of_seat"] == [BLUEBERRY] and solo["rounds"] == 3
    assert RULES.to_move(solo) == [0]


@pytest.mark.parametrize("options", [
    None, [], "x", {}, {"players": 1}, {"players": 4}, {"players": "2"}, {"players": True},
    {"mode": "duo"}, {"mode": "solo", "players": 2}, {"players": 2, "variant": "easy"},
    {"players": 3, "variant": "strategy"}, {"players": 2, "team_chooser": 2},
    {"players": 2, "team": 3}, {"players": 2, "first_cutter": "me"},
    {"players": 3, "first_cutter": 2}, {"players": 2, "map": {"cells": []}},
    {"players": 2, "map": "texas"},
])
def test_bad_options_are_refused(options):
    with pytest.raises(IllegalMove) as err:
        RULES.setup(options, 1)
    assert err.value.code == "bad_options" and err.value.message
    if isinstance(options, dict) and "players" in options and options.get("players") == 2:
        with pytest.raises(IllegalMove):
            RULES.seat_count(options)


# ---------------------------------------------------------------- cut

def test_a_complete_cut_of_squares_is_accepted_and_listed():
    state = new()
    after = RULES.apply(state, 1, cut(squares()))
    assert RULES.to_move(after) == [0] and after["phase"] == "choose"
    view = RULES.view(after, 0)
    assert len(view["cut"]) == 9
    assert view["legal_moves"] == [choose(g[0]) for g in squares()]
    assert all(sum(b[k] for k in ("strawberries", "blueberries")) >= 0
               for b in view["cut_berries"])


def test_orphan_groups_are_refused():
    """The rulebook's example: two orphan groups (here 3 cells and 5 cells) must be re-cut."""
    state = new()
    groups = squares()
    three = groups[0][:3]
    five = groups[1] + [groups[0][3]]
    refused(state, cut([three, five] + groups[2:]), "group_size",
            "A group must have exactly 4 cells.")


def test_every_cell_must_be_cut():
    state = new()
    refused(state, cut(squares()[:-1]), "uncut",  # the bottom-right square is left out
            "Cells (4,4), (5,4), (4,5) and (5,5) are not in any group: every uneaten cell "
            "must be cut.")
    overlapping = squares()[:8] + [[[4, 4], [5, 4], [4, 3], [5, 3]]]
    refused(state, cut(overlapping), "overlap", "Cell (4,3) is in two groups.")
    refused(state, cut(squares()[:1]), "uncut",
            "Cells (2,0), (3,0), (4,0), (5,0), (2,1) and 27 more are not in any group: every "
            "uneaten cell must be cut.")


def test_groups_must_be_connected_and_exactly_four_distinct_cells():
    state = new()
    apart = [[0, 0], [1, 0], [0, 1], [3, 1]]
    refused(state, cut([apart] + squares()[1:]), "not_connected",
            "These 4 cells are not connected.")
    refused(state, cut([[[0, 0], [0, 0], [1, 0], [1, 1]]]), "repeated_cell",
            "Cell (0,0) is twice in the same group.")
    refused(state, cut([[[0, 0], [1, 0], [2, 0]]]), "group_size",
            "A group must have exactly 4 cells.")
    refused(state, cut([[[0, 0], [1, 0], [2, 0], [9, 9]]]), "off_cake",
            "Cell (9,9) is not on the cake.")
    refused(state, {"type": "cut", "groups": [[[0, 0], [1, 0], [2, 0], "x"]]}, "bad_cell")
    refused(state, {"type": "cut", "groups": []}, "bad_move")
    refused(state, {"type": "cut"}, "bad_move")


@pytest.mark.parametrize("k", range(len(ORIENTATIONS)))
def test_all_seven_shapes_in_all_nineteen_orientations_are_accepted(k):
    """"There are seven valid shapes", each in any rotation or reflection: 19 fixed ones."""
    assert len(ORIENTATIONS) == 19 and len({name for name, _ in ORIENTATIONS}) == 7
    name, cells = ORIENTATIONS[k]
    state = new()
    board = {(x, y) for x in range(6) for y in range(6)}
    for dx in range(6):
        piece = {(x + dx, y) for x, y in cells}
        if not piece <= board:
            continue
        region = Region(sorted(board - piece))
        pieces = region.random_tiling(random.Random(k))
        if pieces is None:
            continue
        groups = [sorted(piece)] + [region.cells_of(p) for p in pieces]
        after = RULES.apply(state, 1, cut(groups))
        assert after["phase"] == "choose" and len(after["cut"]) == 9
        return
    pytest.fail(f"no placement of {name} found")


def test_eaten_cells_cannot_be_cut_or_chosen():
    state = play(new(), [cut(squares()), choose((0, 0))])
    assert state["eaten"][index(state, (0, 0))] and RULES.to_move(state) == [0]
    refused(state, cut(squares()), "eaten", "Cell (0,0) has been eaten.")
    rest = squares()[1:]
    state = play(state, [cut(rest)])
    refused(state, choose((1, 1)), "eaten", "Cell (1,1) has been eaten.")


# ---------------------------------------------------------------- choose and score

def test_a_random_tile_turns_four_all_into_six_to_four_for_blueberry():
    """The rulebook's Choose example: the group holds a Random tile; the Mystery tile revealed
    shows two more blueberries, so Blueberry wins 6 vs 4 and gets one candle."""
    state = set_tiles(new(), {(0, 0): [0, 3], (1, 0): [0, 1], (0, 1): [1, 4], (1, 1): None})
    state = put_on_top(state, [BLUEBERRY, 2])
    state = RULES.apply(state, 1, cut(squares()))
    before = state
    group = state["cut"][0]
    assert group_berries(state, group) == [4, 4]  # 4 all before the reveal
    assert RULES.view(state, 0)["cut_berries"][0] == {"strawberries": 4, "blueberries": 4,
                                                       "random": 1}
    after = RULES.apply(state, 0, choose((1, 1)))
    assert after["candles"] == [0, 1]
    assert after["history"][0]["berries"] == [4, 6]
    view = RULES.view(after, None)
    assert view["mystery_revealed"] == [{"cell": [1, 1], "team": 1, "count": 2}]
    assert view["cells"][index(after, (1, 1))]["mystery"] == {"team": 1, "count": 2}
    assert view["mystery_face_down"] == 5
    assert RULES.describe(before, choose((1, 1)), after, 0, None)[:2] == [
        "A Random tile revealed a double Blueberry Mystery tile.",
        "{seat:0} ate a group: Blueberry 6, Strawberry 4 - a candle for Blueberry.",
    ]
    # the revealed tile is set aside: the next Random tile reveals the next one
    assert len(after["pile"]) == 5


def test_a_tie_gives_no_candle():
    state = set_tiles(new(), {(0, 0): [0, 3], (1, 0): [0, 1], (0, 1): [1, 4], (1, 1): [1, 1]})
    state = set_tiles(state, {(1, 1): [1, 1]})
    state = play(state, [cut(squares())])
    state = set_tiles(state, {(0, 0): [0, 2], (1, 0): [0, 2], (0, 1): [1, 3], (1, 1): [1, 1]})
    after = RULES.apply(state, 0, choose((0, 0)))
    assert after["candles"] == [0, 0]
    assert RULES.describe(state, choose((0, 0)), after, 0, 1)[0] == \
        "{seat:0} ate a group: Strawberry 4, Blueberry 4 - a tie, no candle."


def test_the_cutter_and_the_chooser_cannot_play_out_of_turn():
    state = new()
    refused(state, cut(squares()), "not_your_turn", seat=0)
    refused(state, choose((0, 0)), "wrong_move")
    state = play(state, [cut(squares())])
    refused(state, cut(squares()), "wrong_move")
    refused(state, choose((0, 0)), "not_your_turn", seat=1)
    refused(state, {"type": "mystery", "tile": 0}, "wrong_move")
    refused(state, {"type": "eat"}, "unknown_move")
    refused(state, choose((7, 0)), "off_cake")
    refused(state, choose((0, 0)), "bad_seat", seat=2)


def test_an_isolated_group_stays_in_play_and_can_be_chosen():
    """"When a group is isolated from the rest of the remaining cake pieces that group remains
    in play until it is eaten": the top-left 2 x 2 square, cut off by two eaten groups."""
    state = new()
    board = [(x, y) for x in range(6) for y in range(6)]
    ell = [(2, 0), (2, 1), (2, 2), (3, 2)]
    block = [(0, 2), (1, 2), (0, 3), (1, 3)]
    corner = [(0, 0), (1, 0), (0, 1), (1, 1)]

    def complete(fixed, seed):
        taken = {c for g in fixed for c in g} | {
            tuple(c) for c, e in zip(state["map"]["cells"], state["eaten"], strict=True) if e}
        region = Region(sorted(set(board) - taken))
        return fixed + [region.cells_of(p) for p in region.random_tiling(random.Random(seed))]

    state = play(state, [cut(complete([ell, corner], 1)), choose((2, 0))])
    state = play(state, [cut(complete([block, corner], 2)), choose((0, 2))])
    # the corner touches no uneaten cell now: any cut keeps it as a group of its own
    assert state["round"] == 3
    state = play(state, [cut(complete([corner], 3))])
    chooser = RULES.to_move(state)[0]
    assert choose((0, 0)) in RULES.legal_moves(state, chooser)
    after = RULES.apply(state, chooser, choose((1, 1)))
    assert all(after["eaten"][index(after, c)] for c in corner)
    assert after["history"][-1]["cells"] == [list(c) for c in corner]


def test_nine_rounds_with_roles_switching_every_round():
    state = new(seed=7)
    rng = random.Random(7)
    cutters = []
    while not RULES.is_over(state):
        cutter = RULES.to_move(state)[0]
        cutters.append(cutter)
        state = RULES.apply(state, cutter, rng.choice(RULES.legal_moves(state, cutter)))
        assert state["round"] == len(cutters)
        chooser = RULES.to_move(state)[0]
        assert chooser == 1 - cutter
        state = RULES.apply(state, chooser, rng.choice(RULES.legal_moves(state, chooser)))
    assert cutters == [1, 0, 1, 0, 1, 0, 1, 0, 1]
    assert len(state["history"]) == 9 and all(state["eaten"])
    ties = sum(1 for h in state["history"] if h["berries"][0] == h["berries"][1])
    assert sum(state["candles"]) + ties == 9
    result = RULES.result(state)
    a, b = state["candles"]
    if a == b:
        assert result["decided_by"] == "draw" and result["winners"] == []
        assert [r["place"] for r in result["ranking"]] == [1, 1]
    else:
        winner = state["team_of_seat"].index(0 if a > b else 1)
        assert result == {**result, "decided_by": "candles", "winners": [winner]}
    assert RULES.to_move(state) == [] and RULES.legal_moves(state, 0) == []
    refused(state, cut(squares()), "game_over", seat=0)


def test_the_last_round_has_one_cut_and_one_group():
    state = new(seed=3)
    rng = random.Random(3)
    while len(state["history"]) < 8:
        seat = RULES.to_move(state)[0]
        state = RULES.apply(state, seat, rng.choice(RULES.legal_moves(state, seat)))
    assert state["round"] == 9 and state["phase"] == "cut"
    moves = RULES.legal_moves(state, RULES.to_move(state)[0])
    assert len(moves) == 1 and len(moves[0]["groups"]) == 1


# ---------------------------------------------------------------- variants

def test_strategy_variant_puts_mystery_tiles_face_up_on_the_random_tiles():
    state = new(variant="strategy")
    view = RULES.view(state, None)
    randoms = [c for c in view["cells"] if c["tile"]["kind"] == "random"]
    assert len(randoms) == 6 and all(c["mystery"] is not None for c in randoms)
    assert sorted((c["mystery"]["team"], c["mystery"]["count"]) for c in randoms) == \
        [(0, 1), (0, 1), (0, 2), (1, 1), (1, 1), (1, 2)]
    assert state["pile"] == [] and len(view["mystery_face_down"]) == 6
    # the face-up tile counts when its group is eaten, and the view said so before
    cell = (randoms[0]["x"], randoms[0]["y"])
    state = play(state, [cut(squares())])
    k = next(k for k, g in enumerate(state["cut"]) if index(state, cell) in g)
    shown = RULES.view(state, 0)["cut_berries"][k]
    after = RULES.apply(state, 0, choose(cell))
    assert after["history"][0]["berries"] == [shown["strawberries"], shown["blueberries"]]
    assert shown["random"] == 0
    assert RULES.setup({"mode": "solo", "variant": "strategy"}, 1)["pile"] == []


def test_three_player_variant_the_keeper_picks_each_mystery_tile():
    state = set_tiles(new(3), {(0, 0): [0, 3], (1, 0): [0, 1], (0, 1): [1, 4], (1, 1): None,
                               (2, 0): None})
    state = play(state, [cut(squares())])
    assert RULES.to_move(state) == [0]
    waiting = RULES.apply(state, 0, choose((0, 0)))
    assert RULES.to_move(waiting) == [2] and waiting["phase"] == "mystery"
    assert RULES.describe(state, choose((0, 0)), waiting, 0, 2) == [
        "{seat:0} chose a group with 1 Random tile: {seat:2} picks its Mystery tile."]
    moves = RULES.legal_moves(waiting, 2)
    assert moves == [{"type": "mystery", "tile": i} for i in range(6)]
    refused(waiting, choose((2, 0)), "not_your_turn", seat=0)
    # the keeper plays the single Strawberry (tile 0): 5 to 4 for Strawberry
    after = RULES.apply(waiting, 2, {"type": "mystery", "tile": 0})
    assert after["candles"] == [1, 0] and after["history"][0]["berries"] == [5, 4]
    assert RULES.view(after, 1)["mystery_revealed"] == [{"cell": [1, 1], "team": 0,
                                                        "count": 1}]
    assert [t["tile"] for t in RULES.view(after, 1)["mystery_face_down"]] == [1, 2, 3, 4, 5]
    lines = RULES.describe(waiting, {"type": "mystery", "tile": 0}, after, 2, None)
    assert lines[:2] == ["{seat:2} played a single Strawberry Mystery tile on a Random tile.",
                         "{seat:0} ate a group: Strawberry 5, Blueberry 4 - a candle for "
                         "Strawberry."]
    # a played tile cannot be used again
    after = play(after, [cut(squares()[1:])])
    again = RULES.apply(after, 0 if RULES.to_move(after) == [0] else 1, choose((2, 0)))
    refused(again, {"type": "mystery", "tile": 0}, "tile_used",
            "That Mystery tile has already been played.")
    refused(again, {"type": "mystery", "tile": 9}, "bad_tile")


def test_three_player_variant_the_keeper_wins_on_equal_candles():
    state = new(3, seed=4)
    rng = random.Random(4)
    finals = []
    for seed in range(40):
        state = new(3, seed=seed)
        while not RULES.is_over(state):
            seat = RULES.to_move(state)[0]
            state = RULES.apply(state, seat, rng.choice(RULES.legal_moves(state, seat)))
        finals.append(state)
    equal = [s for s in finals if s["candles"][0] == s["candles"][1]]
    unequal = [s for s in finals if s["candles"][0] != s["candles"][1]]
    assert equal and unequal
    for s in equal:
        result = RULES.result(s)
        assert result["winners"] == [2] and result["decided_by"] == "third_player"
        assert [r["place"] for r in result["ranking"]] == [2, 2, 1]
    for s in unequal:
        result = RULES.result(s)
        top = 0 if s["candles"][0] > s["candles"][1] else 1
        assert result["winners"] == [s["team_of_seat"].index(top)]
        assert result["decided_by"] == "candles"
    assert RULES.summary(equal[0], 2)[:2] == [
        {"key": "team", "label": "Team", "value": "Mystery keeper"},
        {"key": "candles", "label": "Candles", "value": "\u2014"}]  # a dash, never "None"


# ---------------------------------------------------------------- solo

def test_solo_cut_everything_then_choose_three_for_three_rounds():
    state = RULES.setup({"mode": "solo", "team": STRAWBERRY}, 2)
    state = play(state, [cut(squares())])
    view = RULES.view(state, 0)
    assert view["choices_left"] == 3 and view["cutter"] == 0 and view["chooser"] == 0
    state = play(state, [choose((0, 0)), choose((2, 0))])
    assert state["phase"] == "choose" and len(state["cut"]) == 7
    before, state = state, play(state, [choose((4, 0))])
    assert state["phase"] == "cut" and state["round"] == 2 and state["cut"] is None
    assert RULES.describe(before, choose((4, 0)), state, 0, 0)[-1] == \
        "Round 2 of 3: {seat:0} cuts the rest of the cake."
    rest = squares()[3:]
    state = play(state, [cut(rest), choose((0, 2)), choose((2, 2)), choose((4, 2))])
    state = play(state, [cut(squares()[6:]), choose((0, 4)), choose((2, 4))])
    assert not RULES.is_over(state)
    state = play(state, [choose((4, 4))])
    assert RULES.is_over(state) and state["round"] == 3
    # a candle only for groups where the player's berries are strictly more
    mine = sum(1 for h in state["history"] if h["berries"][0] > h["berries"][1])
    assert state["candles"] == [mine, 0]


def _solo_final(candles, team=STRAWBERRY):
    state = RULES.setup({"mode": "solo", "team": team}, 1)
    state = copy.deepcopy(state)
    state["candles"][team] = candles
    state["eaten"] = [True] * 36
    state["phase"] = "over"
    return state


@pytest.mark.parametrize("candles,won,rating", [
    (1, False, 0), (2, False, 0), (3, False, 0), (4, False, 0),
    (5, True, 1), (6, True, 2), (7, True, 3), (8, True, 4), (9, True, 5),
])
def test_solo_score_sheet(candles, won, rating):
    result = RULES.result(_solo_final(candles))
    assert result["decided_by"] == "solo" and result["score"] == candles
    assert result["won"] is won and result["winners"] == ([0] if won else [])
    assert result["rating"] == SOLO_RATINGS[rating][1]


def test_solo_rating_scales_with_the_groups_of_a_map():
    """On a map of 18 groups, 10 candles count as 5 of 9 (floor(10 * 9 / 18))."""
    cells = [[x, y] for y in range(6) for x in range(12)]
    data = {"cells": cells, "tiles": {"random": 12, "berries": [[12, 8, 6, 4], [12, 8, 6, 4]]},
            "mystery": [[4, 2, 0, 0], [4, 2, 0, 0]]}
    state = RULES.setup({"mode": "solo", "map": data}, 1)
    assert state["rounds"] == 6
    state["candles"][0] = 9
    state["phase"] = "over"
    assert not RULES.result(state)["won"]
    state["candles"][0] = 10
    assert RULES.result(state)["won"] and RULES.result(state)["rating"] == SOLO_RATINGS[1][1]


# ---------------------------------------------------------------- views and lines

def test_views_show_the_contract_keys_and_never_the_pile_order():
    state = play(new(), [cut(squares())])
    view = RULES.view(state, 0)
    for key in ("cells", "cut", "candles", "round", "rounds", "cutter", "chooser",
                "team_of_seat", "mystery_revealed", "mystery_face_down", "variant", "mode",
                "to_move", "legal_moves", "is_over", "result", "seat"):
        assert key in view
    assert view["cells"][0] == {"x": 0, "y": 0, "tile": view["cells"][0]["tile"],
                                "eaten": False, "mystery": None}
    assert view["mystery_face_down"] == 6 and view["cut"][0] == [[0, 0], [1, 0], [0, 1], [1, 1]]
    other = copy.deepcopy(state)
    other["pile"].reverse()
    assert other["pile"] != state["pile"]
    assert RULES.views(other, [None, 0, 1]) == RULES.views(state, [None, 0, 1])


def test_describe_lines():
    state = new()
    after = RULES.apply(state, 1, cut(squares()))
    assert RULES.describe(state, cut(squares()), after, 1, 0) == [
        "{seat:1} cut the cake into 9 groups."]
    eaten = RULES.apply(after, 0, choose((4, 4)))
    lines = RULES.describe(after, choose((4, 4)), eaten, 0, None)
    assert lines[-1] == "Round 2 of 9: {seat:0} cuts, {seat:1} chooses."


def test_summary_counts_berries_eaten_per_team():
    state = set_tiles(new(), {(0, 0): [0, 3], (1, 0): [0, 1], (0, 1): [1, 4], (1, 1): [1, 2]})
    state = play(state, [cut(squares()), choose((0, 0))])
    for seat in (0, 1):
        assert [i["value"] for i in RULES.summary(state, seat)][1:] == \
            [[0, 1][seat], 4, 6]
    assert RULES.summary(state, 0)[0]["value"] == "Strawberry"
    assert [i["key"] for i in RULES.summary(state, 1)] == \
        ["team", "candles", "strawberries", "blueberries"]


def test_cutter_legal_moves_are_a_fixed_sample_of_valid_cuts():
    state = new()
    moves = RULES.legal_moves(state, 1)
    assert 1 < len(moves) <= 12 and RULES.legal_moves(state, 1) == moves
    assert len({json.dumps(m) for m in moves}) == len(moves)
    for move in moves:
        RULES.apply(state, 1, move)
    assert RULES.legal_moves(state, 0) == [] and RULES.legal_moves(state, None) == []


# ---------------------------------------------------------------- maps

def mix(cells, random_tiles=0, mystery=(1, 0, 0, 0)):
    """A tile mix for ``len(cells)`` cells: Random tiles, then 1-berry tiles split evenly."""
    n = len(cells) - random_tiles
    return {"cells": [list(c) for c in cells],
            "tiles": {"random": random_tiles, "berries": [[n // 2, 0, 0, 0], [n // 2, 0, 0, 0]]},
            "mystery": [list(mystery), list(mystery)]}


RING = [(x, y) for x in range(4) for y in range(4) if x in (0, 3) or y in (0, 3)]
COMB = [(0, y) for y in range(5)] + [(1, 0), (1, 2), (1, 4)]  # teeth by the 1st, 3rd, 5th


def test_the_standard_board_and_a_ring_pass():
    assert RULES.map_check(STANDARD_MAP) == []
    assert RULES.map_check({"cells": STANDARD_MAP["cells"]}) == []  # the standard mix
    assert len(RING) == 12 and RULES.map_check(mix(RING, 2)) == []
    state = RULES.setup({"players": 2, "map": mix(RING, 2)}, 1)
    assert state["rounds"] == 3


def test_an_island_of_six_cells_is_refused():
    cells = [(x, y) for x in range(6) for y in range(6)] + [(8, 0), (9, 0), (10, 0)]
    six = [(5, 2), (6, 2), (7, 2), (5, 3), (6, 3), (7, 3)]
    cells = [(x, y) for x in range(4) for y in range(3)] + six
    problems = RULES.map_check(mix(cells))
    assert "The island at (5,2) has 6 cells: every island needs a multiple of 4 cells." \
        in problems
    assert problems[0] == ("The map has 18 cells: the cake needs a multiple of 4 cells, as "
                           "every group has 4.")


def test_a_comb_of_eight_cells_is_refused():
    assert len(COMB) == 8
    problems = RULES.map_check(mix(COMB))
    assert problems == ["The island at (0,0) cannot be cut into groups of 4 connected cells, "
                        "although its 8 cells are a multiple of 4: change its shape."]
    with pytest.raises(IllegalMove) as err:
        RULES.setup({"players": 2, "map": mix(COMB)}, 1)
    assert err.value.code == "bad_options"
    assert err.value.message == f"This map cannot be played: {problems[0]}"


def test_a_map_with_islands_plays_and_is_kept_in_the_game():
    islands = [(x, y) for x in range(8) for y in range(6)] + \
        [(x, y) for x in range(10, 14) for y in range(2)] + RING_SHIFTED
    data = mix(islands, 4, (2, 0, 0, 0))
    data["name"] = "Islands"
    assert RULES.map_check(data) == [] and len(islands) == 68
    state = RULES.setup({"players": 2, "map": data}, 5)
    assert state["rounds"] == 17
    data["cells"].pop()  # editing the map later never changes a running game
    assert len(state["map"]["cells"]) == 68
    rng = random.Random(5)
    while not RULES.is_over(state):
        seat = RULES.to_move(state)[0]
        state = RULES.apply(state, seat, rng.choice(RULES.legal_moves(state, seat)))
    assert len(state["history"]) == 17 and RULES.view(state, 0)["map_name"] == "Islands"


RING_SHIFTED = [(x + 20, y + 10) for x, y in RING]


@pytest.mark.parametrize("data,words", [
    ("texas", "must be an object"),
    ({"cells": "all"}, "a list of [x, y] pairs"),
    ({"cells": [[0, 0, 0]]}, "Each cell is [x, y] in whole numbers"),
    ({"cells": [[0.5, 0]]}, "Each cell is [x, y] in whole numbers"),
    ({"cells": [[0, 0], [0, 0]]}, "Cell (0,0) is listed twice."),
    ({"cells": [[0, 5000]]}, "too far out"),
    ({"cells": [[x, y] for x in range(30) for y in range(30)]}, "at most 400"),
])
def test_malformed_maps_are_explained(data, words):
    problems = RULES.map_check(data)
    assert problems and words in problems[0]


def test_tile_mixes_must_add_up_and_be_fair():
    cells = [(x, y) for x in range(4) for y in range(2)]
    assert RULES.map_check(mix(cells)) == []
    data = mix(cells)
    data["tiles"]["berries"] = [[3, 0, 0, 0], [4, 0, 0, 0]]
    data["tiles"]["random"] = 1
    assert "Strawberry and Blueberry must get the same berry tiles" in \
        " ".join(RULES.map_check(data))
    data = mix(cells, 0)
    data["tiles"]["random"] = 2
    assert RULES.map_check(data) == [
        "The tile mix has 10 tiles but the map has 8 cells: there must be exactly one tile per "
        "cell."]
    data = mix(cells, 4, (1, 0, 0, 0))
    assert RULES.map_check(data) == [
        "There are 2 Mystery tiles but 4 Random tiles: every Random tile needs a Mystery tile "
        "to reveal."]
    data = mix(cells, 2)
    data["mystery"] = [[1, 0, 0, 0], [0, 1, 0, 0]]
    assert RULES.map_check(data) == ["Strawberry and Blueberry must get the same Mystery tiles."]
    data = {"cells": [list(c) for c in cells]}
    assert "must say its tile mix" in RULES.map_check(data)[0]
    data = mix(cells)
    data["tiles"] = {"random": 0, "berries": [[1, 2, 3], [1, 2, 3]]}
    assert "\"tiles\" must be" in RULES.map_check(data)[0]
