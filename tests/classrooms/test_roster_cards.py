"""Rosters as teachers paste them (point 5), cards printed again with QR sign-in (point 6),
and sign-in that forgives a username's case (point 12)."""

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from classrooms import names, services
from classrooms.models import Membership, SignInLink, StudentAccount

from .conftest import make_teacher

pytestmark = pytest.mark.django_db


# --- reading a roster ----------------------------------------------------------------------

def _read(text):
    return [(line.first, line.last) for line in names.roster_read(text).lines]


def test_spreadsheet_columns_with_and_without_a_header_row():
    pasted = "First name\tLast name\nAna María\tLópez\nBen\tO'Neill\n"
    roster = names.roster_read(pasted)
    assert roster.header == "First name · Last name"
    assert [(r.first, r.last) for r in roster.lines] == [("Ana María", "López"), ("Ben", "O'Neill")]
    assert _read("Surname\tFirst name\tEmail\nLópez\tAna\tana@x.org\n") == [("Ana", "López")]
    assert _read("Ana\tLópez\nBen\tO'Neill") == [("Ana", "López"), ("Ben", "O'Neill")]
    assert _read("Student name\nLópez, Ana\n") == [("Ana", "López")]  # one column


def test_last_comma_first_lines_and_suffixes():
    assert _read("Picard, Jean-Luc\nZoë O'Brien, Jr.\nБорис\nBen, Jr.") == [
        ("Jean-Luc", "Picard"), ("Zoë", "O'Brien, Jr."), ("Борис", ""), ("Ben", "Jr.")]


def test_display_names_tell_namesakes_apart_and_never_repeat():
    made = names.unique_display_names([("Liam", "Nash"), ("Liam", "Ng"), ("Ana", "López"),
                                       ("Sam", "Lee"), ("Sam", "Lee"), ("Jo", ""), ("Jo", "")])
    assert made == ["Liam Na.", "Liam Ng", "Ana", "Sam Lee", "Sam Lee 2", "Jo", "Jo 2"]
    # existing names never change; a newcomer is told apart from them
    assert names.unique_display_names([("Ana", "Ruiz")], [("Ana", "Ana", "López")]) == ["Ana R."]
    assert len({n.casefold() for n in made}) == len(made)


def test_teacher_labels_tell_identical_full_names_apart():
    labels = names.labels_unique([(1, "Sam Lee", "Sam Lee", "sam222"),
                                  (2, "Sam Lee", "Sam Lee 2", "sam333"), (3, "Ana", "Ana", "a")])
    assert labels == {1: "Sam Lee", 2: "Sam Lee (Sam Lee 2)", 3: "Ana"}


# --- the roster page: preview, then accounts -------------------------------------------------

@pytest.fixture
def teacher_client(db):
    teacher = make_teacher("t_roster", "Ms Roster")
    classroom = services.classroom_create(teacher=teacher, name="8C")
    client = Client()
    client.force_login(teacher)
    client.classroom = classroom
    client.teacher = teacher
    return client


def test_a_paste_is_previewed_before_any_account_is_made(teacher_client):
    c = teacher_client
    url = reverse("classrooms:roster_add", args=[c.classroom.pk])
    pasted = "First name\tLast name\nLiam\tNash\nLiam\tNg\nLiam\tNg\nNg, Liam\n"
    page = c.post(url, {"names": pasted})
    html = page.content.decode()
    assert page.status_code == 200 and Membership.objects.count() == 0
    assert "Create these 4 accounts" in html and 'id="roster-header"' in html
    shown = re.findall(r'data-roster-row data-display="([^"]+)"', html)
    assert shown == ["Liam Na.", "Liam Ng", "Liam Ng 2", "Liam Ng 3"]
    assert "on the list twice" in html and 'Read as "Last, First"' in html
    response = c.post(url, {"names": pasted, "confirm": "1"})
    assert response.status_code == 302
    students = {m.student.first_name: m.student for m in
                Membership.objects.filter(classroom=c.classroom).select_related("student")}
    assert sorted(students) == sorted(shown)
    assert students["Liam Na."].student_account.full_name == "Liam Nash"
    assert students["Liam Na."].get_full_name() == "Liam Na."  # what the games show
    # a later join by code is told apart too
    _, joined = services.student_join(code=c.classroom.join_code, name="Liam Nguyen",
                                      password="liam-pass-3")
    assert joined.first_name == "Liam Ngu."
    # the class page lists every one of them once, by full name told apart
    page = c.get(reverse("classrooms:class_detail", args=[c.classroom.pk])).content.decode()
    labels = re.findall(r'/students/\d+/results/">([^<]+)</a>', page)
    assert len(labels) == 5 and len(set(labels)) == 5


def test_a_preview_with_too_many_names_makes_nothing(teacher_client):
    c = teacher_client
    url = reverse("classrooms:roster_add", args=[c.classroom.pk])
    many = "\n".join(f"S{i}" for i in range(services.MAX_ROSTER + 1))
    assert c.post(url, {"names": many}).status_code == 302
    assert Membership.objects.count() == 0


# --- cards printed again, QR sign-in --------------------------------------------------------

def _roster(client, text):
    client.post(reverse("classrooms:roster_add", args=[client.classroom.pk]),
                {"names": text, "confirm": "1"})
    return {m.student.first_name: m.student for m in
            Membership.objects.filter(classroom=client.classroom).select_related("student")}


def _cards(client, query=""):
    html = client.get(reverse("classrooms:cards", args=[client.classroom.pk]) + query)
    assert "no-store" in html["Cache-Control"]
    html = html.content.decode()
    return {m.group(1): m.group(2) for m in re.finditer(
        r'data-username="([^"]+)".*?Password: (?:<code class="card-password">([^<]+))?',
        html, re.S)}, html


def test_reprint_issues_new_passwords_for_the_chosen_students_only(teacher_client):
    c = teacher_client
    students = _roster(c, "Ana López\nBen Ng\nCy Park")
    ana, ben, cy = students["Ana"], students["Ben"], students["Cy"]
    fresh = Client()
    fresh.force_login(c.teacher)
    fresh.classroom = c.classroom
    passwords, html = _cards(fresh)
    assert set(passwords.values()) == {None}  # another browser: no password shown
    before = {u.pk: get_user_model().objects.get(pk=u.pk).password for u in (ana, ben, cy)}
    response = fresh.post(reverse("classrooms:cards_reissue", args=[c.classroom.pk]),
                          {"chosen": "1", "only": [ben.pk], "what": "passwords"})
    flash = [str(m) for m in response.wsgi_request._messages]
    assert "New passwords for 1 student: Ben. 2 other students keep their password." in flash
    after = {u.pk: get_user_model().objects.get(pk=u.pk).password for u in (ana, ben, cy)}
    assert after[ana.pk] == before[ana.pk] and after[cy.pk] == before[cy.pk]
    assert after[ben.pk] != before[ben.pk]
    passwords, html = _cards(fresh, "?show=new")
    assert list(passwords) == [ben.username] and passwords[ben.username]
    assert html.count('class="card-qr"') == 1
    # the sign-in address fits the card: host and a short path
    assert "testserver/login" in html and "http://testserver/accounts/login/" not in html
    # nothing ticked: refused, nothing changed
    response = fresh.post(reverse("classrooms:cards_reissue", args=[c.classroom.pk]),
                          {"chosen": "1", "what": "passwords"})
    assert get_user_model().objects.get(pk=ana.pk).password == before[ana.pk]


def _signin_url(html, username):
    card = html.split(f'data-username="{username}"')[1]
    return re.search(r'data-signin-url="([^"]+)"', card).group(1)


def test_a_cards_qr_code_signs_its_student_in_once(teacher_client):
    c = teacher_client
    students = _roster(c, "Ana López\nBen Ng")
    _, html = _cards(c)
    url = _signin_url(html, students["Ana"].username)
    assert url.startswith("http://testserver/s/") and "<svg" in html
    tablet = Client()
    page = tablet.get(url)
    assert page.status_code == 200 and "Are you Ana?" in page.content.decode()
    assert "_auth_user_id" not in tablet.session  # a look (a link preview) signs nobody in
    response = tablet.post(url)
    assert response.url == reverse("classrooms:my_games")
    assert int(tablet.session["_auth_user_id"]) == students["Ana"].pk
    assert tablet.session.get_expire_at_browser_close()  # a student session
    # once only
    again = Client().post(url)
    assert again.status_code == 410 and "already used" in again.content.decode()


def test_the_teacher_turns_qr_codes_off_per_student_and_for_the_class(teacher_client):
    c = teacher_client
    students = _roster(c, "Ana López\nBen Ng\nCy Park")
    _, html = _cards(c)
    urls = {name: _signin_url(html, u.username) for name, u in students.items()}
    c.post(reverse("classrooms:signin_revoke", args=[c.classroom.pk]),
           {"student_id": students["Ana"].pk})
    refused = Client().post(urls["Ana"])
    assert refused.status_code == 410 and "turned this sign-in code off" in refused.content.decode()
    assert Client().get(urls["Ben"]).status_code == 200  # the others still work
    c.post(reverse("classrooms:signin_revoke", args=[c.classroom.pk]))
    assert Client().post(urls["Ben"]).status_code == 410
    assert Client().post(urls["Cy"]).status_code == 410
    # a new card's code works, and the old one of that student stays off
    c.post(reverse("classrooms:cards_reissue", args=[c.classroom.pk]),
           {"chosen": "1", "only": [students["Cy"].pk], "what": "qr"})
    _, html = _cards(c, "?show=new")
    assert Client().post(_signin_url(html, students["Cy"].username)).status_code == 302


def test_qr_codes_expire_and_forged_ones_do_nothing(teacher_client):
    c = teacher_client
    students = _roster(c, "Ana López")
    _, html = _cards(c)
    url = _signin_url(html, students["Ana"].username)
    assert Client().post(url.replace("/s/", "/s/x")).status_code == 410
    SignInLink.objects.update(expires_at=timezone.now() - timedelta(minutes=1))
    gone = Client().post(url)
    assert gone.status_code == 410 and "too old" in gone.content.decode()


def test_qr_codes_are_only_made_for_accounts_the_teacher_manages(school):
    tokens = services.signin_links_issue(classroom=school.class_a, by=school.teach_b,
                                         student_ids=[school.ana.pk])
    assert tokens == {}
    tokens = services.signin_links_issue(classroom=school.class_a, by=school.teach_a,
                                         student_ids=[school.ana.pk])
    assert list(tokens) == [school.ana.pk]


# --- sign-in: any case, words a student understands ------------------------------------------

def test_usernames_are_not_case_sensitive_and_errors_speak_to_students(client, school):
    url = reverse("login")
    wrong = client.post(url, {"username": "ANA", "password": "nope"})
    assert wrong.status_code == 200
    assert ("That username and password do not match: check your card, or ask your teacher."
            in wrong.content.decode())
    response = client.post(url, {"username": " Ana ", "password": "pw-ana"})
    assert response.status_code == 302 and int(client.session["_auth_user_id"]) == school.ana.pk


def test_renaming_keeps_the_full_name_and_a_unique_display_name(school):
    StudentAccount.objects.filter(user=school.ana).update(full_name="Ana María")
    services.student_rename(classroom=school.class_a, student_id=school.ben.pk,
                            name="Ana Ruiz", by=school.teach_a)
    school.ben.refresh_from_db()
    assert school.ben.first_name == "Ana R." and school.ben.student_account.full_name == "Ana Ruiz"
