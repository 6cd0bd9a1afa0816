"""Regression tests for the findings of the security probe (accounts, sessions, sockets).

Each test fails on the code before its fix.
"""

import json
import math
import time

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


# --- lockouts that hit the real user ---------------------------------------------------

def _login(client, username, password, ip):
    return client.post(reverse("login"), {"username": username, "password": password},
                       REMOTE_ADDR=ip)


@pytest.mark.django_db
def test_failures_elsewhere_never_lock_the_real_user_out(school):
    from classrooms import ratelimit

    teacher = Client()
    assert _login(teacher, "teach_a", "pw-teach_a", "10.0.0.5").status_code == 302
    assert teacher.cookies.get(ratelimit.LOGIN_DEVICE_COOKIE)  # her own device from now on
    teacher.post(reverse("logout"))
    attacker = Client()
    for _ in range(ratelimit.LOGIN_MAX_FAILURES + 3):
        _login(attacker, "teach_a", "wrong", "10.0.0.5")  # the same school address
    assert _login(attacker, "teach_a", "pw-teach_a", "10.0.0.5").status_code == 429
    # her device still gets in, and so does any browser at another address
    assert _login(teacher, "teach_a", "pw-teach_a", "10.0.0.5").status_code == 302
    assert _login(Client(), "teach_a", "pw-teach_a", "192.168.1.9").status_code == 302


@pytest.mark.django_db
def test_the_client_address_comes_from_a_proxy_header_only_when_configured(school, settings):
    from classrooms import ratelimit

    def fail_from(forwarded):
        for _ in range(ratelimit.LOGIN_MAX_FAILURES):
            Client().post(reverse("login"), {"username": "ben", "password": "wrong"},
                          REMOTE_ADDR="10.9.9.9", HTTP_X_FORWARDED_FOR=forwarded)

    def blocked(forwarded):
        return Client().post(reverse("login"), {"username": "ben", "password": "pw-ben"},
                             REMOTE_ADDR="10.9.9.9",
                             HTTP_X_FORWARDED_FOR=forwarded).status_code == 429

    # not configured: a client-written header changes nothing; the proxy's address counts
    fail_from("1.1.1.1")
    assert blocked("2.2.2.2")
    # one trusted proxy: each client's own address counts, so the real user is not blocked
    settings.TRUSTED_PROXY_HOPS = 1
    fail_from("3.3.3.3")
    assert blocked("3.3.3.3") and not blocked("4.4.4.4")
    # a client cannot pick its address by writing the header itself: the proxy's hop counts
    assert blocked("6.6.6.6, 3.3.3.3")


@pytest.mark.django_db
def test_join_code_limits_count_devices_not_the_school(client, school, monkeypatch):
    from classrooms import ratelimit

    monkeypatch.setattr(ratelimit, "JOIN_IP_MAX_FAILURES", 3)
    known = Client()
    known.get(reverse("classrooms:join"))  # a tablet that has been here before
    for _ in range(5):  # a script without a device cookie at the same address
        Client().post(reverse("classrooms:join"), {"code": "ZZZZZZ", "name": "x",
                                                   "password": "y"})
    assert Client().post(reverse("classrooms:join"), {
        "code": "ZZZZZZ", "name": "x", "password": "y"}).status_code == 429
    response = known.post(reverse("classrooms:join"), {
        "code": school.class_a.join_code, "name": "Cy", "password": "cyan-Pony-73"})
    assert response.status_code == 200 and "Welcome" in response.content.decode()


# --- sign-up and join rate limits -------------------------------------------------------

@pytest.mark.django_db
def test_teacher_sign_ups_are_limited_per_address(client):
    from classrooms import ratelimit

    codes = []
    for n in range(ratelimit.SIGNUPS_PER_ADDRESS + 2):
        response = Client().post(reverse("classrooms:signup"), {
            "username": f"t{n}", "first_name": f"T {n}", "email": "",
            "password1": "a-Long-passphrase-9", "password2": "a-Long-passphrase-9"})
        codes.append(response.status_code)
    assert codes == [302] * ratelimit.SIGNUPS_PER_ADDRESS + [429, 429]
    assert User.objects.filter(username__startswith="t").count() == ratelimit.SIGNUPS_PER_ADDRESS


@pytest.mark.django_db
def test_new_accounts_by_join_code_are_limited_per_device(school):
    from classrooms import ratelimit

    device = Client()
    device.get(reverse("classrooms:join"))
    made = 0
    for n in range(ratelimit.JOIN_ACCOUNTS_PER_DEVICE + 2):
        response = device.post(reverse("classrooms:join"), {
            "code": school.class_a.join_code, "name": f"Kid {n}", "password": "cyan-Pony-73"})
        made += "Welcome" in response.content.decode()
        device.post(reverse("logout"))
    assert made == ratelimit.JOIN_ACCOUNTS_PER_DEVICE
    assert response.status_code == 429 and "Too many new accounts" in response.content.decode()


# --- issued passwords, sessions on shared devices ----------------------------------------

@pytest.mark.django_db
def test_issued_passwords_stay_only_while_the_cards_are_printed(client, school, monkeypatch):
    from classrooms import views

    client.force_login(school.teach_a)
    client.post(reverse("classrooms:roster_add", args=[school.class_a.pk]), {"names": "Zed", "confirm": "1"})
    cards = client.get(reverse("classrooms:cards", args=[school.class_a.pk]))
    assert "no-store" in cards["Cache-Control"]
    assert cards.content.decode().count('class="card-password"') == 1
    later = views.time.time() + views.CARDS_TTL_S + 1
    monkeypatch.setattr(views.time, "time", lambda: later)
    cards = client.get(reverse("classrooms:cards", args=[school.class_a.pk]))
    assert 'class="card-password"' not in cards.content.decode()
    assert not any(k.startswith("classrooms-cards") for k in client.session.keys())


@pytest.mark.django_db
def test_student_sessions_end_with_the_browser_and_idle_hours(settings):
    from gerrymander_site import middleware

    build_school()
    student = Client()
    _login(student, "ana", "pw-ana", "10.0.0.1")
    assert student.session.get_expire_at_browser_close()
    assert student.get(reverse("classrooms:my_games")).status_code == 200
    teacher = Client()
    _login(teacher, "teach_a", "pw-teach_a", "10.0.0.2")
    assert not teacher.session.get_expire_at_browser_close()
    assert teacher.get(reverse("classrooms:class_list")).status_code == 200
    # a few idle hours later the student is signed out; the teacher's limit is longer
    for client in (student, teacher):
        session = client.session
        session[middleware.LAST_SEEN] -= settings.STUDENT_IDLE_S + 60
        session.save()
    assert student.get(reverse("classrooms:my_games")).status_code == 302
    assert teacher.get(reverse("classrooms:class_list")).status_code == 200
    session = teacher.session
    session[middleware.LAST_SEEN] -= settings.TEACHER_IDLE_S + 60
    session.save()
    assert teacher.get(reverse("classrooms:class_list")).status_code == 302


# --- socket limits ------------------------------------------------------------------------

@pytest.mark.django_db(transaction=True)
async def test_a_flood_of_frames_is_slowed_then_closed(socket_school, monkeypatch):
    from gerrymander_site import sockets

    # The bucket refills by the clock while frames are handled: on a busy machine a sync can
    # take longer than the refill interval, so the flood would never run dry.  A slow refill
    # keeps the test about the limit, not about the machine's speed.
    monkeypatch.setattr(sockets, "MESSAGE_RATE", 1.0)
    s = socket_school
    comm = await open_game_socket(s.game.pk, s.cookie)
    started = time.monotonic()
    flood = sockets.MESSAGE_BURST + sockets.FLOOD_CLOSE_AFTER + 5
    for _ in range(flood):
        await comm.send_to(text_data='{"type": "sync"}')
    frames, code = [], None
    while code is None:
        output = await comm.receive_output(5)
        if output["type"] == "websocket.close":
            code = output.get("code")
        else:
            frames.append(json.loads(output["text"]))
    assert code == 4429
    states = [f for f in frames if f["type"] == "state"]
    # the burst, the connect's own state and what the rate refilled while the flood was
    # handled (a busy machine takes longer); the rest never reached the database
    refilled = math.ceil((time.monotonic() - started) * sockets.MESSAGE_RATE)
    assert len(states) <= sockets.MESSAGE_BURST + 2 + refilled < flood / 2
    assert any(f["type"] == "error" and f["code"] == "too_fast" for f in frames)


@pytest.mark.django_db(transaction=True)
async def test_a_user_may_hold_only_so_many_sockets(socket_school, monkeypatch):
    from gerrymander_site import sockets

    s = socket_school
    monkeypatch.setattr(sockets, "SOCKETS_PER_USER", 3)
    held = [await open_game_socket(s.game.pk, s.cookie) for _ in range(3)]
    assert await ws_open(game_socket(s.game.pk, s.cookie)) == (False, 4429)
    await held[0].disconnect()
    again = await open_game_socket(s.game.pk, s.cookie)  # a closed one frees its place
    for comm in [*held[1:], again]:
        await comm.disconnect()
