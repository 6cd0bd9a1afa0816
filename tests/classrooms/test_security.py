"""Regression tests for the findings of the security probe (accounts, sessions, sockets).

Each test fails on the code before its fix.
"""

import json

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from classrooms import services
from classrooms.models import Classroom, Membership
from games.engine import get_rules
from games.models import Game

from ..conftest import ws_open
from .conftest import build_school, cookie_for

User = get_user_model()


def flashes(response):
    return [(m.level_tag, m.message) for m in response.wsgi_request._messages._queued_messages]


# --- HIGH: a teacher can take over another teacher's student ---------------------------

@pytest.mark.django_db
def test_the_takeover_exploit_step_by_step_is_closed(school):
    ana, ana_password = school.ana, "pw-ana"
    # 1. anyone signs up as a teacher ...
    rogue = Client()
    response = rogue.post(reverse("classrooms:signup"), {
        "username": "mr_rogue", "first_name": "Mr Rogue", "email": "",
        "password1": "a-Long-passphrase-9", "password2": "a-Long-passphrase-9"})
    assert response.status_code == 302
    # 2. ... makes a class and hands out its code
    rogue.post(reverse("classrooms:class_list"), {"name": "Trap"})
    trap = Classroom.objects.get(name="Trap")
    # 3. a student of another teacher's class types that code while signed in: she is asked
    #    first, by the class's name and its teacher's, and a teacher not yet approved by an
    #    admin cannot take her
    student = Client()
    student.force_login(ana)
    for data in ({"code": trap.join_code}, {"code": trap.join_code, "confirm": "yes"}):
        refused = student.post(reverse("classrooms:join"), data)
        assert "not approved yet" in refused.content.decode()
        assert not Membership.objects.filter(classroom=trap, student=ana).exists()
    # 4. once an admin approves the teacher, she is asked first, by the class's name and its
    #    teacher's, and only joins when she says yes ...
    services.teacher_approve(user=User.objects.get(username="mr_rogue"))
    question = student.post(reverse("classrooms:join"), {"code": trap.join_code})
    assert "Join Trap?" in question.content.decode()
    assert "Mr Rogue" in question.content.decode()
    assert not Membership.objects.filter(classroom=trap, student=ana).exists()
    student.post(reverse("classrooms:join"), {"code": trap.join_code, "confirm": "yes"})
    assert Membership.objects.filter(classroom=trap, student=ana).exists()
    # 5. ... and still the rogue teacher cannot change her account ...
    for name, data in (("student_reset", {}), ("student_rename", {"name": "Pwned"})):
        response = rogue.post(reverse(f"classrooms:{name}", args=[trap.pk, ana.pk]), data)
        assert response.status_code == 302
        assert ("error", "Ana María's account was made by another class: only that class's "
                "teacher (or an admin) can change it.") in flashes(response)
    ana.refresh_from_db()
    assert ana.check_password(ana_password) and ana.first_name == "Ana María"
    # ... nor switch it off: removing her takes her out of the rogue's class only
    rogue.post(reverse("classrooms:student_remove", args=[trap.pk, ana.pk]))
    ana.refresh_from_db()
    assert ana.is_active and not Membership.objects.filter(classroom=trap, student=ana).exists()
    assert Membership.objects.filter(classroom=school.class_a, student=ana).exists()
    assert school.game.seats.filter(user=ana).exists()  # her graded game is still hers
    # 6. so the rogue can neither sign in as her nor play her seat
    assert not Client().login(username="ana", password="a-Long-passphrase-9")
    assert Client().login(username="ana", password=ana_password)
    # her own class's teacher still manages her account
    _, fresh = services.student_password_reset(classroom=school.class_a, student_id=ana.pk,
                                               by=school.teach_a)
    assert Client().login(username="ana", password=fresh)


@pytest.mark.django_db
def test_an_admin_may_grant_a_teacher_an_account_of_another_class(school):
    from classrooms.models import StudentAccount

    with pytest.raises(services.ClassroomError):
        services.student_rename(classroom=school.class_b, student_id=school.eve.pk,
                                name="Eva", by=school.teach_a)
    Membership.objects.create(classroom=school.class_a, student=school.eve, source="code")
    with pytest.raises(services.ClassroomError):
        services.student_rename(classroom=school.class_a, student_id=school.eve.pk,
                                name="Eva", by=school.teach_a)
    StudentAccount.objects.get(user=school.eve).managers.add(school.teach_a)
    services.student_rename(classroom=school.class_a, student_id=school.eve.pk, name="Eva",
                            by=school.teach_a)
    school.eve.refresh_from_db()
    assert school.eve.first_name == "Eva"


@pytest.mark.django_db
def test_accounts_belong_to_the_class_that_made_them(school):
    from classrooms.selectors import teacher_manages

    (made, _), = services.roster_add(classroom=school.class_b, text="Zoe")
    assert teacher_manages(teacher=school.teach_b, student=made)
    assert not teacher_manages(teacher=school.teach_a, student=made)
    _, joined = services.student_join(code=school.class_a.join_code, name="Yan",
                                      password="yellow-Kite-51")
    assert teacher_manages(teacher=school.teach_a, student=joined)
    assert teacher_manages(teacher=school.admin, student=joined)


# --- sockets outlive the session --------------------------------------------------------

def game_socket(game_id, cookie):
    from gerrymander_site.asgi import application

    return WebsocketCommunicator(application, f"/ws/games/{game_id}/",
                                 headers=[(b"origin", b"http://localhost"), (b"cookie", cookie)])


async def open_game_socket(game_id, cookie):
    comm = game_socket(game_id, cookie)
    ok, frame = await ws_open(comm)
    assert ok and frame["type"] == "state"
    assert json.loads(await comm.receive_from(timeout=5))["type"] == "log"
    return comm


async def closed_with(comm, timeout=5):
    while True:
        output = await comm.receive_output(timeout)
        if output["type"] == "websocket.close":
            return output.get("code")


@pytest.fixture
def socket_school(transactional_db, any_layer):
    school = build_school()
    school.cookie = cookie_for(school.ana)
    return school


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("change", ["password_reset", "password_change", "deactivate"])
async def test_a_changed_account_closes_every_socket_at_once(socket_school, change):
    s = socket_school
    comms = [await open_game_socket(s.game.pk, s.cookie) for _ in range(2)]

    def act():
        ana = User.objects.get(pk=s.ana.pk)
        if change == "password_reset":
            services.student_password_reset(classroom=s.class_a, student_id=ana.pk, by=s.teach_a)
        elif change == "password_change":
            ana.set_password("a-new-Secret-42")
            ana.save()
        else:
            ana.is_active = False
            ana.save()

    await database_sync_to_async(act)()
    want = 4403 if change == "deactivate" else 4401
    for comm in comms:
        assert await closed_with(comm) == want


@pytest.mark.django_db(transaction=True)
async def test_signing_out_closes_that_sessions_sockets(socket_school):
    s = socket_school
    comm = await open_game_socket(s.game.pk, s.cookie)
    other = await open_game_socket(s.game.pk, await database_sync_to_async(cookie_for)(s.ana))

    def sign_out():
        client = Client()
        client.cookies["sessionid"] = s.cookie.decode().split("=", 1)[1]
        client.post(reverse("logout"))

    await database_sync_to_async(sign_out)()
    assert await closed_with(comm) == 4401
    assert await other.receive_nothing(timeout=0.3)  # her other device stays signed in
    await other.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_removal_from_a_class_closes_her_sockets_with_a_reason(socket_school):
    s = socket_school
    from gerrymander_site.asgi import application

    from .conftest import join

    await database_sync_to_async(join)(s.class_b, s.ana)  # in two classes: stays active
    game = await open_game_socket(s.game.pk, s.cookie)
    me = WebsocketCommunicator(application, "/ws/me/", headers=[
        (b"origin", b"http://localhost"), (b"cookie", s.cookie)])
    assert (await ws_open(me))[0]
    await database_sync_to_async(services.student_remove)(classroom=s.class_a,
                                                          student_id=s.ana.pk, by=s.teach_a)
    # her seat went to a bot and the class is not hers any more: that game is closed to her
    assert await closed_with(game) == 4410
    # every other socket of hers reconnects to see what she may see now
    assert await closed_with(me) == 4409
    assert await ws_open(game_socket(s.game.pk, s.cookie)) == (False, 4404)


@pytest.mark.django_db(transaction=True)
async def test_no_move_is_taken_from_a_socket_whose_session_ended(socket_school):
    """Even if the close event were lost, a move checks the session's password hash and the
    account under the game's lock."""
    s = socket_school
    comm = await open_game_socket(s.game.pk, s.cookie)
    # the password changes behind the signals' back (a bulk update sends no save signal)
    await database_sync_to_async(
        lambda: User.objects.filter(pk=s.ana.pk).update(password="md5$x$changed"))()
    game = await database_sync_to_async(Game.objects.get)(pk=s.game.pk)
    seat = await database_sync_to_async(lambda: game.seats.get(user=s.ana).index)()
    rules = get_rules("mapmaker")
    from games import services as game_services

    def other_player_moves(game):
        other = rules.to_move(game.state)[0]
        return game_services.move_submit(
            game_id=game.pk, seat_index=other, user=game.seats.get(index=other).user,
            expected_version=game.version, move=rules.legal_moves(game.state, other)[0])

    while seat not in rules.to_move(game.state):  # let the other player move first
        game = await database_sync_to_async(other_player_moves)(game)
    await comm.send_to(text_data=json.dumps({
        "type": "move", "version": game.version, "ref": "m",
        "move": rules.legal_moves(game.state, seat)[0]}))
    frame = json.loads(await comm.receive_from(timeout=5))
    while frame["type"] != "error":
        frame = json.loads(await comm.receive_from(timeout=5))
    assert frame["code"] == "signed_out"
    assert await closed_with(comm) == 4401
    after = await database_sync_to_async(Game.objects.get)(pk=s.game.pk)
    assert after.version == game.version


# --- passwords ---------------------------------------------------------------------------

def test_generated_student_passwords_are_three_words_and_carry_40_bits():
    import re

    assert services.password_strength_bits() >= 40
    seen = {services.easy_password() for _ in range(200)}
    assert len(seen) == 200
    assert all(re.fullmatch(r"[a-z]{3,6}-[a-z]{3,6}-[a-z]{3,6}-[2-9]{2}", p) for p in seen)


@pytest.mark.django_db
@pytest.mark.parametrize(("password", "why"), [
    ("short-9", "too short"), ("password123", "too common"), ("12345678901", "entirely numeric"),
    ("mrteacher1", "too similar")])
def test_teachers_need_a_strong_password(client, password, why):
    response = client.post(reverse("classrooms:signup"), {
        "username": "mrteacher", "first_name": "Mr Teacher", "email": "",
        "password1": password, "password2": password})
    assert response.status_code == 200 and why in response.content.decode()
    assert not User.objects.filter(username="mrteacher").exists()


@pytest.mark.django_db
def test_a_teacher_password_needs_ten_characters_a_student_one_eight(client, school):
    with pytest.raises(services.ClassroomError, match="at least 10 characters"):
        services.password_check("Zx9-qwert", name="Ms T", teacher=True)
    services.password_check("Zx9-qwert", name="Kid")  # 9 characters: fine for a student
    with pytest.raises(services.ClassroomError, match="at least 8 characters"):
        services.student_join(code=school.class_a.join_code, name="Kid", password="Zx9-qwe")


# --- names, pages, logs -----------------------------------------------------------------

def test_names_lose_bidirectional_and_control_characters():
    assert services.clean_display_name("Ana\u202eS\u2066 Lopez\u200f\x00") == "Ana S Lopez"


@pytest.mark.django_db
def test_pages_carry_a_strict_content_security_policy_and_no_inline_handlers(client, school):
    import re
    from pathlib import Path

    client.force_login(school.teach_a)
    response = client.get(reverse("classrooms:class_detail", args=[school.class_a.pk]))
    policy = response["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "'unsafe-inline'" not in policy
    assert "frame-ancestors 'none'" in policy
    root = Path(__file__).resolve().parents[2]
    for path in [*root.glob("templates/**/*.html"), *root.glob("classrooms/templates/**/*.html")]:
        text = path.read_text()
        assert not re.search(r"\son[a-z]+=", text), f"inline handler in {path.name}"
        assert "style=" not in text and "<style" not in text, f"inline style in {path.name}"
        assert not re.search(r"<script(?![^>]*(src=|application/json))", text), path.name


@pytest.mark.django_db
def test_a_refused_request_is_logged_as_one_line(client, school, caplog):
    client.force_login(school.ana)
    with caplog.at_level("WARNING", logger="django.request"):
        response = client.get(reverse("classrooms:class_list"))
    assert response.status_code == 403
    record, = [r for r in caplog.records if r.name == "django.request"]
    assert record.exc_info is None and "Forbidden" in record.getMessage()
