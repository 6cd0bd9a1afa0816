"""The dashboard shows the room (point 2), late joiners are seated (point 1), nobody vanishes
from the records (point 4), and the due time (point 12)."""

import csv
import io
import json
import time
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone

from classrooms import selectors, services
from classrooms.models import Assignment, AssignmentGame
from classrooms.services import ClassroomError
from games import services as game_services
from games.engine import get_rules, kinds
from games.models import Game

from .conftest import build_school, cookie_for, join, make_user, play_to_end

pytestmark = pytest.mark.django_db


def _late_joiner(school, name="Zoë Late"):
    _, user = services.student_join(code=school.class_a.join_code, name=name,
                                    password="late-pass-7")
    return user


def _status(room, user):
    return next(s for s in room["students"] if s["id"] == user.pk)


def _seats_of(assignment, user):
    return list(Game.objects.filter(assignment_table__assignment=assignment, seats__user=user)
                .exclude(status=Game.Status.FINISHED))


# --- point 1: late joiners ------------------------------------------------------------------

def test_a_late_joiner_is_listed_then_seated_at_a_new_table_with_bots(school):
    zoe = _late_joiner(school)
    room = selectors.dashboard_room(assignment=school.assignment)
    assert _status(room, zoe)["status"] == "not_seated"
    assert room["summary"]["not_seated"] == 1
    assert selectors.my_game_rows(user=zoe) == []
    # the only table is full of students and the assignment has no bots: a new table
    table = services.student_seat(assignment=school.assignment, student_id=zoe.pk)
    assert table.table == 2
    seats = list(table.game.seats.all())
    assert [s.user_id for s in seats if s.user_id] == [zoe.pk]
    assert all(s.is_bot for s in seats if s.user_id is None)  # they can play at once
    assert table.game.status == Game.Status.ACTIVE
    rows = selectors.my_game_rows(user=zoe)
    assert [r["title"] for r in rows] == ["Lesson 1 - table 2"]
    room = selectors.dashboard_room(assignment=school.assignment)
    assert _status(room, zoe)["status"] == "playing" and room["summary"]["not_seated"] == 0
    # one click twice does not seat her twice
    with pytest.raises(ClassroomError) as err:
        services.student_seat(assignment=school.assignment, student_id=zoe.pk)
    assert err.value.code == "already_seated" and "table 2" in err.value.message
    # a second late joiner takes over the bot's seat at the new table
    yan = _late_joiner(school, "Yan Late")
    again = services.student_seat(assignment=school.assignment, student_id=yan.pk)
    assert again.pk == table.pk and len(_seats_of(school.assignment, yan)) == 1


def test_a_late_joiner_takes_a_free_seat_else_a_bots_seat_not_one_kept_for_a_student(school):
    ana, ben = school.ana, school.ben
    cy = make_user("cy", name="Cy")
    join(school.class_a, cy)
    three = services.assignment_create(classroom=school.class_a, title="Threes", kind="mapmaker",
                                       mode="3", table_size=3, grouping="manual", bot_level="easy")
    services.assignment_start(assignment=three, tables=[[ana, ben]])
    table = three.tables.get()
    bot_seat = table.game.seats.get(bot_level="easy")
    # Ana's seat goes to a bot (kept for her); Cy comes late: he gets the other bot's seat
    ana_seat = table.game.seats.get(user=ana).index
    services.seat_to_bot(assignment=three, table_id=table.pk, index=ana_seat)
    seated = services.student_seat(assignment=three, student_id=cy.pk)
    assert seated.pk == table.pk
    assert table.game.seats.get(index=bot_seat.index).user_id == cy.pk
    # Ana, replaced by a bot, gets her own seat back with one click
    room = selectors.dashboard_room(assignment=three)
    assert _status(room, ana)["status"] == "replaced"
    services.student_seat(assignment=three, student_id=ana.pk)
    assert table.game.seats.get(index=ana_seat).user_id == ana.pk


def test_the_teacher_cannot_seat_one_student_twice_in_one_assignment(school):
    zoe = _late_joiner(school)
    services.student_seat(assignment=school.assignment, student_id=zoe.pk)
    # giving Zoë a seat at table 1 moves her there: her seat at table 2 goes to a bot
    ana_seat = school.game.seats.get(user=school.ana).index
    services.seat_to_bot(assignment=school.assignment, table_id=school.table.pk, index=ana_seat)
    services.seat_to_student(assignment=school.assignment, table_id=school.table.pk,
                             index=ana_seat, student_id=zoe.pk)
    assert [g.pk for g in _seats_of(school.assignment, zoe)] == [school.game.pk]
    # and "seat everyone" leaves her alone
    services.students_seat_all(assignment=school.assignment)
    assert [g.pk for g in _seats_of(school.assignment, zoe)] == [school.game.pk]


def test_solo_late_joiners_get_their_own_game(school):
    solo = services.assignment_create(classroom=school.class_a, title="Solo", kind="mapmaker",
                                      mode="solo-easy", grouping="random")
    zoe = _late_joiner(school)
    table = services.student_seat(assignment=solo, student_id=zoe.pk)
    assert table.table == 3 and [s.user_id for s in table.game.seats.all()] == [zoe.pk]


def test_seat_buttons_answer_json(client, school):
    zoe = _late_joiner(school)
    client.force_login(school.teach_a)
    url = reverse("classrooms:assignment_seat_student", args=[school.assignment.pk])
    answer = client.post(url, {"student_id": zoe.pk}, HTTP_ACCEPT="application/json")
    assert answer.json() == {"ok": True, "message": "Zoë is seated at table 2."}
    answer = client.post(url, {"student_id": zoe.pk}, HTTP_ACCEPT="application/json")
    assert answer.status_code == 400 and "already has a seat" in answer.json()["message"]


# --- point 2: the room ---------------------------------------------------------------------

def test_presence_online_idle_offline_from_the_sockets_marks(school):
    now = time.time()
    cache.set(f"sockets:user:{school.ana.pk}", 1)
    cache.set(f"sockets:seen:{school.ana.pk}", int(now) - 5)
    cache.set(f"sockets:user:{school.ben.pk}", 2)
    cache.set(f"sockets:seen:{school.ben.pk}", int(now) - selectors.IDLE_AFTER_S - 60)
    here = selectors.presence([school.ana.pk, school.ben.pk, school.eve.pk], now=now)
    assert [here[u.pk]["state"] for u in (school.ana, school.ben, school.eve)] == [
        "online", "idle", "offline"]
    room = selectors.dashboard_room(assignment=school.assignment)
    assert room["summary"]["online"] == 1 and room["summary"]["idle"] == 1


def test_stalled_tables_progress_and_the_summary(school):
    row = selectors.dashboard_rows(assignment=school.assignment)[0]
    assert row["progress"] == 0 and not row["stalled"]
    rules = get_rules("mapmaker")
    seat = rules.to_move(school.game.state)[0]
    game_services.move_submit(game_id=school.game.pk, seat_index=seat,
                              move=rules.legal_moves(school.game.state, seat)[0],
                              expected_version=0, user=school.game.seats.get(index=seat).user)
    Game.objects.filter(pk=school.game.pk).update(
        last_move_at=timezone.now() - timedelta(seconds=selectors.STALL_AFTER_S + 5))
    row = selectors.dashboard_rows(assignment=school.assignment)[0]
    assert row["stalled"] and row["to_move"]
    room = selectors.dashboard_room(assignment=school.assignment)
    assert room["summary"] == {**room["summary"], "tables": 1, "finished": 0, "stalled": 1,
                               "not_seated": 0}
    assert room["stalled"] == [school.table.pk]
    play_to_end(school.game)
    row = selectors.dashboard_rows(assignment=school.assignment)[0]
    assert row["progress"] == 1.0 and not row["stalled"]
    assert selectors.dashboard_room(assignment=school.assignment)["summary"]["finished"] == 1


def test_every_game_says_its_progress_between_0_and_1_or_nothing():
    for kind in kinds():
        rules = get_rules(kind)
        for mode in rules.modes:
            state = rules.setup(rules.mode_options(mode.key), seed=1)
            value = rules.progress(state)
            assert value is None or 0 <= value <= 1, (kind, mode.key, value)
    rules = get_rules("mapmaker")
    state = rules.setup({"players": 2}, seed=1)
    seat = rules.to_move(state)[0]
    later = rules.apply(state, seat, rules.legal_moves(state, seat)[0])
    assert rules.progress(later) >= rules.progress(state)


@pytest.mark.django_db(transaction=True)
async def test_the_dashboard_socket_sends_the_room_and_a_late_joiner(inmemory_layer):
    from channels.testing import WebsocketCommunicator

    from gerrymander_site.asgi import application

    school = await database_sync_to_async(build_school)()
    cookie = await database_sync_to_async(cookie_for)(school.teach_a)
    comm = WebsocketCommunicator(application, f"/ws/assignments/{school.assignment.pk}/",
                                 headers=[(b"origin", b"http://localhost"), (b"cookie", cookie)])
    assert (await comm.connect())[0]
    first = json.loads(await comm.receive_from(5))
    assert first["type"] == "rows" and first["room"]["summary"]["not_seated"] == 0
    await comm.send_to(text_data=json.dumps({"type": "room"}))
    frame = json.loads(await comm.receive_from(5))
    assert frame["type"] == "room" and {s["presence"] for s in frame["room"]["students"]}
    zoe = await database_sync_to_async(_late_joiner)(school)
    while True:  # the join is pushed: no reload, no waiting for the next tick
        frame = json.loads(await comm.receive_from(5))
        if frame["type"] == "room" and frame["room"]["summary"]["not_seated"] == 1:
            break
    assert _status(frame["room"], zoe)["status"] == "not_seated"
    await comm.disconnect()


# --- point 4: nobody vanishes ------------------------------------------------------------------

def _csv(response):
    return list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"), newline="")))


def test_results_and_both_csvs_list_every_student_with_a_status(client, school):
    zoe = _late_joiner(school)  # not seated
    cy = make_user("cy", name="Cy")
    join(school.class_a, cy)
    client.force_login(school.teach_a)
    rows = _csv(client.get(reverse("classrooms:assignment_results_csv",
                                   args=[school.assignment.pk])))
    by_player = {r["Player"]: r for r in rows}
    assert by_player["Zoë Late"]["Status"] == "Not seated" and by_player["Cy"]["Status"] == "Not seated"
    assert by_player["Ana María"]["Status"] == "Playing"
    assert by_player["Ana María"]["Won"] == "in play" and by_player["Ana María"]["Place"] == ""
    assert by_player["Ana María"]["Date"]
    assert len({tuple(r.values()) for r in rows}) == len(rows) == 4
    # Ben's seat goes to a bot: he is "replaced by a bot", the bot row says for whom
    ben_seat = school.game.seats.get(user=school.ben).index
    services.seat_to_bot(assignment=school.assignment, table_id=school.table.pk, index=ben_seat)
    rows = _csv(client.get(reverse("classrooms:assignment_results_csv",
                                   args=[school.assignment.pk])))
    by_player = {r["Player"]: r for r in rows}
    assert by_player["Ben, Jr."]["Status"] == "Replaced by a bot"
    assert by_player["Ben, Jr."]["Table"] == "1"
    assert any(r["Bot"] == "yes (in for Ben, Jr.)" for r in rows)
    play_to_end(school.game)
    rows = _csv(client.get(reverse("classrooms:assignment_results_csv",
                                   args=[school.assignment.pk])))
    ana = next(r for r in rows if r["Player"] == "Ana María")
    assert ana["Status"] == "Finished" and ana["Won"] in ("yes", "no") and ana["Place"]
    # the class CSV: every student of the class in every started assignment
    per_student = _csv(client.get(reverse("classrooms:class_results_csv",
                                          args=[school.class_a.pk])))
    assert {(r["Student"], r["Status"]) for r in per_student} == {
        ("Ana María", "Finished"), ("Ben, Jr.", "Replaced by a bot"),
        ("Cy", "Not seated"), ("Zoë Late", "Not seated")}
    # the pages say the same
    page = client.get(reverse("classrooms:assignment_results", args=[school.assignment.pk]))
    html = page.content.decode()
    assert 'id="unseated"' in html and "Zoë Late" in html and "Replaced by a bot" in html
    page = client.get(reverse("classrooms:student_results", args=[school.class_a.pk, zoe.pk]))
    assert "Not seated" in page.content.decode()


def test_a_game_in_play_never_says_won_no(school):
    rows = selectors.student_result_rows(classroom=school.class_a)
    assert {selectors.won_text(r) for r in rows} == {"in play"}


# --- point 12: the due time -----------------------------------------------------------------

def test_the_due_time_closes_the_games_when_the_teacher_chose_so(school):
    due = timezone.now() + timedelta(minutes=30)
    shown = services.assignment_create(classroom=school.class_a, title="Shown only",
                                       kind="mapmaker", mode="2", grouping="random",
                                       bot_level="easy", due_at=due)
    closing = services.assignment_create(classroom=school.class_a, title="Closes",
                                         kind="mapmaker", mode="2", grouping="random",
                                         bot_level="easy", due_at=due, close_at_due=True)
    row = selectors.my_game_rows(user=school.ana)[0]
    assert row["due_at"] == due.isoformat() and row["closes_at_due"]
    assert services.assignments_close_due() == []  # not yet
    assert services.assignments_close_due(now=due + timedelta(seconds=1)) == [closing.pk]
    closing.refresh_from_db()
    game = closing.tables.get().game
    assert closing.closed_at and game.status == Game.Status.PAUSED
    assert game.pause_message == services.CLOSED_MESSAGE
    assert shown.tables.get().game.status == Game.Status.ACTIVE  # only shown: left alone
    row = next(r for r in selectors.my_game_rows(user=school.ana) if r["title"].startswith("Closes"))
    assert row["state"] == "closed" and row["closed"]
    with pytest.raises(game_services.MoveRejected):
        rules = get_rules("mapmaker")
        seat = rules.to_move(game.state)[0]
        game_services.move_submit(game_id=game.pk, seat_index=seat,
                                  move=rules.legal_moves(game.state, seat)[0],
                                  expected_version=game.version,
                                  user=game.seats.get(index=seat).user)
    results = selectors.result_rows(assignment=closing)
    assert {r["status"] for r in results if not r["is_bot"]} == {"Not finished (closed)"}
    assert {selectors.won_text(r) for r in results} == {"not finished"}
    # "Resume all games" opens it again, for good
    services.assignment_set_paused(assignment=closing, paused=False)
    closing.refresh_from_db()
    assert not closing.closed_at and not closing.close_at_due
    assert closing.tables.get().game.status == Game.Status.ACTIVE
    assert services.assignments_close_due(now=due + timedelta(hours=1)) == []


def test_a_page_notices_the_due_time_without_celery(client, school):
    Assignment.objects.filter(pk=school.assignment.pk).update(
        due_at=timezone.now() - timedelta(minutes=1), close_at_due=True)
    client.force_login(school.ana)
    page = client.get(reverse("classrooms:my_games")).content.decode()
    assert "closed at the due time" in page
    assert AssignmentGame.objects.get(pk=school.table.pk).game.status == Game.Status.PAUSED


def test_the_assignment_form_offers_closing_and_explains_table_sizes(client, school):
    client.force_login(school.teach_a)
    url = reverse("classrooms:assignment_create", args=[school.class_a.pk])
    page = client.get(url).content.decode()
    assert "Close the games at the due time" in page and "Students per table is how many" in page
    response = client.post(url, {"title": "No time", "game": "mapmaker:2", "table_size": 2,
                                 "grouping": "random", "bot_level": "easy",
                                 "close_at_due": "on"})
    assert response.status_code == 200
    assert "Choose the due time the games close at." in response.content.decode()
    response = client.post(url, {"title": "Timed", "game": "mapmaker:2", "table_size": 2,
                                 "grouping": "random", "bot_level": "easy",
                                 "due_at": "2030-01-01T10:00", "close_at_due": "on"})
    assert response.status_code == 302
    assert Assignment.objects.get(title="Timed").close_at_due
