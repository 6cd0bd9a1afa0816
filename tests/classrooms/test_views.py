"""Pages: sign-up, roster and cards, self-join, rate limits, assignments, CSV."""

import csv
import io
import json

import pytest
from django.urls import reverse

from classrooms import ratelimit
from classrooms.models import Assignment, Membership

from .conftest import play_to_end

pytestmark = pytest.mark.django_db


def test_home_sends_each_role_to_its_page(client, school):
    assert client.get("/").status_code == 200
    client.force_login(school.teach_a)
    assert client.get("/").url == reverse("classrooms:class_list")
    client.force_login(school.ana)
    assert client.get("/").url == reverse("classrooms:my_games")


def test_teacher_signup_then_class_roster_and_printable_cards(client):
    response = client.post(reverse("classrooms:signup"), {
        "username": "mme_x", "first_name": "Mme X", "email": "",
        "password1": "a-good-pass-77", "password2": "a-good-pass-77"})
    assert response.status_code == 302
    response = client.post(reverse("classrooms:class_list"), {"name": "5e B"})
    class_url = response.url
    class_id = int(class_url.rstrip("/").split("/")[-1])
    response = client.post(reverse("classrooms:roster_add", args=[class_id]),
                           {"names": "Élodie Martin\nPicard, Jean-Luc"})
    assert response.status_code == 200 and "Create these 2 accounts" in response.content.decode()
    response = client.post(reverse("classrooms:roster_add", args=[class_id]),
                           {"names": "Élodie Martin\nPicard, Jean-Luc", "confirm": "1"})
    assert response.url == reverse("classrooms:cards", args=[class_id]) + "?show=new"
    page = client.get(response.url).content.decode()
    assert page.count('class="login-card"') == 2
    assert "Élodie Martin" in page and "Jean-Luc Picard" in page
    assert page.count('class="card-password"') == 2
    # a fresh session (another browser) sees no passwords; "new passwords" issues them
    client2 = type(client)()
    client2.login(username="mme_x", password="a-good-pass-77")
    assert 'class="card-password"' not in client2.get(response.url).content.decode()
    client2.post(reverse("classrooms:cards_reissue", args=[class_id]))
    assert client2.get(response.url).content.decode().count('class="card-password"') == 2


def test_self_join_page_logs_the_new_student_in(client, school):
    response = client.post(reverse("classrooms:join"), {
        "code": school.class_a.join_code.lower(), "name": "Zoë", "password": "zoe-pass"})
    assert response.status_code == 200
    username = response.context["username"]
    assert Membership.objects.filter(classroom=school.class_a, student__username=username).exists()
    assert client.get(reverse("classrooms:my_games")).status_code == 200


def _join_post(client, code, **extra):
    return client.post(reverse("classrooms:join"),
                       {"code": code, "name": "X", "password": "secret-1"}, **extra)


def test_join_code_guessing_is_rate_limited_per_device(client, school):
    """A class shares one school IP: one device's typos must not lock out the others."""
    client.get(reverse("classrooms:join"))  # the join page gives the device its cookie
    assert client.cookies.get(ratelimit.DEVICE_COOKIE)
    for _ in range(ratelimit.JOIN_MAX_FAILURES):
        assert _join_post(client, "ZZZZZZ").status_code == 200
    response = _join_post(client, school.class_a.join_code)
    assert response.status_code == 429  # even the right code, until the window passes
    assert "Too many wrong codes from this device" in response.content.decode()
    # a classmate's tablet, same IP: joins fine
    from django.test import Client

    classmate = Client()
    classmate.get(reverse("classrooms:join"))
    assert _join_post(classmate, school.class_a.join_code).status_code == 200
    assert "username" in _join_post(Client(), school.class_a.join_code).context


def test_join_code_guessing_has_a_per_ip_ceiling(school, monkeypatch):
    """A script that drops the cookie is a new device each time: the IP ceiling stops it."""
    from django.test import Client

    monkeypatch.setattr(ratelimit, "JOIN_IP_MAX_FAILURES", 15)
    assert ratelimit.JOIN_IP_MAX_FAILURES > ratelimit.JOIN_MAX_FAILURES
    for _ in range(15):
        assert _join_post(Client(), "ZZZZZZ").status_code == 200
    assert _join_post(Client(), school.class_a.join_code).status_code == 429
    # another IP is not affected
    assert _join_post(Client(), school.class_a.join_code,
                      REMOTE_ADDR="10.0.0.9").status_code == 200


def test_a_forged_device_cookie_is_just_a_new_device(client, school):
    client.cookies[ratelimit.DEVICE_COOKIE] = "forged"
    for _ in range(ratelimit.JOIN_MAX_FAILURES):
        _join_post(client, "ZZZZZZ")
    # the forged cookie was replaced by a signed one on the first answer: that device is blocked
    assert _join_post(client, school.class_a.join_code).status_code == 429


def test_login_is_rate_limited_per_username_and_ip(client, school):
    url = reverse("login")
    for _ in range(ratelimit.LOGIN_MAX_FAILURES):
        assert client.post(url, {"username": "ana", "password": "wrong"}).status_code == 200
    blocked = client.post(url, {"username": "ANA", "password": "pw-ana"})
    assert blocked.status_code == 429 and "_auth_user_id" not in client.session
    # Ben, same IP (same classroom): not affected
    assert client.post(url, {"username": "ben", "password": "pw-ben"}).status_code == 302
    client.logout()
    # Ana from another IP: not affected
    assert client.post(url, {"username": "ana", "password": "pw-ana"},
                       REMOTE_ADDR="10.1.1.1").status_code == 302


def test_successful_login_clears_the_counter(client, school):
    url = reverse("login")
    for _ in range(ratelimit.LOGIN_MAX_FAILURES - 1):
        client.post(url, {"username": "ana", "password": "wrong"})
    assert client.post(url, {"username": "ana", "password": "pw-ana"}).status_code == 302
    client.logout()
    for _ in range(ratelimit.LOGIN_MAX_FAILURES - 1):
        client.post(url, {"username": "ana", "password": "wrong"})
    assert client.post(url, {"username": "ana", "password": "pw-ana"}).status_code == 302


def test_assignment_form_random_and_manual(client, school):
    client.force_login(school.teach_a)
    url = reverse("classrooms:assignment_create", args=[school.class_a.pk])
    assert client.get(url).status_code == 200
    response = client.post(url, {"title": "Round 2", "game": "mapmaker:2", "table_size": 1,
                                 "grouping": "random", "bot_level": "easy", "due_at": ""})
    assignment = Assignment.objects.get(title="Round 2")
    assert response.url == reverse("classrooms:assignment_dashboard", args=[assignment.pk])
    assert assignment.tables.count() == 2
    page = client.get(response.url)
    assert page.status_code == 200 and b'id="dashboard"' in page.content

    response = client.post(url, {"title": "Hand made", "game": "mapmaker:3", "table_size": 3,
                                 "grouping": "manual", "bot_level": "hard"})
    manual = Assignment.objects.get(title="Hand made")
    assert response.url == reverse("classrooms:assignment_arrange", args=[manual.pk])
    assert b"student-chip" in client.get(response.url).content
    bad = client.post(response.url, {"tables": json.dumps([[school.eve.pk]])})
    assert bad.status_code == 400
    ok = client.post(response.url, {"tables": json.dumps([[school.ana.pk, school.ben.pk]])})
    assert ok.status_code == 302
    assert manual.tables.get().game.seats.filter(bot_level="hard").count() == 1


def test_dashboard_actions_answer_json_for_fetch(client, school):
    client.force_login(school.teach_a)
    seat = school.game.seats.get(user=school.ana)
    url = reverse("classrooms:assignment_seat", args=[school.assignment.pk])
    response = client.post(url, {"table_id": school.table.pk, "index": seat.index, "action": "bot"},
                           HTTP_ACCEPT="application/json")
    assert response.status_code == 200 and response.json()["ok"]
    response = client.post(url, {"table_id": school.table.pk, "index": seat.index,
                                 "action": "student", "student_id": school.eve.pk},
                           HTTP_ACCEPT="application/json")
    assert response.status_code == 400  # Eve is not in this class
    response = client.post(url, {"table_id": "x"}, HTTP_ACCEPT="application/json")
    assert response.status_code == 400
    response = client.post(reverse("classrooms:assignment_pause", args=[school.assignment.pk]),
                           {"paused": "1"}, HTTP_ACCEPT="application/json")
    school.game.refresh_from_db()
    assert response.status_code == 200 and school.game.status == "paused"


def _parse_csv(response):
    assert response["Content-Type"].startswith("text/csv")
    raw = response.content
    assert raw.startswith(b"\xef\xbb\xbf")  # BOM: spreadsheets read UTF-8 accents right
    return list(csv.DictReader(io.StringIO(raw.decode("utf-8-sig"), newline="")))


def test_csv_exports_keep_accents_commas_and_quotes(client, school):
    school.ana.first_name = 'Ana María "La Jefa", López'
    school.ana.save()
    school.ben.first_name = "=HYPERLINK(evil)"
    school.ben.save()
    play_to_end(school.game)
    client.force_login(school.teach_a)
    rows = _parse_csv(client.get(reverse("classrooms:assignment_results_csv",
                                         args=[school.assignment.pk])))
    assert len(rows) == 2
    players = {r["Player"] for r in rows}
    assert 'Ana María "La Jefa", López' in players
    assert "'=HYPERLINK(evil)" in players  # no formula injection
    assert all(r["Status"] == "Finished" for r in rows)
    assert sum(r["Won"] == "yes" for r in rows) >= 1
    assert {r["Party"] for r in rows} == {"Red Elephants", "Blue Donkeys"}
    assert all(r["Districts"].isdigit() for r in rows)
    assert rows[0]["Decided by"]

    per_student = _parse_csv(client.get(reverse("classrooms:class_results_csv",
                                                args=[school.class_a.pk])))
    assert {r["Student"] for r in per_student} == {'Ana María "La Jefa", López',
                                                    "'=HYPERLINK(evil)"}
    assert all(r["Assignment"] == "Lesson 1" for r in per_student)


def test_results_pages_render(client, school):
    play_to_end(school.game)
    client.force_login(school.teach_a)
    page = client.get(reverse("classrooms:assignment_results", args=[school.assignment.pk]))
    assert page.status_code == 200 and "Winner:" in page.content.decode()
    assert client.get(reverse("classrooms:class_results", args=[school.class_a.pk])).status_code == 200
    assert client.get(reverse("classrooms:student_results",
                              args=[school.class_a.pk, school.ana.pk])).status_code == 200


def test_class_page_lists_students_and_code(client, school):
    client.force_login(school.teach_a)
    page = client.get(reverse("classrooms:class_detail", args=[school.class_a.pk])).content.decode()
    assert school.class_a.join_code in page and "Ana María" in page and "Eve" not in page


def test_demo_seed_is_idempotent(capsys, db):
    from django.core.management import call_command

    call_command("demo_seed")
    call_command("demo_seed")
    out = capsys.readouterr().out
    assert "demo-teacher" in out and "ana" in out
    from django.contrib.auth import authenticate

    assert authenticate(username="teacher", password="demo-teacher") is not None
    assert Membership.objects.filter(classroom__name="Demo class 7B").count() == 4


def test_admin_can_make_teachers_and_see_every_class(client, school):
    from django.contrib.auth import get_user_model

    newbie = get_user_model().objects.create_user(username="newbie", password="pw-newbie-1")
    client.force_login(school.admin)
    response = client.post("/admin/auth/user/", {"action": "make_teachers",
                                                  "_selected_action": [newbie.pk]})
    assert response.status_code == 302
    from classrooms.selectors import teacher_is_approved, user_is_teacher

    assert user_is_teacher(newbie) and teacher_is_approved(newbie)  # an admin's teacher
    names = {c.name for c in client.get(reverse("classrooms:class_list")).context["classes"]}
    assert names == {"7A", "7B"}
    client.force_login(school.teach_a)
    names = {c.name for c in client.get(reverse("classrooms:class_list")).context["classes"]}
    assert names == {"7A"}  # (not a search of the page: a CSRF token can contain "7B")


def test_signed_in_student_joins_a_second_class_with_the_code(client, school):
    """A signed-in student is asked first, by the class's name and its teacher's."""
    client.force_login(school.eve)
    response = client.post(reverse("classrooms:join"), {"code": school.class_a.join_code})
    page = response.content.decode()
    assert response.status_code == 200 and "Join 7A?" in page and "Ms Adams" in page
    assert not Membership.objects.filter(classroom=school.class_a, student=school.eve).exists()
    response = client.post(reverse("classrooms:join"),
                           {"code": school.class_a.join_code, "confirm": "yes"})
    assert response.url == reverse("classrooms:my_games")
    assert Membership.objects.filter(classroom=school.class_a, student=school.eve).exists()


def test_solo_assignment_forces_one_student_per_table(client, school):
    client.force_login(school.teach_a)
    client.post(reverse("classrooms:assignment_create", args=[school.class_a.pk]),
                {"title": "Solo", "game": "mapmaker:solo-competitive", "table_size": 3,
                 "grouping": "random", "bot_level": ""})
    solo = Assignment.objects.get(title="Solo")
    assert solo.table_size == 1 and solo.tables.count() == 2


# --- review fixes -------------------------------------------------------------------------

def _flashes(response):
    """The messages this request added (not older ones still waiting to be shown)."""
    return [(m.level_tag, m.message) for m in response.wsgi_request._messages._queued_messages]


def test_teacher_or_admin_cannot_self_join_and_is_told_why(client, school):
    for user in (school.teach_b, school.admin):
        client.force_login(user)
        response = client.post(reverse("classrooms:join"), {"code": school.class_a.join_code})
        assert response.status_code == 200
        assert "cannot join a class as students" in response.content.decode()
        assert not Membership.objects.filter(classroom=school.class_a, student=user).exists()


def test_teacher_pages_refuse_teacher_and_admin_members_with_a_message(client, school):
    from .conftest import join

    join(school.class_a, school.teach_b, school.admin)
    client.force_login(school.teach_a)
    class_url = reverse("classrooms:class_detail", args=[school.class_a.pk])
    for user in (school.teach_b, school.admin):
        for name, data in (("student_reset", {}), ("student_rename", {"name": "Pwned"}),
                           ("student_remove", {})):
            response = client.post(reverse(f"classrooms:{name}",
                                           args=[school.class_a.pk, user.pk]), data)
            assert response.status_code == 302 and response.url == class_url, name
            assert [lvl for lvl, _ in _flashes(response)] == ["error"], name
            assert "only an admin can change it" in _flashes(response)[0][1]
        user.refresh_from_db()
        assert user.check_password("pw-" + user.username) and user.first_name != "Pwned"
        assert Membership.objects.filter(classroom=school.class_a, student=user).exists()
    # "new passwords for everyone" leaves them alone too
    client.post(reverse("classrooms:cards_reissue", args=[school.class_a.pk]))
    school.teach_b.refresh_from_db()
    assert school.teach_b.check_password("pw-teach_b")


def test_cards_reissue_continues_in_batches(client, school, monkeypatch):
    from classrooms import services

    from .conftest import join, make_user

    monkeypatch.setattr(services, "MAX_ROSTER", 2)
    join(school.class_a, make_user("cara"))
    client.force_login(school.teach_a)
    url = reverse("classrooms:cards_reissue", args=[school.class_a.pk])
    cards_url = reverse("classrooms:cards", args=[school.class_a.pk])
    client.post(url)
    page = client.get(cards_url).content.decode()
    assert page.count('class="card-password"') == 2 and 'id="reissue-continue"' in page
    client.post(url, {"continue": "1"})
    page = client.get(cards_url).content.decode()
    assert page.count('class="card-password"') == 3 and 'id="reissue-continue"' not in page


def test_admin_shows_assignment_tables_read_only(client, school):
    from django.contrib import admin

    from classrooms.admin import AssignmentGameInline
    from classrooms.models import AssignmentGame

    client.force_login(school.admin)
    url = reverse("admin:classrooms_assignment_change", args=[school.assignment.pk])
    page = client.get(url)
    assert page.status_code == 200
    html = page.content.decode()
    assert 'name="tables-0-game"' not in html and 'name="tables-0-DELETE"' not in html
    inline = AssignmentGameInline(AssignmentGame, admin.site)
    request = page.wsgi_request
    assert not inline.has_add_permission(request, school.assignment)
    assert not inline.has_change_permission(request, school.assignment)
    assert not inline.has_delete_permission(request, school.assignment)


def test_assignment_form_refuses_no_bots_with_empty_seats(client, school):
    from .conftest import join, make_user

    join(school.class_a, make_user("cara"))  # 3 students
    client.force_login(school.teach_a)
    url = reverse("classrooms:assignment_create", args=[school.class_a.pk])
    response = client.post(url, {"title": "Odd", "game": "mapmaker:2", "table_size": 2,
                                 "grouping": "random", "bot_level": ""})
    assert response.status_code == 200
    assert ("Choose a bot level to fill the 1 empty seat, or change the table size."
            in response.content.decode())
    assert not Assignment.objects.filter(title="Odd").exists()


def test_the_lobby_calls_an_assigned_game_by_its_assignment_and_table(client, school):
    client.force_login(school.ana)
    page = client.get(reverse("games:lobby")).content.decode()
    row = page[page.index(f'data-game-id="{school.game.pk}"'):]
    row = row[:row.index("</li>")]
    assert "Lesson 1 - table 1" in row and "Mapmaker" not in row.split("</strong>")[0]
