"""Berrymandering over live sockets: the order of the face-down Mystery tiles never reaches
anyone.

Two games are played side by side with the same seed and the same moves, each watched by
both players' sockets and a spectator's.  Before every move, the second game's face-down
pile is put in another order, except for the tiles that very move turns over (so both games
reveal the same tiles).  The games then differ only in the order of the tiles still face
down; every frame every socket receives (states, log lines, the lesson at the end) must be
the same in both, so none of them can say anything about that order.
"""

import json
import random

import pytest
from channels.db import database_sync_to_async

from games import services
from games.engine import get_rules
from games.models import Game

from .helpers import Watcher, game_socket, make_user

RULES = get_rules("berrymandering")
pytestmark = [pytest.mark.embedded, pytest.mark.django_db(transaction=True)]


def revealed_by(state, move):
    """How many face-down tiles ``move`` turns over (a chosen group's Random tiles)."""
    if move.get("type") != "choose":
        return 0
    index = [tuple(c) for c in state["map"]["cells"]].index(tuple(move["cell"]))
    group = next(g for g in state["cut"] if index in g)
    return sum(1 for i in group if state["tiles"][i] is None and state["mystery_at"][i] is None)


def contains_key(data, key):
    if isinstance(data, dict):
        return key in data or any(contains_key(v, key) for v in data.values())
    if isinstance(data, list):
        return any(contains_key(v, key) for v in data)
    return False


@pytest.fixture(autouse=True)
def no_rate_limit(monkeypatch):
    """The test asks every socket for its board and log after every move, much faster than
    a player ever sends anything."""
    import gerrymander_site.sockets

    monkeypatch.setattr(gerrymander_site.sockets, "MESSAGE_RATE", 1000.0)


async def test_no_frame_depends_on_the_order_of_the_face_down_mystery_tiles(any_layer):
    """On every channel layer (the frames go through Redis as msgpack in production)."""
    await play_two_games_side_by_side({"players": 2})


async def test_nor_in_a_solo_game(inmemory_layer):
    await play_two_games_side_by_side({"mode": "solo"})


async def play_two_games_side_by_side(options):
    solo = options.get("mode") == "solo"

    def setup():
        ana, ben = make_user("ana"), make_user("ben")
        sam = make_user("sam", is_staff=True)  # staff may watch any game
        players = [ana] if solo else [ana, ben]
        games = [services.game_create(
            kind="berrymandering", seed="hidden-pile", created_by=ana,
            options={**options, "team_chooser": 0, "team": 0} if not solo else options,
            seats=[services.SeatSpec(user=u) for u in players]) for _ in range(2)]
        return players, sam, games

    players, sam, games = await database_sync_to_async(setup)()
    assert games[0].state == games[1].state
    watchers = []  # per game: [seat 0, (seat 1,) spectator]
    for game in games:
        row = []
        for user in [*players, sam]:
            comm = await database_sync_to_async(game_socket)(game.pk, user)
            assert (await comm.connect())[0]
            watcher = Watcher(comm, game.pk)
            await watcher.until(lambda f: f["type"] == "log")
            row.append(watcher)
        watchers.append(row)
    assert watchers[0][-1].state_at(0)["game"]["seat"] is None  # the spectator

    rng = random.Random(12)
    rigged = 0
    version = 0
    while True:
        a = await database_sync_to_async(Game.objects.get)(pk=games[0].pk)
        if a.status == Game.Status.FINISHED:
            break
        seat = RULES.to_move(a.state)[0]
        # the move, as the player to move sees it on their own socket
        view = watchers[0][seat].state_at(version)["game"]["view"]
        moves = view["legal_moves"]
        move = moves[0] if view["phase"] == "cut" else rng.choice(moves)
        # the second game: the same tiles on top for this move, the rest in another order
        k = revealed_by(a.state, move)
        pile = [list(t) for t in a.state["pile"]]
        rest = pile[k:]
        shuffled = list(rest)
        for _ in range(20):
            rng.shuffle(shuffled)
            if shuffled != rest:
                rigged += 1
                break

        def rig(a=a, pile=pile, k=k, shuffled=shuffled):
            b = Game.objects.get(pk=games[1].pk)
            assert {**b.state, "pile": None} == {**a.state, "pile": None}
            b.state = {**b.state, "pile": pile[:k] + shuffled}
            b.save(update_fields=["state"])

        await database_sync_to_async(rig)()
        for row in watchers:
            await row[seat].comm.send_to(text_data=json.dumps(
                {"type": "move", "move": move, "version": version, "ref": f"m{version}"}))
        version += 1
        for row in watchers:
            for watcher in row:
                await watcher.until(lambda f, v=version: f["type"] == "state"
                                    and f["game"]["version"] == v)
                assert not [f for f in watcher.frames if f["type"] == "error"], watcher.frames
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
            await watcher.drain()
            await watcher.comm.disconnect()

    assert rigged >= 3, "the face-down order really differed between the games"
    assert version == (12 if solo else 18)
    for first, second in zip(watchers[0], watchers[1], strict=True):
        frames = first.comparable()
        assert frames == second.comparable()
        kinds = {f["type"] for f in frames}
        assert {"state", "log", "lesson"} <= kinds
        assert sum(f["type"] == "state" for f in frames) > version
        assert not any(contains_key(f, "pile") for f in frames)
        for f in frames:
            if f["type"] == "state":
                # of the face-down tiles, a socket learns only how many are left
                assert isinstance(f["game"]["view"]["mystery_face_down"], int)
    # the games did go differently underneath: the same reveals, another order left
    a, b = [await database_sync_to_async(Game.objects.get)(pk=g.pk) for g in games]
    assert a.state["revealed"] == b.state["revealed"] and a.state["history"] == b.state["history"]
