"""Live sockets: the teacher's dashboard and a student's "my games", fed by game_changed."""

import json

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from classrooms import services
from games import services as game_services
from games.engine import get_rules

from .conftest import build_school, cookie_for

pytestmark = pytest.mark.django_db(transaction=True)


def communicator(path, cookie):
    from gerrymander_site.asgi import application

    return WebsocketCommunicator(application, path, headers=[(b"origin", b"http://localhost"),
                                                             (b"cookie", cookie)])


async def receive(comm, timeout=5):
    return json.loads(await comm.receive_from(timeout=timeout))


async def receive_until(comm, predicate, timeout=5):
    while True:
        frame = await receive(comm, timeout)
        if predicate(frame):
            return frame


@pytest.fixture
def live_school(transactional_db, inmemory_layer):
    school = build_school()
    school.cookies = {u.username: cookie_for(u) for u in (school.teach_a, school.ana, school.ben)}
    return school


@database_sync_to_async
def _play_one(game_id):
    from games.models import Game

    game = Game.objects.get(pk=game_id)
    rules = get_rules(game.kind)
    seat_index = rules.to_move(game.state)[0]
    seat = game.seats.get(index=seat_index)
    move = rules.legal_moves(game.state, seat_index)[0]
    game_services.move_submit(game_id=game_id, seat_index=seat_index, move=move,
                              expected_version=game.version, user=seat.user)
    return seat.user.username, game.version + 1


async def test_dashboard_gets_the_rows_then_a_row_per_change(live_school):
    s = live_school
    comm = communicator(f"/ws/assignments/{s.assignment.pk}/", s.cookies["teach_a"])
    assert (await comm.connect())[0]
    first = await receive(comm)
    assert first["type"] == "rows" and len(first["rows"]) == 1 and first["paused"] is False
    row = first["rows"][0]
    assert {p["name"] for p in row["players"]} == {"Ana María", "Ben, Jr."}
    assert len(row["to_move"]) == 1 and row["last_move_at"] is None

    mover, version = await _play_one(s.game.pk)
    frame = await receive_until(comm, lambda f: f["type"] == "row" and f["row"]["version"] == version)
    assert frame["row"]["last_move_at"] is not None and frame["row"]["game_id"] == s.game.pk

    await database_sync_to_async(services.assignment_set_paused)(assignment=s.assignment, paused=True)
    seen = {}
    while len(seen) < 2:
        frame = await receive(comm)
        seen[frame["type"]] = frame
    assert seen["paused"]["paused"] is True
    assert seen["row"]["row"]["status"] == "paused"
    await comm.disconnect()


async def test_my_games_updates_live_and_shows_new_assignments(live_school):
    s = live_school
    comm = communicator("/ws/me/", s.cookies["ana"])
    assert (await comm.connect())[0]
    first = await receive(comm)
    assert first["type"] == "games" and [r["game_id"] for r in first["rows"]] == [s.game.pk]
    before = first["rows"][0]["text"]
    assert before == "your turn" or before.startswith("waiting for ")

    await _play_one(s.game.pk)
    frame = await receive_until(comm, lambda f: f["type"] == "game")
    assert frame["row"]["game_id"] == s.game.pk and frame["row"]["text"] != ""

    # a new assignment appears without reloading
    new = await database_sync_to_async(services.assignment_create)(
        classroom=s.class_a, title="Solo practice", kind="mapmaker", mode="solo-easy", grouping="random")
    frame = await receive_until(comm, lambda f: f["type"] == "game"
                                and f["row"]["title"].startswith("Solo practice"))
    assert frame["row"]["state"] == "your_turn"
    assert await sync_to_async(new.tables.count)() == 2  # one solo table per student

    # handed to a bot: the row goes away
    seat_index = await database_sync_to_async(
        lambda: s.game.seats.get(user=s.ana).index)()
    await database_sync_to_async(services.seat_to_bot)(
        assignment=s.assignment, table_id=s.table.pk, index=seat_index, bot_level="random")
    frame = await receive_until(comm, lambda f: f["type"] == "game" and f["row"].get("removed"))
    assert frame["row"]["game_id"] == s.game.pk
    await comm.disconnect()


async def test_my_games_row_is_resent_when_the_turn_passes_not_for_every_border(live_school):
    """Turn quotas are 1, 2, 3... borders: the first border passes the turn, the second keeps
    it (nothing on the row changes, so nothing is sent), the third passes it again."""
    s = live_school
    me = communicator("/ws/me/", s.cookies["ana"])
    board = communicator(f"/ws/assignments/{s.assignment.pk}/", s.cookies["teach_a"])
    for comm in (me, board):
        assert (await comm.connect())[0]
        await receive(comm)

    async def play_and_collect():
        await _play_one(s.game.pk)
        row = await receive_until(board, lambda f: f["type"] == "row")  # the teacher: always
        rows = []
        while not await me.receive_nothing(timeout=0.3):
            rows.append(await receive(me))
        return row, [f for f in rows if f["type"] == "game"]

    teacher_rows, my_rows = zip(*[await play_and_collect() for _ in range(3)], strict=True)
    assert [r["row"]["version"] for r in teacher_rows] == [1, 2, 3]
    assert [len(rows) for rows in my_rows] == [1, 0, 1]
    assert my_rows[0][0]["row"]["text"] != my_rows[2][0]["row"]["text"]
    for comm in (me, board):
        await comm.disconnect()


async def test_sockets_ignore_junk_and_resync(live_school):
    s = live_school
    comm = communicator("/ws/me/", s.cookies["ben"])
    assert (await comm.connect())[0]
    await receive(comm)
    await comm.send_to(text_data="not json")
    assert (await receive(comm))["type"] == "error"
    await comm.send_to(text_data=json.dumps({"type": "sync"}))
    assert (await receive(comm))["type"] == "games"
    await comm.disconnect()


@pytest.mark.django_db
def test_lobby_games_skip_the_table_query_classroom_tables_get_their_row(django_assert_num_queries):
    """A lobby game is never a classroom table, so its moves skip that query; a table game's
    dashboard row is built every time."""
    from classrooms.live import on_game_changed

    school = build_school()
    lobby = game_services.game_create(kind="mapmaker", options={"players": 2}, lobby=True,
                                      seats=[game_services.SeatSpec(user=school.ana)])
    seats = list(lobby.seats.select_related("user"))
    with django_assert_num_queries(0):
        assert on_game_changed(None, game=lobby, seats=seats, turn_kept=True) == []
    table_seats = list(school.game.seats.select_related("user"))
    for _ in range(2):
        events = on_game_changed(None, game=school.game, seats=table_seats, turn_kept=True)
        assert [group for group, _ in events] == [f"assignment-{school.assignment.pk}"]
