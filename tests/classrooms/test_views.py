"""Pages: sign-up, roster and cards, self-join, rate limits, assignments, CSV."""

import csv
import io
import json

import pytest
from django.urls import reverse

from classrooms import ratelimit
from classrooms.models import Assignment, Membership

from .conftest import make_teacher, play_to_end

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
                           {"names": "Élodie Martin\nJean-Luc, Picard"})
    assert response.url == reverse("classrooms:cards", args=[class_id])
    page = client.get(response.url).content.decode()
    assert page.count('class="login-card"') == 2
    assert "Élodie Martin" in page and "Jean-Luc, Picard" in page
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


def test_join_code_guessing_is_rate_limited_per_ip(client, school):
    for _ in range(ratelimit.JOIN_MAX_FAILURES):
        response = client.post(reverse("classrooms:join"),
                               {"code": "ZZZZZZ", "name": "X", "password": "secret-1"})
        assert response.status_code == 200
    response = client.post(reverse("classrooms:join"), {
        "code": school.class_a.join_code, "name": "X", "password": "secret-1"})
    assert response.status_code == 429  # even the right code, until the window passes
    other_ip = client.post(reverse("classrooms:join"), {
        "code": school.class_a.join_code, "name": "X", "password": "secret-1"},
        REMOTE_ADDR="10.0.0.9")
    assert other_ip.status_code == 200


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
    response = client.post(url, {"title": "Round 2", "mode": "2", "table_size": 1,
                                 "grouping": "random", "bot_level": "easy", "due_at": ""})
    assignment = Assignment.objects.get(title="Round 2")
    assert response.url == reverse("classrooms:assignment_dashboard", args=[assignment.pk])
    assert assignment.tables.count() == 2
    page = client.get(response.url)
    assert page.status_code == 200 and b'id="dashboard"' in page.content

    response = client.post(url, {"title": "Hand made", "mode": "3", "table_size": 3,
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
    make_teacher("someone")


def test_admin_can_make_teachers_and_see_every_class(client, school):
    from django.contrib.auth import get_user_model

    newbie = get_user_model().objects.create_user(username="newbie", password="pw-newbie-1")
    client.force_login(school.admin)
    response = client.post("/admin/auth/user/", {"action": "make_teachers",
                                                  "_selected_action": [newbie.pk]})
    assert response.status_code == 302
    from classrooms.services import user_is_teacher

    assert user_is_teacher(newbie)
    page = client.get(reverse("classrooms:class_list")).content.decode()
    assert "7A" in page and "7B" in page
    client.force_login(school.teach_a)
    page = client.get(reverse("classrooms:class_list")).content.decode()
    assert "7A" in page and "7B" not in page


def test_signed_in_student_joins_a_second_class_with_the_code(client, school):
    client.force_login(school.eve)
    response = client.post(reverse("classrooms:join"), {"code": school.class_a.join_code})
    assert response.url == reverse("classrooms:my_games")
    assert Membership.objects.filter(classroom=school.class_a, student=school.eve).exists()


def test_solo_assignment_forces_one_student_per_table(client, school):
    client.force_login(school.teach_a)
    client.post(reverse("classrooms:assignment_create", args=[school.class_a.pk]),
                {"title": "Solo", "mode": "solo-competitive", "table_size": 3,
                 "grouping": "random", "bot_level": ""})
    solo = Assignment.objects.get(title="Solo")
    assert solo.table_size == 1 and solo.tables.count() == 2
