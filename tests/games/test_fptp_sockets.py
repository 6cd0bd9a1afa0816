"""First Past the Post over live sockets: no frame tells anybody what it must not know.

Two games are played side by side with the same seed and the same moves, each watched by
every player's socket and a spectator's.  Before every move, the second game's hidden parts
are put in another order or swapped:

* the budget draw pile's order (but for the cards this very move draws: hands filled at the
  start of a turn, draw-offs at a reveal), and the seed of its next reshuffle (unless this
  move reshuffles);
* the news pile's order (but for its known bottom and the card this move draws);
* one player's hand ("the hidden seat"): its cards are swapped with cards of the draw pile
  (keeping the card it plays in this move, and what card counting knows: cards older than
  the last reshuffle stay older), and the card it has committed face down, unless this move
  reveals the bids; when it commits a card, it commits another one in the second game (put
  back before the reveal).

The game that ends keeps its pile (the final count may draw from it).  Every frame every
other socket receives (states, log lines, the lesson at the end) must then be the same in
both games, so none of them says anything about another seat's hand, a committed card before
the reveal, the order of the piles, or a draw-off card before it is turned over.  The hidden
seat's own socket does see its cards change: that proves the swap was real.
"""

import copy
import json
import random

import pytest
from channels.db import database_sync_to_async

from games import services
from games.engine import get_rules
from games.engine.fptp import sway_bonus
from games.models import Game

from .helpers import Watcher, game_socket, make_user

RULES = get_rules("fptp")
pytestmark = [pytest.mark.embedded, pytest.mark.django_db(transaction=True)]
SPECTATOR = "spectator"


def contains_key(data, key):
    if isinstance(data, dict):
        return key in data or any(contains_key(v, key) for v in data.values())
    if isinstance(data, list):
        return any(contains_key(v, key) for v in data)
    return False


def rig(state, seat, move, hidden, rng):
    """The second game's state before ``move``: ``state`` (the first game's) with its hidden
    parts in another order, keeping what ``move`` turns over (see the module docstring; no
    move: nothing is turned over)."""
    after = RULES.apply(state, seat, move) if move is not None else state
    b = copy.deepcopy(state)
    pile = b["budget_pile"]
    reshuffles = after["shuffles"] > state["shuffles"]
    keep = len(pile) if (reshuffles or after["over"]) else len(pile) - len(after["budget_pile"])
    free, top = pile[:len(pile) - keep], pile[len(pile) - keep:]
    pile_set = None if state["pile_set"] is None else set(state["pile_set"])

    def same_kind(card):  # a pile card may stand in only for a card that could be in the pile
        return pile_set is None or card in pile_set

    if hidden is not None and not state["left"][hidden]:
        used = {move.get("card")} if move is not None and seat == hidden else set()
        hand = b["hands"][hidden]
        for j, card in enumerate(hand):
            if card not in used and same_kind(card) and free and rng.random() < 0.8:
                x = rng.randrange(len(free))
                hand[j], free[x] = free[x], card
        bid = b["bids"][hidden]
        revealed = after["last_reveal"] != state["last_reveal"] or after["over"]
        if bid is not None and not revealed and same_kind(bid) and free:
            x = rng.randrange(len(free))
            b["bids"][hidden], free[x] = free[x], bid
    rng.shuffle(free)
    b["budget_pile"] = free + top
    if not reshuffles and not after["over"]:
        b["shuffle_key"] = f"{rng.getrandbits(64):016x}"
    news, known = b["news_pile"], b["news_known"]
    draws = after["turn"] > state["turn"] and state["news_on"] and bool(news)
    unknown = news[known:]
    head, tail = (unknown[:-1], unknown[-1:]) if draws else (unknown, [])
    rng.shuffle(head)
    b["news_pile"] = news[:known] + head + tail
    return b


def choose(view, rng, state):
    """A move for the seat of ``view``, as a curious student plays: every kind of news
    decision comes up (paying when it can, declining now and then).  Bids are made to tie
    when they can (the test knows every card), so that draw-offs come up: the active player
    bids low, and another player matches a committed sway."""
    moves = [m for m in view["legal_moves"] if m["type"] != "leave"]
    pays = [m for m in moves if m["type"] == "pay"]
    if pays and rng.random() < 0.8:
        return pays[0]
    seat = view["seat"]
    if view["step"] == "bid" and len(moves) > 1:
        if seat == state["active"]:
            return moves[0]
        bonus = [sway_bonus(state, s, state["bus"]) for s in range(state["players"])]
        for other, card in enumerate(state["bids"]):
            if card is not None and other != state["active"]:
                wanted = card + bonus[other] - bonus[seat]
                tie = [m for m in moves if m["card"] == wanted]
                if tie:
                    return tie[0]
    return rng.choice(moves)


@pytest.fixture(autouse=True)
def no_rate_limit(monkeypatch):
    """The test asks every socket for its board and log after every move, much faster than
    a player ever sends anything."""
    import gerrymander_site.sockets

    monkeypatch.setattr(gerrymander_site.sockets, "MESSAGE_RATE", 1000.0)


async def test_two_players_and_a_spectator_learn_nothing_hidden(any_layer):
    """On every channel layer (the frames go through Redis as msgpack in production); seat 1's
    cards are the ones swapped, so seat 0 and the spectator are compared."""
    await play_two_games_side_by_side(players=2, hidden=1, seed="fptp-sockets-2")


async def test_nor_does_the_other_player(inmemory_layer):
    await play_two_games_side_by_side(players=2, hidden=0, seed="fptp-sockets-2b")


async def test_three_players_and_a_spectator_learn_nothing_hidden(any_layer):
    await play_two_games_side_by_side(players=3, hidden=2, seed="fptp-sockets-3")


async def play_two_games_side_by_side(*, players, hidden, seed, campaign_moves=110):
    def setup():
        users = [make_user(f"p{k}", first_name=f"P{k}") for k in range(players)]
        sam = make_user("sam", is_staff=True)  # staff may watch any game
        games = [services.game_create(
            kind="fptp", seed=seed, created_by=users[0],
            options={"players": players, "first_player": 0},
            seats=[services.SeatSpec(user=u) for u in users]) for _ in range(2)]
        return users, sam, games

    users, sam, games = await database_sync_to_async(setup)()
    assert games[0].state == games[1].state
    rng = random.Random(seed)
    rig_rng = random.Random(f"rig-{seed}")

    def load(g):
        return Game.objects.get(pk=g.pk)

    def put_b(state):
        b = Game.objects.get(pk=games[1].pk)
        b.state = state
        b.save(update_fields=["state"])

    # the second game's hidden parts differ from the very first frame
    first = await database_sync_to_async(load)(games[0])
    await database_sync_to_async(put_b)(rig(first.state, None, None, hidden, rig_rng))

    watchers = []  # per game: [seat 0, ..., spectator]
    for game in games:
        row = []
        for who, user in [*enumerate(users), (SPECTATOR, sam)]:
            comm = await database_sync_to_async(game_socket)(game.pk, user)
            assert (await comm.connect())[0]
            watcher = Watcher(comm, game.pk, who)
            await watcher.until(lambda f: f["type"] == "log")
            row.append(watcher)
        watchers.append(row)
    assert watchers[0][-1].state_at(0)["game"]["seat"] is None

    seen = {"drawoff": 0, "reshuffle": 0, "give": 0, "pay": 0, "news_decline": 0,
            "hidden_bid_swapped": 0, "gerrymander": 0, "differed": 0, "hand_differed": 0}
    leaving = [s for s in range(players) if s != hidden]
    version = 0
    while True:
        a = await database_sync_to_async(load)(games[0])
        if a.status == Game.Status.FINISHED:
            break
        movers = RULES.to_move(a.state)
        if version < campaign_moves:
            seat = rng.choice(movers)
            # the move, as the player to move sees it on their own socket
            view = watchers[0][seat].state_at(version)["game"]["view"]
            move = choose(view, rng, a.state)
        else:
            seat = leaving.pop(0)
            move = {"type": "leave"}
        b_state = rig(a.state, seat, move, hidden, rig_rng)
        b_move = move
        if any(b_state[k] != a.state[k] for k in ("budget_pile", "news_pile", "shuffle_key")):
            seen["differed"] += 1
        if sorted(b_state["hands"][hidden]) != sorted(a.state["hands"][hidden]):
            seen["hand_differed"] += 1
        if b_state["bids"][hidden] is not None and b_state["bids"][hidden] != a.state["bids"][hidden]:
            seen["hidden_bid_swapped"] += 1
        reveals = RULES.apply(a.state, seat, move)["last_reveal"] != a.state["last_reveal"]
        if seat == hidden and move["type"] == "bid" and not reveals:
            # the hidden seat commits another card in the second game (the next rig puts the
            # first game's card back before the reveal)
            others = [c for c in b_state["hands"][hidden] if c != move["card"]]
            if others:
                b_move = {"type": "bid", "card": rig_rng.choice(others)}
                seen["hidden_bid_swapped"] += 1
        # what every other seat (and a spectator) sees is the same in both games
        for viewer in [*range(players), None]:
            if viewer != hidden:
                assert RULES.view(b_state, viewer) == RULES.view(a.state, viewer)
        await database_sync_to_async(put_b)(b_state)
        for row, sent in zip(watchers, (move, b_move), strict=True):
            await row[seat].comm.send_to(text_data=json.dumps(
                {"type": "move", "move": sent, "version": version, "ref": f"m{version}"}))
        version += 1
        for row in watchers:
            for watcher in row:
                await watcher.until(lambda f, v=version: f["type"] == "state"
                                    and f["game"]["version"] == v)
                assert not [f for f in watcher.frames if f["type"] == "error"], watcher.frames
        after = (await database_sync_to_async(load)(games[0])).state
        if move["type"] == "pay":
            seen["pay"] += 1
        if move["type"] == "give":
            seen["give"] += 1
        if move["type"] == "news":
            seen["news_decline"] += 1
        if move["type"] == "gerrymander":
            seen["gerrymander"] += 1
        if after["last_reveal"] != a.state["last_reveal"] and after["last_reveal"]["drawoff"]:
            seen["drawoff"] += 1
        if after["shuffles"] > a.state["shuffles"]:
            seen["reshuffle"] += 1
        # the board a socket sees now is the one it gets when it asks again (answers awaited
        # before the next move, so every socket gets its frames in the same order)
        for row in watchers:
            for watcher in row:
                logs = sum(f["type"] == "log" for f in watcher.frames)
                await watcher.comm.send_to(text_data=json.dumps({"type": "sync"}))
                await watcher.comm.send_to(text_data=json.dumps({"type": "log"}))
                await watcher.until(lambda f, w=watcher, n=logs: sum(
                    x["type"] == "log" for x in w.frames) > n)
    for row in watchers:
        for watcher in row:
            await watcher.until(lambda f: f["type"] == "lesson")
            await watcher.drain()
            await watcher.comm.disconnect()

    for first, second in zip(watchers[0], watchers[1], strict=True):
        frames = first.comparable()
        if first.who == hidden:
            # its own cards did differ: the swaps were real
            assert frames != second.comparable()
            continue
        assert frames == second.comparable(), first.who
        kinds = {f["type"] for f in frames}
        assert {"state", "log", "lesson"} <= kinds
        assert sum(f["type"] == "state" for f in frames) > version
        for f in frames:
            assert not contains_key(f, "shuffle_key") and not contains_key(f, "hands")
            if f["type"] == "state":
                view = f["game"]["view"]
                assert isinstance(view["budget_pile"], int) and isinstance(view["news_pile"], int)
                if first.who == SPECTATOR:
                    assert view["hand"] is None and view["my_bid"] is None
    # the games went through what makes hidden information matter
    assert seen["reshuffle"] >= 1 and seen["give"] >= 2 and seen["pay"] >= 1, seen
    assert seen["news_decline"] + seen["pay"] >= 2, seen
    assert seen["hidden_bid_swapped"] >= 3, seen
    if players > 2:  # a tie between two players neither of whom is active: a draw-off
        assert seen["drawoff"] >= 1, seen
    # underneath, the games did differ before nearly every move, and ended the same
    assert seen["differed"] >= 0.9 * version, (seen, version)
    assert seen["hand_differed"] >= 0.5 * version, (seen, version)
    a, b = [await database_sync_to_async(load)(g) for g in games]
    assert a.result == b.result and a.state["final"] == b.state["final"]
    return seen
