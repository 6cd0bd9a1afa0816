"""The game socket through the real ASGI stack (origin check, session auth, routing), on the
in-memory layer (embedded shape) and on Redis (production shape)."""

import json

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from games.engine import get_rules
from games.models import Game, Move

from ..conftest import ws_open
from .helpers import make_game, make_user

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.embedded]


def cookie_for(user, *games):
    """A session cookie of ``user``'s, holding the share links of ``games`` (opened)."""
    client = Client()
    client.force_login(user)
    for game in games:
        assert client.get(f"/games/{game.pk}/?key={game.share_key}").status_code == 200
    return f"sessionid={client.cookies['sessionid'].value}".encode()


def communicator(game_id, user=None, origin=b"http://localhost"):
    from gerrymander_site.asgi import application

    headers = [(b"origin", origin)]
    if user is not None:
        headers.append((b"cookie", user.cookie))
    return WebsocketCommunicator(application, f"/ws/games/{game_id}/", headers=headers)


async def receive(comm, timeout=5):
    return json.loads(await comm.receive_from(timeout=timeout))


async def connected(game_id, user):
    """A socket of ``user``'s on the game, past its first state frame and the game log that
    follows it."""
    comm = communicator(game_id, user)
    assert (await comm.connect())[0]
    await receive_type(comm, "state")
    assert (await receive(comm))["type"] == "log"
    return comm


async def receive_type(comm, kind, timeout=5):
    while True:
        frame = await receive(comm, timeout)
        if frame["type"] == kind:
            return frame


@pytest.fixture
def table(db):
    ana, ben, eve = make_user("ana"), make_user("ben"), make_user("eve")
    game = make_game(ana, ben)
    for user in (ana, ben):
        user.cookie = cookie_for(user)  # logged in here: the ORM is sync-only
    eve.cookie = cookie_for(eve, game)  # a spectator: she opened the game's share link
    return game, ana, ben, eve


async def test_players_and_spectators_get_their_own_view_after_a_move(any_layer, table):
    game, ana, ben, eve = table
    sockets = {name: communicator(game.pk, user) for name, user in
               [("ana", ana), ("ben", ben), ("eve", eve)]}
    first = {}
    for name, comm in sockets.items():
        connected, _ = await comm.connect()
        assert connected
        first[name] = await receive_type(comm, "state")
    assert [first[n]["game"]["seat"] for n in ("ana", "ben", "eve")] == [0, 1, None]
    assert first["ana"]["game"]["view"]["legal_moves"]  # ana (seat 0) is to move
    assert first["ben"]["game"]["view"]["legal_moves"] == []
    assert "seed" not in json.dumps(first["eve"])

    move = first["ana"]["game"]["view"]["legal_moves"][0]
    await sockets["ana"].send_to(text_data=json.dumps(
        {"type": "move", "move": move, "version": 0, "ref": "m1"}))
    frames = {name: await receive_type(comm, "state") for name, comm in sockets.items()}
    for name, seat in [("ana", 0), ("ben", 1), ("eve", None)]:
        assert frames[name]["game"]["version"] == 1
        assert frames[name]["game"]["seat"] == seat
        assert frames[name]["game"]["view"]["borders"] == [move["between"]]
    # Ben is now to move, and only ben's socket lists his legal moves.
    assert frames["ben"]["game"]["view"]["legal_moves"]
    assert frames["eve"]["game"]["view"]["legal_moves"] == []
    for comm in sockets.values():
        await comm.disconnect()


async def test_ack_stale_and_illegal_moves(any_layer, table):
    game, ana, ben, eve = table
    comm = communicator(game.pk, ana)
    await comm.connect()
    state = await receive_type(comm, "state")
    move = state["game"]["view"]["legal_moves"][0]
    await comm.send_to(text_data=json.dumps({"type": "move", "move": move, "version": 0, "ref": "a"}))
    ack = await receive_type(comm, "ack")
    assert ack == {"type": "ack", "ref": "a", "version": 1}
    # Sending the same move again for version 0: the game moved on; no doubled move.
    await comm.send_to(text_data=json.dumps({"type": "move", "move": move, "version": 0, "ref": "b"}))
    error = await receive_type(comm, "error")
    assert error["code"] == "stale" and error["ref"] == "b"
    fresh = await receive_type(comm, "state")
    assert fresh["game"]["version"] == 1
    # Not ana's turn any more.
    await comm.send_to(text_data=json.dumps({"type": "move", "move": move, "version": 1, "ref": "c"}))
    error = await receive_type(comm, "error")
    assert error["ref"] == "c" and error["code"] == "not_your_turn"
    assert error["message"] == "It is not your turn."
    assert await database_sync_to_async(Move.objects.filter(game_id=game.pk).count)() == 1
    await comm.disconnect()


@pytest.mark.parametrize(
    "frame, fragment",
    [
        ("not json", "not valid JSON"),
        ("[1, 2]", "JSON object"),
        (json.dumps({"type": "dance"}), "Unknown message type"),
        (json.dumps({"type": "move", "move": {"type": "border"}}), "version"),
        (json.dumps({"type": "move", "version": True, "move": {}}), "version"),
        (json.dumps({"type": "move", "version": 0, "move": "x"}), "\"move\" object"),
        (json.dumps({"type": "move", "version": 0, "move": {}, "ref": 5}), "ref"),
        (json.dumps({"type": "move", "version": 0, "move": {"type": "border", "between": "x" * 20000}}),
         "too large"),
    ],
)
async def test_malformed_frames_get_an_error_frame_and_change_nothing(frame, fragment, table,
                                                                     inmemory_layer):
    game, ana, *_ = table
    comm = communicator(game.pk, ana)
    await comm.connect()
    await receive_type(comm, "state")
    await comm.send_to(text_data=frame)
    error = await receive_type(comm, "error")
    assert error["code"] == "bad_frame" and fragment in error["message"]
    # Still connected and usable; nothing was written.
    await comm.send_to(text_data=json.dumps({"type": "sync"}))
    assert (await receive_type(comm, "state"))["game"]["version"] == 0
    assert await database_sync_to_async(Move.objects.filter(game_id=game.pk).count)() == 0
    await comm.disconnect()


async def test_engine_refusal_reaches_the_player_with_the_rulebook_message(table, inmemory_layer):
    game, ana, *_ = table
    comm = communicator(game.pk, ana)
    await comm.connect()
    await receive_type(comm, "state")
    await comm.send_to(text_data=json.dumps(
        {"type": "move", "version": 0, "move": {"type": "border", "between": [[0, 0], [3, 3]]}}))
    error = await receive_type(comm, "error")
    assert error["code"] == "not_adjacent"
    assert error["message"] == "A border goes between two counties that touch; these two do not."
    await comm.disconnect()


async def test_spectators_cannot_move(table, inmemory_layer):
    game, ana, ben, eve = table
    comm = communicator(game.pk, eve)
    await comm.connect()
    await receive_type(comm, "state")
    move = get_rules("mapmaker").legal_moves(game.state, 0)[0]
    await comm.send_to(text_data=json.dumps({"type": "move", "move": move, "version": 0}))
    error = await receive_type(comm, "error")
    assert error["code"] == "spectator"
    await comm.disconnect()


async def test_anonymous_wrong_origin_and_missing_game_are_refused(table, inmemory_layer):
    """Refusals close with a code the page can act on (4401: sign in again; 4404: give up),
    after the handshake: a close before it reaches a browser as a bare 1006."""
    game, ana, *_ = table
    assert await ws_open(communicator(game.pk)) == (False, 4401)
    assert await ws_open(communicator(game.pk, ana, origin=b"http://evil.example")) == (False, None)
    assert await ws_open(communicator(game.pk + 1000, ana)) == (False, 4404)


async def test_connecting_to_a_game_stalled_on_a_bot_resumes_it(table, inmemory_layer, settings):
    """A bot turn scheduled in memory is lost when the server restarts; the next visitor's
    socket picks it up again."""
    from games.models import Game as GameModel

    game, ana, *_ = table
    bot_game = await database_sync_to_async(make_game)(ana, bots=("easy",),
                                                     options={"players": 2, "first_seat": 1})
    await database_sync_to_async(GameModel.objects.filter(pk=bot_game.pk).update)(
        created_at=bot_game.created_at.replace(year=2000))
    settings.BOT_RUNNER = "inprocess"  # the "restarted" server
    settings.BOT_MOVE_DELAY_S = 0
    comm = communicator(bot_game.pk, ana)
    await comm.connect()
    versions = [(await receive_type(comm, "state"))["game"]["version"]]
    while versions[-1] < 1:
        versions.append((await receive_type(comm, "state", timeout=10))["game"]["version"])
    assert versions == [0, 1]  # the bot (seat 1, first to move) placed its one border
    await comm.disconnect()


async def test_a_move_made_while_a_socket_connects_still_reaches_it(table, inmemory_layer,
                                                                     monkeypatch):
    """A socket reads its first board before it joins the game's broadcasts: a move committed
    in between must still reach it (here ana moves while ben's socket is connecting)."""
    from games import services
    from games.consumers import GameConsumer

    game, ana, ben, _ = table
    move = get_rules(game.kind).legal_moves(game.state, 0)[0]
    session_watch = GameConsumer.session_watch

    async def move_while_connecting(consumer):
        await database_sync_to_async(services.move_submit)(
            game_id=game.pk, seat_index=0, move=move, expected_version=0, user=ana)
        await session_watch(consumer)

    monkeypatch.setattr(GameConsumer, "session_watch", move_while_connecting)
    comm = communicator(game.pk, ben)
    assert (await comm.connect())[0]
    first = await receive_type(comm, "state")
    assert first["game"]["version"] == 0  # read before ana's move
    assert (await receive_type(comm, "state"))["game"]["version"] == 1
    await comm.disconnect()


async def test_reconnect_resyncs_from_the_server_version(table, inmemory_layer):
    """A client that dropped and reconnects gets the current version; re-sending its pending
    move for the old version is refused as stale (no doubled move)."""
    game, ana, ben, _ = table
    comm = communicator(game.pk, ana)
    await comm.connect()
    state = await receive_type(comm, "state")
    move = state["game"]["view"]["legal_moves"][0]
    await comm.send_to(text_data=json.dumps({"type": "move", "move": move, "version": 0, "ref": "x"}))
    await comm.disconnect()  # dropped before the ack could be read
    comm = communicator(game.pk, ana)
    await comm.connect()
    state = await receive_type(comm, "state")
    assert state["game"]["version"] == 1
    await comm.send_to(text_data=json.dumps({"type": "move", "move": move, "version": 0, "ref": "x"}))
    assert (await receive_type(comm, "error"))["code"] == "stale"
    moves = await database_sync_to_async(lambda: list(
        Move.objects.filter(game_id=game.pk).values_list("ply", flat=True)))()
    assert moves == [0]
    await comm.disconnect()


async def test_a_seat_handed_to_a_bot_turns_its_socket_into_a_spectator(table, inmemory_layer):
    from games import services

    game, ana, ben, _ = table  # bots are off: the new bot does not move during this test
    # Ben opened the game's page (so his session keeps its key): without a seat he watches
    ben.cookie = await database_sync_to_async(cookie_for)(ben, game)
    comm = communicator(game.pk, ben)
    await comm.connect()
    assert (await receive_type(comm, "state"))["game"]["seat"] == 1
    await database_sync_to_async(services.seat_assign)(game_id=game.pk, index=1, bot_level="easy")
    state = await receive_type(comm, "state")
    assert state["game"]["seat"] is None
    assert state["game"]["seats"][1]["is_bot"]
    await comm.disconnect()
    assert await database_sync_to_async(lambda: Game.objects.get(pk=game.pk).version)() == 0


@pytest.mark.redis
@pytest.mark.parametrize("layer", ["redis_layer", "redis_core_layer"])
async def test_an_idle_socket_on_redis_still_hears_the_next_move(layer, request, table):
    """Regression: with redis-py 8 the core layer's blocking read timed out after 5 idle
    seconds and closed every socket with 1011 (redis is pinned below 8)."""
    request.getfixturevalue(layer)
    game, ana, ben, _ = table
    watcher = communicator(game.pk, ben)
    await watcher.connect()
    await receive_type(watcher, "state")
    import asyncio

    await asyncio.sleep(6.5)
    mover = communicator(game.pk, ana)
    await mover.connect()
    move = (await receive_type(mover, "state"))["game"]["view"]["legal_moves"][0]
    await mover.send_to(text_data=json.dumps({"type": "move", "move": move, "version": 0}))
    assert (await receive_type(watcher, "state"))["game"]["version"] == 1
    await mover.disconnect()
    await watcher.disconnect()


async def test_in_process_bot_replies_reach_the_socket_on_the_in_memory_layer(inmemory_layer,
                                                                             bots_now, db):
    """Embedded shape: the bot runs on the server's event loop, so its broadcasts reach
    sockets through the in-memory layer (which only works from the loop that owns it)."""
    ana = await database_sync_to_async(make_user)("solo-ana")
    ana.cookie = await database_sync_to_async(cookie_for)(ana)
    game = await database_sync_to_async(make_game)(ana, bots=("easy",))
    comm = communicator(game.pk, ana)
    await comm.connect()
    move = (await receive_type(comm, "state"))["game"]["view"]["legal_moves"][0]
    await comm.send_to(text_data=json.dumps({"type": "move", "move": move, "version": 0}))
    versions = []
    while not versions or versions[-1] < 3:  # ana's border, then the bot's two
        versions.append((await receive_type(comm, "state", timeout=10))["game"]["version"])
    assert versions == [1, 2, 3]
    final = await database_sync_to_async(lambda: list(
        Move.objects.filter(game_id=game.pk).values_list("seat", "by_bot")))()
    assert final == [(0, False), (1, True), (1, True)]
    await comm.disconnect()


async def test_sockets_do_not_queue_every_frame_on_the_database_thread(table, inmemory_layer,
                                                                       monkeypatch):
    """Channels' default dispatch hops to its one thread-sensitive thread before every message
    (close_old_connections); ours must not, or every broadcast queues behind that thread."""
    import channels.consumer

    async def hop(*args, **kwargs):
        raise AssertionError("per-message database hop")

    monkeypatch.setattr(channels.consumer, "aclose_old_connections", hop)
    game, ana, ben, _ = table
    mover, watcher = communicator(game.pk, ana), communicator(game.pk, ben)
    for comm in (mover, watcher):
        await comm.connect()
        await receive_type(comm, "state")
    move = get_rules("mapmaker").legal_moves(game.state, 0)[0]
    await mover.send_to(text_data=json.dumps({"type": "move", "move": move, "version": 0}))
    assert (await receive_type(watcher, "state"))["game"]["version"] == 1
    for comm in (mover, watcher):
        await comm.disconnect()


@pytest.fixture
def slow_after_commit():
    """A dashboard listener that holds every move's after-commit work until released."""
    import threading

    from games.signals import game_changed

    release = threading.Event()

    def slow_listener(sender, **kwargs):
        release.wait(10)
        return []

    game_changed.connect(slow_listener, weak=False)
    yield release
    release.set()
    game_changed.disconnect(slow_listener)


async def test_the_movers_own_view_does_not_wait_for_the_after_commit_work(
        table, any_layer, slow_after_commit):
    """The mover's new board reaches its socket while slow after-commit work (a dashboard
    listener here) is still running, not only after the service returns."""
    game, ana, *_ = table
    comm = await connected(game.pk, ana)
    move = get_rules("mapmaker").legal_moves(game.state, 0)[0]
    await comm.send_to(text_data=json.dumps({"type": "move", "move": move, "version": 0, "ref": "m"}))
    frame = await receive(comm)
    assert frame["type"] == "state" and frame["game"]["version"] == 1
    slow_after_commit.set()
    assert await receive(comm) == {"type": "ack", "ref": "m", "version": 1}
    await comm.disconnect()


async def test_a_server_failure_during_a_move_is_an_error_frame_and_the_socket_lives_on(
        table, inmemory_layer, monkeypatch):
    from django.db import OperationalError

    from games import services

    def database_down(**kwargs):
        raise OperationalError("server closed the connection unexpectedly")

    game, ana, *_ = table
    comm = await connected(game.pk, ana)
    monkeypatch.setattr(services, "move_submit", database_down)
    move = get_rules("mapmaker").legal_moves(game.state, 0)[0]
    await comm.send_to(text_data=json.dumps({"type": "move", "move": move, "version": 0, "ref": "m"}))
    error = await receive(comm)
    assert error["type"] == "error" and error["code"] == "server_error" and error["ref"] == "m"
    assert "try again" in error["message"]
    monkeypatch.undo()
    await comm.send_to(text_data=json.dumps({"type": "move", "move": move, "version": 0, "ref": "n"}))
    assert await receive_type(comm, "ack") == {"type": "ack", "ref": "n", "version": 1}
    await comm.disconnect()


async def test_a_state_frame_overtaken_by_a_newer_one_is_not_sent(table, inmemory_layer):
    """Two processes may publish a game's frames out of order; a socket never steps back."""
    from channels.layers import get_channel_layer

    from games.broadcast import group_for

    game, ana, ben, _ = table
    comm = await connected(game.pk, ana)
    layer = get_channel_layer()
    for version in (5, 3, 6):
        await layer.group_send(group_for(game.pk, 0), {
            "type": "game.state", "version": version, "user_ids": [ana.pk, ben.pk],
            "frame": json.dumps({"type": "state", "game": {"version": version}})})
    assert [(await receive(comm))["game"]["version"] for _ in range(2)] == [5, 6]
    assert await comm.receive_nothing(timeout=0.2)
    await comm.disconnect()


async def test_a_flood_of_moves_is_turned_away_while_earlier_ones_are_in_flight(
        table, inmemory_layer, slow_after_commit):
    from games.consumers import MAX_MOVES_IN_FLIGHT

    game, ana, *_ = table
    comm = await connected(game.pk, ana)
    move = get_rules("mapmaker").legal_moves(game.state, 0)[0]
    for n in range(MAX_MOVES_IN_FLIGHT + 1):
        await comm.send_to(text_data=json.dumps(
            {"type": "move", "move": move, "version": 0, "ref": f"m{n}"}))
    busy = await receive_type(comm, "error")
    assert busy["code"] == "busy" and busy["ref"] == f"m{MAX_MOVES_IN_FLIGHT}"
    slow_after_commit.set()
    assert (await receive_type(comm, "ack"))["ref"] == "m0"
    await comm.disconnect()


async def test_the_game_log_names_players_on_connect_and_with_every_move(table, any_layer):
    """A socket gets the whole game log after its first state frame, and each new state frame
    carries the lines of the move that made it, with the players' names filled in."""
    from games import services as game_services

    game, ana, ben, _ = table
    rules = get_rules("mapmaker")
    move = rules.legal_moves(game.state, 0)[0]
    await database_sync_to_async(game_services.move_submit)(
        game_id=game.pk, seat_index=0, move=move, expected_version=0, user=ana)
    comm = communicator(game.pk, ben)
    assert (await comm.connect())[0]
    state = await receive_type(comm, "state")
    assert state["game"]["log"] == {"ply": 0, "seat": 0, "lines": ["ana placed a border."]}
    log = await receive(comm)
    assert log == {"type": "log", "entries": [
        {"ply": 0, "seat": 0, "lines": ["ana placed a border."]}]}
    game = await database_sync_to_async(Game.objects.get)(pk=game.pk)
    move = rules.legal_moves(game.state, 1)[0]
    await comm.send_to(text_data=json.dumps({"type": "move", "move": move, "version": 1,
                                             "ref": "b"}))
    frame = await receive_type(comm, "state")
    assert frame["game"]["log"]["lines"][0] == "ben placed a border."
    await comm.send_to(text_data=json.dumps({"type": "log"}))
    again = await receive_type(comm, "log")
    assert [e["ply"] for e in again["entries"]] == [0, 1]
    await comm.disconnect()
