"""First Past the Post rules: the rulebook's examples and the rulings, as concrete positions."""

import copy
import json
import random
from collections import Counter

import pytest

from games.engine import IllegalMove
from games.engine.fptp import FPTP, hand_size
from games.engine.fptp_count import count_constituencies, rank_by_drawoff
from games.engine.fptp_data import BUDGET_CARDS, DEFAULT_MAP, NEWS, NEWS_DECK
from games.engine.fptp_map import board_for

R = FPTP

# A small map made for the gerrymander conditions (every condition has a hex that breaks it
# and nothing else).  Leeds is a chain City - X - rural - Small Town, so X is the only link
# from its City to the rest; Z (London) touches two green constituencies, York and Hull.
TESTLAND = {
    "name": "Testland",
    "hexes": [
        {"q": 0, "r": 0, "constituency": "Leeds", "type": "city"},
        {"q": 1, "r": 0, "constituency": "Leeds", "type": "rural"},  # X
        {"q": 2, "r": 0, "constituency": "Leeds", "type": "rural"},
        {"q": 3, "r": 0, "constituency": "Leeds", "type": "small_town"},
        {"q": 0, "r": 1, "constituency": "York", "type": "city"},
        {"q": 1, "r": 1, "constituency": "York", "type": "rural"},
        {"q": 2, "r": 1, "constituency": "London", "type": "rural"},  # Z
        {"q": 1, "r": 2, "constituency": "London", "type": "rural"},
        {"q": 2, "r": 2, "constituency": "London", "type": "city"},
        {"q": 3, "r": 2, "constituency": "London", "type": "small_town"},
        {"q": 2, "r": 3, "constituency": "London", "type": "rural"},
        {"q": 3, "r": 1, "constituency": "Hull", "type": "city"},
        {"q": 4, "r": 1, "constituency": "Hull", "type": "rural"},
        {"q": 4, "r": 0, "constituency": "Hull", "type": "rural"},
        {"q": 4, "r": -1, "constituency": "Perth", "type": "city"},
        {"q": 5, "r": -1, "constituency": "Perth", "type": "rural"},
        {"q": -6, "r": 0, "constituency": "Derry", "type": "city"},
        {"q": -5, "r": 0, "constituency": "Derry", "type": "rural"},
        {"q": -7, "r": 1, "constituency": "Belfast", "type": "rural"},
        {"q": -6, "r": 1, "constituency": "Belfast", "type": "city"},
    ],
    "constituencies": {
        "Leeds": {"nation": "England", "colour": "yellow"},
        "York": {"nation": "England", "colour": "green"},
        "London": {"nation": "England", "colour": "grey"},
        "Hull": {"nation": "England", "colour": "green"},
        "Perth": {"nation": "Scotland", "colour": "orange"},
        "Derry": {"nation": "Northern Ireland", "colour": "yellow"},
        "Belfast": {"nation": "Northern Ireland", "colour": "grey"},
    },
    "gerrymander_hexes": {"green": 2, "orange": 2, "yellow": 2, "grey": 2},
}

# The rulebook's Alternative Vote picture: one constituency of 9 hexes ("Middle").
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

RED, BLUE, YELLOW = 0, 1, 2  # the rulebook's colours for the AV example (seats 0, 1, 2)


# ---------------------------------------------------------------- helpers

def start(players=3, news=False, first_player=0, seed=1, **extra):
    return R.setup({"players": players, "news": news, "first_player": first_player, **extra},
                   seed)


def idx(state, q, r):
    return board_for(state["map"]).index[(q, r)]


def hexes_of(state, name):
    board = board_for(state["map"])
    k = board.const_index[name]
    return [i for i, c in enumerate(state["const_of"]) if c == k]


def coords(state, i):
    return list(board_for(state["map"]).coords[i])


def rig(state, hands=None, top=()):
    """A copy of ``state`` where the seats in ``hands`` hold exactly those cards and ``top``
    lies on top of the budget pile (first item drawn first).  Every budget card stays in the
    game: cards moved away refill other hands to their old size or go under the pile."""
    s = copy.deepcopy(state)
    hands = hands or {}
    wanted = {c for h in hands.values() for c in h} | set(top)
    sizes = [len(h) for h in s["hands"]]
    for seat in range(s["players"]):
        s["hands"][seat] = [c for c in s["hands"][seat] if c not in wanted]
    s["budget_pile"] = [c for c in s["budget_pile"] if c not in wanted]
    s["budget_discard"] = [c for c in s["budget_discard"] if c not in wanted]
    for seat, cards in hands.items():
        s["budget_pile"][:0] = s["hands"][seat]
        s["hands"][seat] = list(cards)
    for seat in range(s["players"]):
        while seat not in hands and len(s["hands"][seat]) < sizes[seat]:
            s["hands"][seat].append(s["budget_pile"].pop(0))
    s["budget_pile"].extend(reversed(list(top)))
    return s


def with_news(state, kind, pile=None):
    """A copy of ``state`` whose active player has just drawn the news card ``kind``
    (``pile``: the news pile from the top down, the other cards go to the discard pile)."""
    s = copy.deepcopy(state)
    deck = [c["kind"] for c in NEWS_DECK for _ in range(c["count"])]
    deck.remove(kind)
    for k in s["news_discard"] + [k for p in s["perms"] for k in p]:
        deck.remove(k)
    rest = list(pile) if pile is not None else deck
    for k in rest:
        deck.remove(k)
    s["news_on"] = True
    s["news_card"] = kind
    s["news_pile"] = list(reversed(rest))
    s["news_known"] = 0
    s["news_discard"] += deck
    card = NEWS[kind]
    recampaign = card["type"] == "action" and card["effect"]["action"] == "recampaign"
    s["step"] = "campaign" if recampaign else "news"
    return s


def claim(state, owners):
    """A copy with vote counters: ``owners`` maps hex index -> stack (list) or seat."""
    s = copy.deepcopy(state)
    for i, who in owners.items():
        s["stacks"][i] = list(who) if isinstance(who, list) else [who]
    return s


def campaign(state, q, r, bids):
    """Campaign for (q, r) by the active player, then every bid in ``bids`` {seat: card}."""
    s = R.apply(state, state["active"], {"type": "campaign", "hex": [q, r]})
    for seat, card in bids.items():
        s = R.apply(s, seat, {"type": "bid", "card": card})
    return s


def lines(before, move, after, seat, viewer):
    return R.describe(before, move, after, seat, viewer)


def all_lines(before, move, after, seat, viewer):
    return "\n".join(lines(before, move, after, seat, viewer))


def budget_cards(state):
    cards = list(state["budget_pile"]) + list(state["budget_discard"])
    cards += [c for h in state["hands"] for c in h] + [b for b in state["bids"] if b is not None]
    return Counter(cards)


def refused(code, state, seat, move):
    with pytest.raises(IllegalMove) as err:
        R.apply(state, seat, move)
    assert err.value.code == code, err.value.message
    return err.value.message


# ---------------------------------------------------------------- setup and options

def test_metadata_and_options():
    assert R.name == "fptp" and R.title == "First Past the Post"
    assert (R.players_min, R.players_max) == (2, 5)
    assert R.simultaneous and R.imperfect_information
    assert [m.key for m in R.modes] == ["2", "3", "4", "5"]
    assert R.mode("4").options == {"players": 4}
    opts = {o.key: o for o in R.options}
    assert [v for v, _ in opts["variant"].choices] == ["fptp", "av"]
    assert opts["variant"].default == "fptp"
    assert [v for v, _ in opts["news"].choices] == [True, False] and opts["news"].default
    assert R.anytime_moves == ("leave",)


@pytest.mark.parametrize("options, words", [
    ({"players": 1}, "2 to 5 players"),
    ({"players": 6}, "2 to 5 players"),
    ({"players": 3, "variant": "stv"}, "Alternative Vote"),
    ({"players": 3, "news": "yes"}, "News cards"),
    ({"players": 3, "first_player": 3}, "first player"),
    ({"players": 3, "map": {"name": "x"}}, "This map cannot be played"),
])
def test_bad_options_are_refused(options, words):
    with pytest.raises(IllegalMove) as err:
        R.setup(options, 1)
    assert err.value.code == "bad_options" and words in err.value.message


def test_setup_deals_players_plus_two_and_draws_the_first_player_from_the_seed():
    firsts = set()
    for seed in range(20):
        s = R.setup({"players": 4}, seed)
        assert [len(h) for h in s["hands"]] == [6, 6, 6, 6]
        assert budget_cards(s) == Counter(BUDGET_CARDS)
        firsts.add(s["active"])
        assert s["active"] == s["first_player"]
    assert firsts == {0, 1, 2, 3}
    assert start(players=4, first_player=2)["active"] == 2


def test_news_deck_is_32_cards_of_the_ruling():
    assert sum(c["count"] for c in NEWS_DECK) == 32
    assert len({c["kind"] for c in NEWS_DECK}) == len(NEWS_DECK)
    perms = [c for c in NEWS_DECK if c["type"] == "permanent"]
    assert sum(c["count"] for c in perms) == 18
    s = R.setup({"players": 3}, 5)
    assert len(s["news_pile"]) + (s["news_card"] is not None) == 32
    assert R.setup({"players": 3, "news": False}, 5)["news_pile"] == []


def test_the_map_is_kept_in_the_state():
    data = copy.deepcopy(TESTLAND)
    s = start(map=data)
    data["hexes"][0]["type"] = "rural"  # a map edited later never changes a running game
    assert s["map"]["hexes"][0]["type"] == "city"
    assert json.loads(json.dumps(s)) == s


# ---------------------------------------------------------------- campaigns and bids

def test_campaign_only_on_an_empty_hex():
    s = start()
    i = idx(s, 0, 11)
    s = claim(s, {i: 1})
    refused("already_won", s, 0, {"type": "campaign", "hex": [0, 11]})
    refused("off_map", s, 0, {"type": "campaign", "hex": [40, 40]})
    refused("bad_hex", s, 0, {"type": "campaign", "hex": "London"})
    assert {"type": "campaign", "hex": [0, 11]} not in R.legal_moves(s, 0)
    assert {"type": "campaign", "hex": [0, 10]} in R.legal_moves(s, 0)
    refused("not_your_turn", s, 1, {"type": "campaign", "hex": [0, 10]})


def test_sealed_bids_are_simultaneous_and_secret_until_the_reveal():
    s = rig(start(), hands={0: [10, 20, 30, 40, 45], 1: [5, 15, 25, 35, 44],
                            2: [1, 2, 3, 4, 50]})
    s = R.apply(s, 0, {"type": "campaign", "hex": [0, 10]})
    assert R.to_move(s) == [0, 1, 2]
    before = s
    s = R.apply(s, 1, {"type": "bid", "card": 35})
    assert R.to_move(s) == [0, 2]
    refused("already_bid", s, 1, {"type": "bid", "card": 25})
    assert "already chosen your card" in refused("already_bid", s, 1,
                                                 {"type": "bid", "card": 25})
    for viewer in (None, 0, 2):
        view = R.view(s, viewer)
        assert view["committed"] == [1] and view["seats"][1]["committed"]
        assert view["my_bid"] is None and view["last_reveal"] is None
        assert "35" not in all_lines(before, {"type": "bid", "card": 35}, s, 1, viewer)
        assert all_lines(before, {"type": "bid", "card": 35}, s, 1, viewer) == \
            "{seat:1} has chosen a card."
    assert R.view(s, 1)["my_bid"] == 35
    assert all_lines(before, {"type": "bid", "card": 35}, s, 1, 1) == "{seat:1} chose 35."
    s = R.apply(s, 0, {"type": "bid", "card": 20})
    after = R.apply(s, 2, {"type": "bid", "card": 4})
    rev = R.view(after, None)["last_reveal"]
    assert rev["bids"] == [20, 35, 4] and rev["winner"] == 1 and rev["hex"] == [0, 10]
    text = all_lines(s, {"type": "bid", "card": 4}, after, 2, None)
    assert "Cards revealed: {seat:0} 20, {seat:1} 35, {seat:2} 4; {seat:1} wins the hex." in text
    assert after["stacks"][idx(after, 0, 10)] == [1, 0, 2]
    # every used card is discarded face up
    assert after["budget_discard"][-3:] == [20, 35, 4]
    assert budget_cards(after) == Counter(BUDGET_CARDS)


def test_a_player_without_cards_cannot_campaign():
    s = rig(start(), hands={0: [10, 20, 30, 40, 45], 1: [], 2: [1, 2, 3, 4, 50]})
    s = R.apply(s, 0, {"type": "campaign", "hex": [0, 10]})
    assert R.to_move(s) == [0, 2]
    refused("no_cards", s, 1, {"type": "bid", "card": 7})


def test_sway_adds_permanent_bonuses():
    s = rig(start(), hands={0: [10, 20, 30, 40, 45], 1: [5, 15, 25, 35, 44],
                            2: [1, 2, 3, 4, 50]})
    s["perms"][1] = ["central_power", "up_the_english"]  # +8 in London, +5 in England
    s["perms"][2] = ["city_scandal"]  # -4 in City hexes
    before = R.apply(s, 0, {"type": "campaign", "hex": [0, 11]})  # London's City
    before = R.apply(before, 0, {"type": "bid", "card": 40})
    before = R.apply(before, 2, {"type": "bid", "card": 50})
    after = R.apply(before, 1, {"type": "bid", "card": 35})
    rev = after["last_reveal"]
    assert rev["sways"] == [40, 48, 46] and rev["winner"] == 1
    assert "{seat:1} 35 (+13 = 48), {seat:2} 50 (-4 = 46)" in \
        all_lines(before, {"type": "bid", "card": 35}, after, 1, 0)


def test_tie_with_the_active_player_goes_to_the_active_player():
    # seat 1 holds Up the English (+5 in England): 15 + 5 ties the active player's 20
    s = rig(start(), hands={0: [3, 20, 30, 40, 45], 1: [5, 15, 25, 35, 44],
                            2: [1, 2, 11, 4, 50]})
    s["perms"][1] = ["up_the_english"]
    pile = list(s["budget_pile"])
    before = campaign(s, 0, 10, {0: 20, 1: 15})
    after = R.apply(before, 2, {"type": "bid", "card": 11})
    rev = after["last_reveal"]
    assert rev["sways"] == [20, 20, 11] and rev["winner"] == 0 and rev["drawoff"] == []
    assert after["stacks"][idx(after, 0, 10)] == [0, 1, 2]
    # no draw-off card left the pile: only the next active player's draw (seat 1 draws 1)
    assert len(after["budget_pile"]) == len(pile) - 1
    text = all_lines(before, {"type": "bid", "card": 11}, after, 2, None)
    assert "{seat:1} 15 (+5 = 20)" in text
    assert "{seat:0} and {seat:1} tied on 20: the active player wins ties." in text


def test_tie_without_the_active_player_is_a_draw_off_from_the_budget_pile():
    s = rig(start(), hands={0: [3, 30, 40, 45, 46], 1: [5, 15, 25, 35, 44],
                            2: [1, 2, 20, 4, 50]}, top=[12, 41])
    s["perms"][1] = ["up_the_english"]
    before = campaign(s, 0, 10, {0: 3, 1: 15})
    after = R.apply(before, 2, {"type": "bid", "card": 20})
    rev = after["last_reveal"]
    assert rev["sways"] == [3, 20, 20]
    # seat 1 (first after the active player) draws 12, seat 2 draws 41: seat 2 wins
    assert rev["drawoff"] == [[[1, 12], [2, 41]]]
    assert rev["winner"] == 2 and after["stacks"][idx(after, 0, 10)][0] == 2
    text = all_lines(before, {"type": "bid", "card": 20}, after, 2, 0)
    assert "{seat:1} and {seat:2} tied on 20: a draw-off decides." in text
    assert "Draw-off: {seat:1} 12, {seat:2} 41." in text
    # the draw-off cards are discarded with the bids
    assert after["budget_discard"][-5:] == [3, 15, 20, 12, 41]
    assert budget_cards(after) == Counter(BUDGET_CARDS)


def test_repeated_draw_offs_while_tied():
    # The published deck has 50 different cards, so a draw-off can only be tied again with a
    # deck that repeats values; the rule (draw again while tied) is the same.
    cards = iter([30, 30, 10, 40])
    rounds = []
    assert rank_by_drawoff([1, 2], lambda: next(cards), rounds) == [2, 1]
    assert rounds == [[[1, 30], [2, 30]], [[1, 10], [2, 40]]]
    # three players: the two tied for the highest card draw again for the first place
    cards = iter([5, 20, 20, 3, 9])
    rounds = []
    assert rank_by_drawoff([0, 1, 2], lambda: next(cards), rounds, full=False) == [2, 1, 0]
    assert rounds == [[[0, 5], [1, 20], [2, 20]], [[1, 3], [2, 9]]]
    # a tie below the first place is ordered only for a full ranking (the AV stack)
    cards = iter([25, 20, 20, 3, 9])
    rounds = []
    assert rank_by_drawoff([0, 1, 2], lambda: next(cards), rounds, full=False) == [0, 1, 2]
    assert len(rounds) == 1
    cards = iter([25, 20, 20, 3, 9])
    rounds = []
    assert rank_by_drawoff([0, 1, 2], lambda: next(cards), rounds, full=True) == [0, 2, 1]
    assert len(rounds) == 2


def test_av_stack_ranks_every_campaign_ties_below_the_top_by_draw_off():
    hands = {0: [3, 30, 40, 45, 46], 1: [5, 15, 25, 35, 44], 2: [1, 2, 20, 4, 50]}
    for variant, stack, drawoff in (("av", [0, 2, 1], [[[1, 8], [2, 33]]]),
                                    ("fptp", [0, 1, 2], [])):
        s = rig(start(variant=variant), hands=hands, top=[8, 33])
        s["perms"][1] = ["up_the_english"]
        s = campaign(s, 0, 10, {0: 45, 1: 15, 2: 20})
        rev = s["last_reveal"]
        # seats 1 and 2 tie for second place on 20: in AV a draw-off orders them; in the
        # FPTP variant no card is drawn for a tie below the top (turn order instead)
        assert rev["sways"] == [45, 20, 20] and rev["drawoff"] == drawoff
        assert rev["ranking"] == stack and s["stacks"][idx(s, 0, 10)] == stack


def test_hand_size_is_players_still_in_plus_two_drawn_at_the_start_of_a_turn():
    s = rig(start(players=4), hands={0: [10, 20, 30, 40, 45, 46], 1: [5, 15, 25, 35, 44, 43],
                                     2: [1, 2, 3, 4, 50, 49], 3: [6, 7, 8, 9, 11, 12]})
    assert hand_size(s) == 6
    before = campaign(s, 0, 10, {0: 10, 1: 5, 2: 1})
    after = R.apply(before, 3, {"type": "bid", "card": 6})
    assert after["active"] == 1 and len(after["hands"][1]) == 6
    assert [len(h) for h in after["hands"]] == [5, 6, 5, 5]
    drawn = after["hands"][1][-1]
    assert "{seat:1} drew 1 budget card." in lines(before, {"type": "bid", "card": 6}, after,
                                                  3, 0)
    assert f"{{seat:1}} drew {drawn}." in lines(before, {"type": "bid", "card": 6}, after, 3, 1)
    assert R.view(after, 0)["draw_to"] == 6


def test_budget_discard_pile_is_reshuffled_when_the_draw_pile_runs_out():
    s = start(players=2)
    # move the whole draw pile to the discard pile
    s["budget_discard"] = list(s["budget_pile"])
    s["budget_pile"] = []
    before = campaign(s, 0, 10, {0: s["hands"][0][0]})
    after = R.apply(before, 1, {"type": "bid", "card": s["hands"][1][0]})
    assert len(after["hands"][1]) == 4
    assert after["budget_discard"] == []
    assert budget_cards(after) == Counter(BUDGET_CARDS)
    text = all_lines(before, {"type": "bid", "card": s["hands"][1][0]}, after, 1, 0)
    assert "shuffled into a new draw pile" in text


# ---------------------------------------------------------------- news cards

def test_permanent_card_must_be_given_and_a_third_replaces_one_chosen_by_the_giver():
    s = with_news(start(), "city_scandal")
    s["perms"][2] = ["rural_gaffe", "central_power"]
    moves = R.legal_moves(s, 0)
    assert {"type": "give", "seat": 0} in moves and {"type": "give", "seat": 1} in moves
    assert {"type": "give", "seat": 2, "discard": "rural_gaffe"} in moves
    assert {"type": "give", "seat": 2, "discard": "central_power"} in moves
    assert {"type": "give", "seat": 2} not in moves
    assert {"type": "news", "accept": False} not in moves  # not a "You may" card
    refused("choose_discard", s, 0, {"type": "give", "seat": 2})
    refused("bad_discard", s, 0, {"type": "give", "seat": 2, "discard": "irish_glory"})
    refused("nothing_to_discard", s, 0, {"type": "give", "seat": 1, "discard": "rural_gaffe"})
    refused("wrong_move", s, 0, {"type": "campaign", "hex": [0, 10]})
    move = {"type": "give", "seat": 2, "discard": "rural_gaffe"}
    after = R.apply(s, 0, move)
    assert after["perms"][2] == ["central_power", "city_scandal"]
    assert after["news_discard"][-1] == "rural_gaffe"
    assert after["step"] == "campaign" and after["news_card"] is None
    assert R.view(after, 1)["seats"][2]["permanents"] == ["central_power", "city_scandal"]
    assert all_lines(s, move, after, 0, 1) == \
        "{seat:0} gave City Scandal to {seat:2}, who discards Rural Gaffe."


def test_a_declined_you_may_card_goes_to_the_bottom_of_the_news_pile():
    s = with_news(start(), "clean_slate", pile=["floods", "irish_glory"])
    s["perms"][1] = ["rural_gaffe"]
    assert {"type": "news", "accept": False} in R.legal_moves(s, 0)
    refused("use_card", s, 0, {"type": "news", "accept": True})
    after = R.apply(s, 0, {"type": "news", "accept": False})
    assert after["news_pile"] == ["clean_slate", "irish_glory", "floods"]  # last = top
    assert after["news_discard"] == s["news_discard"]
    view = R.view(after, 2)
    assert view["news_pile"] == 3 and view["news_pile_bottom"] == ["clean_slate"]
    assert "goes to the bottom of the news pile" in all_lines(
        s, {"type": "news", "accept": False}, after, 0, 2)
    # the declined card comes back only after the cards that were above it
    drawn = []
    state = after
    for _ in range(3):
        empty = next(i for i, st in enumerate(state["stacks"]) if not st)
        state = R.apply(state, state["active"], {"type": "campaign", "hex": coords(state, empty)})
        for seat in R.to_move(state):
            state = R.apply(state, seat, {"type": "bid", "card": state["hands"][seat][0]})
        drawn.append(state["news_card"])
        if state["step"] == "news":  # pass it on: keep a Permanent, leave an Action unused
            move = {"type": "give", "seat": state["active"]} \
                if NEWS[state["news_card"]]["type"] == "permanent" else \
                {"type": "news", "accept": False}
            state = R.apply(state, state["active"], move)
    assert drawn == ["floods", "irish_glory", "clean_slate"]


def test_the_news_pile_is_never_reshuffled():
    s = with_news(start(players=2), "irish_glory", pile=[])
    s = R.apply(s, 0, {"type": "give", "seat": 1})
    discard = list(s["news_discard"])
    assert s["news_pile"] == [] and len(discard) == 31
    s = campaign(s, 0, 10, {0: s["hands"][0][0], 1: s["hands"][1][0]})
    # the next turn draws no news card although 31 lie in the discard pile
    assert s["active"] == 1 and s["news_card"] is None and s["step"] == "campaign"
    assert s["news_discard"] == discard and s["news_pile"] == []


def test_pay_cards_need_a_card_of_at_least_the_cost():
    s = rig(with_news(start(), "gerrymander_green"), hands={0: [5, 27, 28, 40, 12]})
    moves = R.legal_moves(s, 0)
    assert {"type": "pay", "card": 28} in moves and {"type": "pay", "card": 40} in moves
    assert {"type": "pay", "card": 27} not in moves
    assert "costs a budget card of at least 28" in refused("too_low", s, 0,
                                                          {"type": "pay", "card": 27})
    refused("not_in_hand", s, 0, {"type": "pay", "card": 29})
    after = R.apply(s, 0, {"type": "pay", "card": 28})
    assert after["step"] == "gerrymander" and 28 not in after["hands"][0]
    assert after["budget_discard"][-1] == 28 and R.view(after, 1)["paid"] == 28
    placements = [m for m in R.legal_moves(after, 0) if m["type"] == "gerrymander"]
    assert placements and all(m["colour"] == "green" for m in placements)


def test_clean_slate_discards_every_permanent_card_of_one_player():
    s = rig(with_news(start(), "clean_slate"), hands={0: [5, 31, 28, 40, 12]})
    assert {"type": "pay", "card": 28} not in R.legal_moves(s, 0)  # nobody holds one: no pay
    refused("cannot_use", s, 0, {"type": "pay", "card": 31})
    s["perms"][2] = ["central_power", "up_the_english"]
    s = R.apply(s, 0, {"type": "pay", "card": 31})
    assert R.legal_moves(s, 0) == [{"type": "clean_slate", "seat": 2}, {"type": "leave"}]
    refused("no_permanents", s, 0, {"type": "clean_slate", "seat": 1})
    after = R.apply(s, 0, {"type": "clean_slate", "seat": 2})
    assert after["perms"][2] == [] and after["news_discard"][-3:] == [
        "central_power", "up_the_english", "clean_slate"]


def test_floods_and_riots_re_campaign_a_won_hex_with_plus_5_for_its_holder():
    s = with_news(start(), "floods", pile=["riots"])
    rural, city = idx(s, 0, 10), idx(s, 0, 11)
    s = claim(s, {rural: 2, city: 1})
    s = rig(s, hands={0: [10, 20, 30, 40, 45], 1: [5, 15, 25, 35, 44], 2: [1, 2, 3, 4, 50]})
    assert {"type": "campaign", "hex": [0, 10]} in R.legal_moves(s, 0)
    assert {"type": "campaign", "hex": [0, 11]} not in R.legal_moves(s, 0)
    assert "only lets you campaign again for a Rural hex" in refused(
        "already_won", s, 0, {"type": "campaign", "hex": [0, 11]})
    move = {"type": "campaign", "hex": [0, 10]}
    after = R.apply(s, 0, move)
    assert after["news_discard"][-1] == "floods" and after["recampaign"]["holder"] == 2
    assert "held by {seat:2} (+5 sway for {seat:2} there)" in all_lines(s, move, after, 0, 1)
    after = R.apply(after, 0, {"type": "bid", "card": 30})
    after = R.apply(after, 1, {"type": "bid", "card": 5})
    after = R.apply(after, 2, {"type": "bid", "card": 50})
    assert after["last_reveal"]["sways"] == [30, 5, 55]
    assert after["stacks"][rural][0] == 2
    # declining Floods: campaigning for an empty hex sends it to the bottom of the pile
    s2 = R.apply(s, 0, {"type": "campaign", "hex": [1, 10]})
    assert s2["news_pile"][0] == "floods" and s2["recampaign"] is None
    # Riots: a won City
    s3 = with_news(s, "riots", pile=[])
    assert {"type": "campaign", "hex": [0, 11]} in R.legal_moves(s3, 0)
    assert {"type": "campaign", "hex": [0, 10]} not in R.legal_moves(s3, 0)


def test_urbanisation_swaps_the_counters_of_a_rural_hex_and_its_city():
    s = with_news(start(), "urbanisation")
    rural, city, other = idx(s, 0, 10), idx(s, 0, 11), idx(s, 1, 11)
    assert R.legal_moves(s, 0) == [{"type": "news", "accept": False}, {"type": "leave"}]
    s = claim(s, {rural: [2, 0], city: [1, 2], other: 1})
    moves = R.legal_moves(s, 0)
    assert {"type": "urbanise", "rural": [0, 10], "city": [0, 11]} in moves
    assert {"type": "urbanise", "rural": [1, 11], "city": [0, 11]} not in moves  # same owner
    refused("same_counter", s, 0, {"type": "urbanise", "rural": [1, 11], "city": [0, 11]})
    refused("not_same_constituency", s, 0,
            {"type": "urbanise", "rural": [0, 10], "city": [0, 9]})
    after = R.apply(s, 0, {"type": "urbanise", "rural": [0, 10], "city": [0, 11]})
    assert after["stacks"][city] == [2, 0] and after["stacks"][rural] == [1, 2]
    assert after["news_discard"][-1] == "urbanisation" and after["step"] == "campaign"


# ---------------------------------------------------------------- gerrymandering

def gerrymander_ready(colour_card="powermander"):
    s = rig(with_news(start(map=TESTLAND), colour_card), hands={0: [33, 2, 3, 4, 5]})
    return R.apply(s, 0, {"type": "pay", "card": 33})


@pytest.mark.parametrize("hex_, colour, code, words", [
    ((3, 0), "green", "not_rural", "goes on a Rural hex; this hex is a Small Town"),
    ((2, 3), "green", "not_next_to_colour", "must go next to a green hex"),
    ((1, 1), "green", "same_colour", "already green"),
    ((4, 0), "orange", "across_border", "across a national border"),
    ((1, 0), "green", "cuts_off_city", "cut 2 hexes of Leeds off from its City"),
    ((2, 1), "green", "joins_two", "touches two green constituencies (York and Hull)"),
])
def test_each_gerrymander_condition_is_refused_on_its_own(hex_, colour, code, words):
    s = gerrymander_ready()
    message = refused(code, s, 0, {"type": "gerrymander", "hex": list(hex_), "colour": colour})
    assert words in message
    assert {"type": "gerrymander", "hex": list(hex_), "colour": colour} not in \
        R.legal_moves(s, 0)


def test_a_hex_is_gerrymandered_only_once_and_takes_its_counter_along():
    s = gerrymander_ready()
    i = idx(s, 4, 1)
    s = claim(s, {i: 2})
    move = {"type": "gerrymander", "hex": [4, 1], "colour": "grey"}
    assert move in R.legal_moves(s, 0)
    after = R.apply(s, 0, move)
    assert board_for(after["map"]).const_names[after["const_of"][i]] == "London"
    assert after["gerry_left"]["grey"] == 1 and after["gerrymandered"][i] == "grey"
    london = count_constituencies(after, "fptp")["constituencies"][2]
    assert london["name"] == "London" and london["votes"][2] == 1
    view = R.view(after, 1)
    assert view["hexes"][i]["constituency"] == "London" and view["hexes"][i]["colour"] == "grey"
    assert view["hexes"][i]["gerrymandered"] == "grey"
    assert "gerrymandered a Rural hex of Hull into London" in all_lines(s, move, after, 0, 1)
    # the same hex again, now grey, next to green Hull: refused only because it was done
    again = gerrymander_ready()
    again["const_of"], again["gerrymandered"] = after["const_of"], after["gerrymandered"]
    assert "already been gerrymandered" in refused(
        "already_gerrymandered", again, 0, {"type": "gerrymander", "hex": [4, 1],
                                            "colour": "green"})


def test_a_colour_card_allows_only_its_colour_and_hexes_run_out():
    s = gerrymander_ready("gerrymander_grey")
    refused("wrong_colour", s, 0, {"type": "gerrymander", "hex": [4, 1], "colour": "green"})
    s["gerry_left"]["grey"] = 0
    refused("none_left", s, 0, {"type": "gerrymander", "hex": [4, 1], "colour": "grey"})
    fresh = rig(with_news(start(map=TESTLAND), "gerrymander_grey"), hands={0: [33, 2, 3, 4, 5]})
    fresh["gerry_left"]["grey"] = 0
    assert R.legal_moves(fresh, 0) == [{"type": "news", "accept": False}, {"type": "leave"}]


# ---------------------------------------------------------------- counting

def test_constituency_ties_break_on_city_then_large_then_small_town_then_draw_off():
    s = start(players=2, map=AVLAND)
    m = {(q, r): idx(s, q, r) for q, r in MIDDLE}
    city, large, small = m[(0, 0)], m[(1, 0)], m[(0, 1)]
    rural = [m[c] for c in MIDDLE if m[c] not in (city, large, small)]

    def middle(owners):
        return count_constituencies(claim(s, owners), "fptp")["constituencies"][0]

    row = middle({rural[0]: 0, rural[1]: 0, rural[2]: 0, large: 0,
                  rural[3]: 1, rural[4]: 1, small: 1, city: 1})
    assert row["votes"] == [4, 4] and row["winner"] == 1 and row["decided_by"] == "city"
    row = middle({rural[0]: 0, large: 0, rural[3]: 1, small: 1})
    assert row["winner"] == 0 and row["decided_by"] == "large_town"
    row = middle({rural[0]: 0, rural[1]: 0, rural[3]: 1, small: 1})
    assert row["winner"] == 1 and row["decided_by"] == "small_town"
    tie = claim(s, {rural[0]: 0, rural[3]: 1})
    first, second = tie["budget_pile"][-1], tie["budget_pile"][-2]
    row = count_constituencies(tie, "fptp")["constituencies"][0]
    assert row["decided_by"] == "drawoff" and row["drawoff"] == [[[0, first], [1, second]]]
    assert row["winner"] == (0 if first > second else 1)
    assert count_constituencies(tie, "fptp") == count_constituencies(tie, "fptp")  # pure
    assert tie["budget_pile"][-1] == first  # the count only looked at the pile
    # during a game the standings leave such a tie open instead of peeking at the pile
    undecided = count_constituencies(tie, "fptp", drawoff=False)["constituencies"][0]
    assert undecided["winner"] is None and undecided["tied"] == [0, 1]


def test_rulebook_av_example_blue_leads_but_red_wins_with_5_of_9():
    s = start(players=3, map=AVLAND, variant="av")
    m = {(q, r): idx(s, q, r) for q, r in MIDDLE}
    stacks = {
        # image A: Blue 4 (with the City), Red 3, Yellow 2; Yellow voters prefer Red
        m[(0, 0)]: [BLUE, RED, YELLOW], m[(1, -1)]: [BLUE, YELLOW, RED],
        m[(0, -1)]: [BLUE, RED, YELLOW], m[(-1, 0)]: [BLUE, YELLOW, RED],
        m[(1, 0)]: [RED, BLUE, YELLOW], m[(0, 1)]: [RED, YELLOW, BLUE],
        m[(2, 0)]: [RED, BLUE, YELLOW],
        m[(2, -1)]: [YELLOW, RED, BLUE], m[(-1, 1)]: [YELLOW, RED, BLUE],
    }
    s = claim(s, stacks)
    fptp = count_constituencies(s, "fptp")["constituencies"][0]
    assert fptp["votes"] == [3, 4, 2] and fptp["winner"] == BLUE
    av = count_constituencies(s, "av")["constituencies"][0]
    assert av["rounds"][0] == {"votes": [3, 4, 2], "eliminated": YELLOW}  # no majority of 9
    assert av["rounds"][1]["votes"] == [5, 4, 0] and av["winner"] == RED
    assert av["decided_by"] == "elimination"


def test_av_fewest_votes_tie_breaks_city_or_town_then_city_stack():
    s = start(players=4, map=AVLAND, variant="av")
    m = {(q, r): idx(s, q, r) for q, r in MIDDLE}
    # seat 0: 4 votes, seat 1: 3, seats 2 and 3: 1 each (2 holds the Small Town)
    base = {m[(1, -1)]: [0, 2, 3, 1], m[(0, -1)]: [0, 3, 2, 1], m[(-1, 0)]: [0, 1, 2, 3],
            m[(2, 0)]: [0, 1, 2, 3], m[(1, 0)]: [1, 0, 2, 3], m[(0, 0)]: [1, 3, 2, 0],
            m[(2, -1)]: [1, 0, 2, 3], m[(0, 1)]: [2, 1, 0, 3], m[(-1, 1)]: [3, 1, 0, 2]}
    av = count_constituencies(claim(s, base), "av")["constituencies"][0]
    assert av["rounds"][0]["eliminated"] == 3  # only Rural: the Small Town holder stays
    # both only Rural: the one higher on the City stack stays (3 is above 2 on the City)
    both = dict(base)
    both[m[(0, 1)]], both[m[(-1, 0)]] = [0, 1, 2, 3], [2, 1, 0, 3]
    av = count_constituencies(claim(s, both), "av")["constituencies"][0]
    assert av["rounds"][0]["votes"][2:] == [1, 1]
    assert av["rounds"][0]["eliminated"] == 2


def test_av_exactly_half_with_the_city_is_a_majority():
    s = start(players=2, map=AVLAND, variant="av")
    m = {(q, r): idx(s, q, r) for q, r in MIDDLE}
    owners = {m[c]: [0, 1] for c in MIDDLE[:4]}  # the City and 3 more for seat 0
    owners.update({m[c]: [1, 0] for c in MIDDLE[4:8]})  # 4 for seat 1; one hex empty
    av = count_constituencies(claim(s, owners), "av")["constituencies"][0]
    assert av["winner"] == 0 and av["decided_by"] == "majority"


# ---------------------------------------------------------------- ending the game

def own_all_but(state, seat, spare):
    """Counters of ``seat`` on every hex except the ``spare`` indexes."""
    return claim(state, {i: seat for i in range(len(state["stacks"])) if i not in spare})


def test_the_game_ends_when_every_hex_is_won():
    s = start(players=2)
    last = idx(s, 0, 10)
    s = own_all_but(s, 1, {last})
    s = rig(s, hands={0: [10, 20, 30, 40], 1: [1, 2, 3, 4]})
    before = campaign(s, 0, 10, {0: 40})
    after = R.apply(before, 1, {"type": "bid", "card": 1})
    assert R.is_over(after) and R.to_move(after) == [] and after["end_reason"] == "all_won"
    res = R.result(after)
    assert res["winners"] == [1] and res["decided_by"] == "constituencies"
    assert res["ranking"][0]["constituencies"] == 11 and res["ranking"][1]["hexes"] == 1
    assert "The game is over (every hex is won). {seat:1} wins with 11 constituencies" in \
        all_lines(before, {"type": "bid", "card": 1}, after, 1, None)
    refused("game_over", after, 0, {"type": "leave"})


def test_end_is_offered_once_no_constituency_can_change_and_all_must_agree():
    s = start(players=2)
    spare = {idx(s, 0, 10), idx(s, 1, 11), idx(s, 4, 5)}
    s = own_all_but(s, 0, spare)
    s = rig(s, hands={0: [10, 20, 30, 40], 1: [1, 2, 3, 4]})
    s = campaign(s, 0, 10, {0: 40, 1: 1})
    assert s["step"] == "end_vote" and R.to_move(s) == [0, 1]
    assert R.legal_moves(s, 1)[:2] == [{"type": "end", "agree": True},
                                       {"type": "end", "agree": False}]
    yes = R.apply(s, 0, {"type": "end", "agree": True})
    assert R.view(yes, 1)["committed"] == [0] and R.to_move(yes) == [1]
    refused("already_answered", yes, 0, {"type": "end", "agree": True})
    done = R.apply(yes, 1, {"type": "end", "agree": True})
    assert R.is_over(done) and done["end_reason"] == "agreed"
    assert R.result(done)["winners"] == [0]
    # one player wants to play on: the game goes on, and the offer waits a full round
    on = R.apply(yes, 1, {"type": "end", "agree": False})
    assert not R.is_over(on) and on["step"] in ("campaign", "news") and on["active"] == 1
    on = campaign(on, 1, 11, {0: on["hands"][0][0], 1: on["hands"][1][0]})
    assert on["step"] != "end_vote"
    on = campaign(on, 4, 5, {0: on["hands"][0][0], 1: on["hands"][1][0]})
    assert R.is_over(on) and on["end_reason"] == "all_won"


def test_no_end_offer_while_a_constituency_can_change():
    s = start(players=2)
    london = hexes_of(s, "London")
    s = own_all_but(s, 0, set(london[:3]) | {idx(s, 0, 8)})
    s = rig(s, hands={0: [10, 20, 30, 40], 1: [1, 2, 3, 4]})
    s = campaign(s, 0, 8, {0: 40, 1: 1})  # Birmingham is now all seat 0's
    decided = {c["name"]: c["decided"] for c in R.view(s, 0)["constituencies"]}
    # London: seat 0 has 3, and seat 1 could still reach 3 with the 3 empty hexes
    assert decided["London"] is False and decided["Birmingham"] is True
    assert s["step"] != "end_vote" and s["active"] == 1


def finished(state, owners, reason="agreed"):
    done = claim(state, owners)
    R._end_game(done, reason)
    return R.result(done)


def test_game_winner_constituencies_then_hexes_then_shared():
    s = start(players=2, map=TESTLAND)

    def whole(names, seat):
        return {i: seat for name in names for i in hexes_of(s, name)}

    res = finished(s, {**whole(["Leeds", "York", "London", "Hull"], 0),
                       **whole(["Perth", "Derry", "Belfast"], 1)}, "all_won")
    assert res["winners"] == [0] and res["decided_by"] == "constituencies"
    # 3 constituencies each: seat 0's 11 hexes beat seat 1's 7
    res = finished(s, {**whole(["Leeds", "York", "London"], 0),
                       **whole(["Hull", "Perth", "Derry"], 1)})
    assert [r["constituencies"] for r in res["ranking"]] == [3, 3]
    assert [r["hexes"] for r in res["ranking"]] == [11, 7]
    assert res["winners"] == [0] and res["decided_by"] == "hexes"
    assert [r["place"] for r in res["ranking"]] == [1, 2]
    # 1 constituency and 2 hexes each: a shared win
    res = finished(s, {**whole(["York"], 0), **whole(["Perth"], 1)})
    assert res["winners"] == [0, 1] and res["decided_by"] == "shared"
    assert [r["place"] for r in res["ranking"]] == [1, 1]
    assert res["outcome"] == "{seat:0} and {seat:1} share the win under First Past the Post."


def test_result_shows_what_the_other_system_would_have_given():
    s = start(players=3, map=AVLAND)
    m = {(q, r): idx(s, q, r) for q, r in MIDDLE}
    s = claim(s, {
        m[(0, 0)]: [BLUE, RED, YELLOW], m[(1, -1)]: [BLUE, YELLOW, RED],
        m[(0, -1)]: [BLUE, RED, YELLOW], m[(-1, 0)]: [BLUE, YELLOW, RED],
        m[(1, 0)]: [RED, BLUE, YELLOW], m[(0, 1)]: [RED, YELLOW, BLUE],
        m[(2, 0)]: [RED, BLUE, YELLOW],
        m[(2, -1)]: [YELLOW, RED, BLUE], m[(-1, 1)]: [YELLOW, RED, BLUE],
    })
    done = copy.deepcopy(s)
    R._end_game(done, "agreed")
    res = R.result(done)
    assert res["constituency_winners"][0] == BLUE
    assert res["other_system"]["system"] == "av"
    assert res["other_system"]["constituency_winners"][0] == RED
    summary = {item["key"]: item for item in R.summary(done, RED)}
    assert summary["constituencies_other"]["label"] == "Constituencies under Alternative Vote"
    assert summary["constituencies_other"]["value"] == 1


# ---------------------------------------------------------------- early leavers

def test_early_leaver_counters_still_count_and_hands_shrink():
    s = rig(start(players=3), hands={0: [10, 20, 30, 40, 45], 1: [5, 15, 25, 35, 44],
                                     2: [1, 2, 3, 4, 50]})
    s = campaign(s, 0, 10, {0: 10, 1: 5, 2: 50})  # seat 2 wins (0, 10)
    assert s["active"] == 1
    before = s
    s = R.apply(s, 2, {"type": "leave"})  # not seat 2's turn: leaving is allowed any time
    assert s["left"][2] and s["hands"][2] == []
    assert set(before["hands"][2]) <= set(s["budget_discard"])
    assert s["stacks"][idx(s, 0, 10)] == [2, 0, 1]
    assert hand_size(s) == 4
    assert "{seat:2} left the game" in all_lines(before, {"type": "leave"}, s, 2, 0)
    refused("has_left", s, 2, {"type": "bid", "card": 1})
    # seat 1 plays its turn: only seats 0 and 1 campaign now
    s = R.apply(s, 1, {"type": "campaign", "hex": [1, 10]})
    assert R.to_move(s) == [0, 1]
    s = R.apply(s, 0, {"type": "bid", "card": s["hands"][0][0]})
    s = R.apply(s, 1, {"type": "bid", "card": s["hands"][1][0]})
    assert s["active"] == 0 and len(s["hands"][0]) == 4  # draws to 2 players + 2 only
    summary = {item["key"]: item["value"] for item in R.summary(s, 2)}
    assert summary["left"] is True and summary["hexes"] == 1


def test_leaving_during_the_sealed_bid_discards_the_committed_card():
    s = rig(start(players=3), hands={0: [10, 20, 30, 40, 45], 1: [5, 15, 25, 35, 44],
                                     2: [1, 2, 3, 4, 50]})
    s = R.apply(s, 0, {"type": "campaign", "hex": [0, 10]})
    s = R.apply(s, 2, {"type": "bid", "card": 50})
    s = R.apply(s, 0, {"type": "bid", "card": 10})
    s = R.apply(s, 2, {"type": "leave"})
    assert 50 in s["budget_discard"] and s["step"] == "bid" and R.to_move(s) == [1]
    s = R.apply(s, 1, {"type": "bid", "card": 5})
    assert s["last_reveal"]["bids"] == [10, 5, None] and s["last_reveal"]["winner"] == 0


def test_the_active_player_leaving_passes_the_turn_and_its_news_card_goes_under():
    s = with_news(start(players=3), "clean_slate", pile=["floods"])
    s = R.apply(s, 0, {"type": "leave"})
    assert s["active"] == 1 and s["news_pile"][0] == "clean_slate"


def test_last_player_standing_claims_the_empty_hexes_and_the_score_still_counts():
    s = start(players=3)
    names = board_for(s["map"]).const_names
    # seat 2 holds six whole constituencies, then leaves; then seat 1 leaves
    owners = {i: 2 for name in names[:6] for i in hexes_of(s, name)}
    s = claim(s, owners)
    s = R.apply(s, 2, {"type": "leave"})
    before = s
    s = R.apply(s, 1, {"type": "leave"})
    assert R.is_over(s) and s["end_reason"] == "last_player"
    empty = [i for i, st in enumerate(before["stacks"]) if not st]
    assert all(s["stacks"][i] == [0] for i in empty)
    res = R.result(s)
    assert res["winners"] == [2]  # the leaver still wins 6 to 5
    assert res["ranking"][0]["left"] is True
    text = all_lines(before, {"type": "leave"}, s, 1, None)
    assert f"{{seat:0}} is the last player left and claims the {len(empty)} empty hexes" in text


# ---------------------------------------------------------------- junk and views

def test_junk_moves_are_refused_in_words():
    s = start()
    for seat, move, code in [
        (0, "campaign", "bad_move"), (0, {}, "bad_move"), (7, {"type": "leave"}, "bad_seat"),
        (0, {"type": "bid", "card": 3}, "wrong_move"),
        (0, {"type": "campaign", "hex": [0, 10, 1]}, "bad_hex"),
    ]:
        refused(code, s, seat, move)


def test_views_hide_other_hands_and_the_piles():
    s = start(players=3, news=True)
    for viewer in (None, 0, 1, 2):
        view = R.view(s, viewer)
        text = json.dumps(view)
        assert view["budget_pile"] == 35 and "hands" not in view
        assert view["hand"] == (sorted(s["hands"][viewer]) if viewer is not None else None)
        assert "shuffle_key" not in view and s["shuffle_key"] not in text
        assert all("hand" not in row for row in view["seats"])
        assert view["news_pile"] == len(s["news_pile"])


def test_default_map_passes_map_check_and_looks_like_the_uk():
    assert R.map_check(DEFAULT_MAP) == []
    board = board_for(DEFAULT_MAP)
    assert 50 <= board.size <= 70
    colours = {"Edinburgh": "green", "Glasgow": "orange", "Londonderry": "yellow",
               "Belfast": "grey", "Cardiff": "orange", "Newcastle": "yellow", "Leeds": "grey",
               "Birmingham": "green", "Bristol": "yellow", "London": "grey",
               "Plymouth": "orange"}
    assert {c: v["colour"] for c, v in DEFAULT_MAP["constituencies"].items()} == colours
    nations = {v["nation"] for v in DEFAULT_MAP["constituencies"].values()}
    assert nations == {"England", "Scotland", "Wales", "Northern Ireland"}

    def centre(name):
        cells = [(h["q"] + h["r"] / 2, h["r"]) for h in DEFAULT_MAP["hexes"]
                 if h["constituency"] == name]
        return (sum(x for x, _ in cells) / len(cells), sum(y for _, y in cells) / len(cells))

    # north up: Scotland at the top, London south-east, Plymouth south-west, Wales west
    assert centre("Edinburgh")[1] < centre("Newcastle")[1] < centre("Birmingham")[1]
    assert centre("Glasgow")[1] < centre("Leeds")[1]
    assert centre("London")[0] > centre("Bristol")[0] > centre("Plymouth")[0]
    assert centre("London")[1] > centre("Birmingham")[1]
    assert centre("Plymouth")[1] > centre("Cardiff")[1]
    assert centre("Cardiff")[0] < centre("Birmingham")[0]
    # Northern Ireland is an island apart from Great Britain
    ni = {board.index[(h["q"], h["r"])] for h in DEFAULT_MAP["hexes"]
          if DEFAULT_MAP["constituencies"][h["constituency"]]["nation"] == "Northern Ireland"}
    assert all(j in ni for i in ni for j in board.nbrs[i])
    for k in range(len(board.const_names)):
        members = [i for i, c in enumerate(board.home) if c == k]
        types = Counter(board.types[i] for i in members)
        assert types["city"] == 1 and types["rural"] >= 1
        assert types["large_town"] + types["small_town"] >= 1


def broken(**changes):
    data = copy.deepcopy(DEFAULT_MAP)
    for key, value in changes.items():
        data[key] = value
    return data


def default_hexes(transform):
    data = copy.deepcopy(DEFAULT_MAP)
    data["hexes"] = [h for h in (transform(copy.deepcopy(h)) for h in data["hexes"]) if h]
    return data


@pytest.mark.parametrize("data, words", [
    ("a map", "A map must be an object"),
    (broken(name=""), "The map needs a name."),
    (broken(hexes=[]), "The map needs \"hexes\""),
    (broken(gerrymander_hexes=None), "\"gerrymander_hexes\""),
    (broken(gerrymander_hexes={"green": 9}), "from 0 to 6"),
    (broken(gerrymander_hexes={"purple": 1}), "no 'purple' Gerrymander Hexes"),
    (broken(hexes=DEFAULT_MAP["hexes"] + [{"q": 12, "r": 12, "constituency": "Leeds",
                                           "type": "rural"}]), "Leeds is in separate pieces"),
    (default_hexes(lambda h: {**h, "type": "rural"} if h["type"] == "city"
                   and h["constituency"] == "Leeds" else h), "Leeds has 0 City hexes"),
    (default_hexes(lambda h: {**h, "type": "city"} if (h["q"], h["r"]) == (1, 7) else h),
     "Leeds has 2 City hexes"),
    (default_hexes(lambda h: {**h, "type": "village"} if (h["q"], h["r"]) == (1, 7) else h),
     "has the type 'village'"),
    (default_hexes(lambda h: {**h, "constituency": "York"} if (h["q"], h["r"]) == (1, 7)
                   else h), "'York', which is not one of the map's constituencies"),
    (broken(hexes=DEFAULT_MAP["hexes"] + [DEFAULT_MAP["hexes"][0]]), "is listed twice"),
    (broken(hexes=DEFAULT_MAP["hexes"][:5]), "The map has 5 hexes"),
    (broken(constituencies={**DEFAULT_MAP["constituencies"],
                            "Leeds": {"nation": "England", "colour": "green"}}),
     "Birmingham and Leeds are both green and they touch"),
    (broken(constituencies={**DEFAULT_MAP["constituencies"],
                            "Leeds": {"nation": "England", "colour": "pink"}}),
     "Leeds has the colour 'pink'"),
    (broken(constituencies={c: {**v, "nation": "Caledonia" if v["nation"] == "Scotland"
                                else v["nation"]}
                            for c, v in DEFAULT_MAP["constituencies"].items()}),
     "Scottish Cheer needs hexes in Scotland"),
    (broken(constituencies={c: {**v, "nation": "England"}
                            for c, v in DEFAULT_MAP["constituencies"].items()}),
     "needs some hexes outside England"),
    (default_hexes(lambda h: {**h, "constituency": "Londinium"}
                   if h["constituency"] == "London" else h)
     | {"constituencies": {("Londinium" if c == "London" else c): v
                           for c, v in DEFAULT_MAP["constituencies"].items()}},
     "needs a constituency called London"),
    (default_hexes(lambda h: {**h, "q": 999} if (h["q"], h["r"]) == (1, 7) else h),
     "too far from the centre"),
    (broken(constituencies={**DEFAULT_MAP["constituencies"], "Leeds": "England"}),
     "Leeds needs a nation and a colour"),
])
def test_map_check_says_what_is_wrong(data, words):
    problems = R.map_check(data)
    assert any(words in p for p in problems), problems
    with pytest.raises(IllegalMove) as err:
        R.setup({"players": 2, "map": data}, 1)
    assert err.value.code == "bad_options"


def test_test_maps_are_playable():
    assert R.map_check(TESTLAND) == [] and R.map_check(AVLAND) == []


def test_card_counting_after_a_reshuffle():
    """The discard pile is face up when it becomes the new draw pile, so in a 2-player game
    the cards that were not in it are exactly the two hands then: a seat knows the other's
    older cards, and sample_state deals them to it every time."""
    s = rig(start(players=2), hands={0: [10, 20, 30, 40], 1: [5, 15, 25, 45]})
    s["budget_discard"] = list(s["budget_pile"])
    s["budget_pile"] = []
    s = campaign(s, 0, 10, {0: 10, 1: 5})  # seat 1's turn: it draws from a reshuffled pile
    view = R.view(s, 0)
    assert view["budget_pile_cards"] is not None and 15 not in view["budget_pile_cards"]
    assert view["seats"][1]["old_cards"] == 3 and view["seats"][0]["old_cards"] == 3
    for seed in range(5):
        other = R.sample_state(view, 0, random.Random(seed))
        assert {15, 25, 45} <= set(other["hands"][1])
        assert R.view(other, 0) == view
    # once seat 1 shows an old card, one fewer of its cards is old
    s = campaign(s, 1, 10, {0: 20, 1: 45})
    assert R.view(s, 0)["seats"][1]["old_cards"] == 2


def test_a_map_read_back_from_the_database_makes_the_same_game():
    """PostgreSQL hands a map's "constituencies" back with its keys reordered: a game made from
    the map as written and one replayed from the stored copy must be the same game."""
    stored = {**DEFAULT_MAP, "constituencies": dict(sorted(
        DEFAULT_MAP["constituencies"].items(), key=lambda kv: (len(kv[0]), kv[0])))}
    assert list(stored["constituencies"]) != list(DEFAULT_MAP["constituencies"])
    for seed in range(3):
        written = R.setup({"players": 3, "map": copy.deepcopy(DEFAULT_MAP)}, seed)
        read_back = R.setup({"players": 3, "map": stored}, seed)
        assert written["const_of"] == read_back["const_of"]
        assert R.view(written, None) == R.view(read_back, None)
    # the constituencies are listed north to south, as the map lists its hexes
    names = [c["name"] for c in R.view(written, None)["constituencies"]]
    assert names[:3] == ["Glasgow", "Edinburgh", "Londonderry"] and names[-1] == "Plymouth"
