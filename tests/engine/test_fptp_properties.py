"""First Past the Post invariants (hypothesis): what a seat cannot see never reaches it.

Hidden: other seats' hands, committed bids before the reveal, the order of the budget pile and
of the unknown part of the news pile, the seed of later reshuffles (and so any draw-off card
before it is shown).  The tests change exactly those parts of real positions ("scramble") and
check that a seat's view, its game-log lines and its legal moves do not change, and that a
sealed bid's value never shows in another seat's view or lines before the reveal.
"""

import copy
import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine.fptp import FPTP as R
from games.engine.fptp_data import BUDGET_CARDS, NEWS_DECK

SETTINGS = settings(max_examples=40, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

GAMES = st.fixed_dictionaries({
    "players": st.integers(2, 5),
    "variant": st.sampled_from(["fptp", "av"]),
    "news": st.booleans(),
    "seed": st.integers(0, 10**6),
    "plies": st.integers(0, 400),
    "leave": st.sampled_from([0.0, 0.0, 0.01]),
})


def positions(game):
    """The states of a random game (moves drawn from legal_moves; leaving is rare)."""
    rng = random.Random(game["seed"])
    state = R.setup({"players": game["players"], "variant": game["variant"],
                     "news": game["news"]}, game["seed"])
    out = [state]
    while not R.is_over(state) and len(out) <= game["plies"]:
        seat, move = random_move(state, rng, game["leave"])
        state = R.apply(state, seat, move)
        out.append(state)
    return out


def random_move(state, rng, leave=0.0):
    seat = rng.choice(R.to_move(state))
    moves = [m for m in R.legal_moves(state, seat)
             if m["type"] != "leave" or rng.random() < leave]
    return seat, rng.choice(moves)


def scramble(state, viewer, rng, keep=()):
    """``state`` with everything ``viewer`` cannot see dealt again at random: other seats'
    hands and committed bids, the budget pile's order, the unknown part of the news pile and
    the reshuffle seed.  Cards in ``keep`` stay in their hands."""
    s = copy.deepcopy(state)
    pool = list(s["budget_pile"])
    for seat in range(s["players"]):
        if seat == viewer:
            continue
        pool += [c for c in s["hands"][seat] if c not in keep]
        if s["bids"][seat] is not None:
            pool.append(s["bids"][seat])
    rng.shuffle(pool)
    for seat in range(s["players"]):
        if seat == viewer:
            continue
        kept = [c for c in s["hands"][seat] if c in keep]
        s["hands"][seat] = kept + [pool.pop() for _ in range(len(s["hands"][seat]) - len(kept))]
        if s["bids"][seat] is not None:
            s["bids"][seat] = pool.pop()
    s["budget_pile"] = pool
    known = s["news_pile"][:s["news_known"]]
    unknown = s["news_pile"][s["news_known"]:]
    rng.shuffle(unknown)
    s["news_pile"] = known + unknown
    s["shuffle_key"] = f"{rng.getrandbits(64):016x}"
    return s


def viewers(state):
    return [None, *range(state["players"])]


@SETTINGS
@given(game=GAMES, pick=st.randoms(use_true_random=False))
def test_views_do_not_change_when_hidden_parts_are_dealt_again(game, pick):
    states = positions(game)
    changed = 0
    for state in pick.sample(states, min(4, len(states))):
        for viewer in viewers(state):
            other = scramble(state, viewer, pick)
            changed += other != state
            assert R.view(other, viewer) == R.view(state, viewer)
            assert R.to_move(other) == R.to_move(state)
            for seat in range(state["players"]):
                assert R.summary(other, seat) == R.summary(state, seat)
    assert changed or len(states) == 1 or all(R.is_over(s) for s in states[1:])


@SETTINGS
@given(game=GAMES, pick=st.randoms(use_true_random=False))
def test_log_lines_tell_a_seat_no_more_than_its_views(game, pick):
    """For the same move on a position dealt again behind a seat's back: whenever the seat's
    view afterwards is the same, so are its log lines."""
    states = positions(game)
    compared = 0
    for state in pick.sample(states, min(5, len(states))):
        if R.is_over(state):
            continue
        seat, move = random_move(state, pick, 0.05)
        after = R.apply(state, seat, move)
        keep = {move.get("card")} if isinstance(move.get("card"), int) else set()
        for viewer in viewers(state):
            other = scramble(state, viewer, pick, keep=keep)
            other_after = R.apply(other, seat, move)
            if R.view(other_after, viewer) == R.view(after, viewer):
                compared += 1
                assert R.describe(other, move, other_after, seat, viewer) == \
                    R.describe(state, move, after, seat, viewer)
    assert compared or all(R.is_over(s) for s in states)


@SETTINGS
@given(game=GAMES, pick=st.randoms(use_true_random=False))
def test_a_sealed_bid_is_not_seen_by_anyone_else_before_the_reveal(game, pick):
    states = [s for s in positions(game) if s["step"] == "bid" and len(R.to_move(s)) >= 2]
    for state in states[:6]:
        bidder = pick.choice(R.to_move(state))
        cards = sorted(set(state["hands"][bidder]))
        if len(cards) < 2:
            continue
        low, high = cards[0], cards[-1]
        after_low = R.apply(state, bidder, {"type": "bid", "card": low})
        after_high = R.apply(state, bidder, {"type": "bid", "card": high})
        assert after_low["step"] == "bid"  # somebody else still has to choose
        for viewer in viewers(state):
            if viewer == bidder:
                assert R.view(after_low, viewer)["my_bid"] == low
                continue
            assert R.view(after_low, viewer) == R.view(after_high, viewer)
            assert R.view(after_low, viewer)["committed"] == \
                sorted(set(R.view(state, viewer)["committed"]) | {bidder})
            assert R.describe(state, {"type": "bid", "card": low}, after_low, bidder,
                              viewer) == \
                R.describe(state, {"type": "bid", "card": high}, after_high, bidder, viewer)


@SETTINGS
@given(game=GAMES)
def test_cards_are_never_lost_or_made(game):
    deck = Counter(c["kind"] for c in NEWS_DECK for _ in range(c["count"]))
    for state in positions(game):
        budget = Counter(state["budget_pile"] + state["budget_discard"]
                         + [c for h in state["hands"] for c in h]
                         + [b for b in state["bids"] if b is not None])
        assert budget == Counter(BUDGET_CARDS)
        if game["news"]:
            news = Counter(state["news_pile"] + state["news_discard"]
                           + [k for p in state["perms"] for k in p]
                           + ([state["news_card"]] if state["news_card"] else []))
            assert news == deck
        assert all(len(p) <= 2 for p in state["perms"])
        assert all(not h for h, gone in zip(state["hands"], state["left"], strict=True)
                   if gone)
        assert all(len(set(st_)) == len(st_) for st_ in state["stacks"])
        # card counting: the cards missing from the last reshuffled pile that a seat has not
        # seen are exactly the other seats' older cards
        if state["pile_set"] is not None:
            for viewer in viewers(state):
                view = R.view(state, viewer)
                seen = Counter(view["budget_discard"] + (view["hand"] or [])
                               + ([view["my_bid"]] if view["my_bid"] is not None else []))
                unseen = Counter(BUDGET_CARDS) - seen
                old = sum(k for c, k in unseen.items() if c not in view["budget_pile_cards"])
                assert old == sum(row["old_cards"] for row in view["seats"]
                                  if row["seat"] != viewer)


@SETTINGS
@given(game=GAMES, pick=st.randoms(use_true_random=False))
def test_sampled_states_agree_with_the_view_and_play_on(game, pick):
    states = positions(game)
    for state in pick.sample(states, min(3, len(states))):
        for viewer in viewers(state):
            view = R.view(state, viewer)
            sampled = R.sample_state(view, viewer, random.Random(pick.random()))
            assert R.view(sampled, viewer) == view
            assert json.loads(json.dumps(sampled)) == sampled
            if not R.is_over(sampled):
                seat, move = random_move(sampled, pick)
                R.apply(sampled, seat, move)
