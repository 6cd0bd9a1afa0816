"""The classroom side of a lesson in Chromium: a roster paste with namesakes is previewed, then
printed as cards with QR codes; a tablet signs a student in with one; a student joins late
and appears on the live dashboard (which shows who is online) and is seated with one click,
the game appearing in their "My games" at once; usernames are not case-sensitive."""

import re

import pytest

from classrooms import services
from classrooms.models import Membership

from ..conftest import browser_page, wait_until
from ..games.test_mapmaker_browser import signed_in_page
from .conftest import join_by_code, make_teacher

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _page(browser, live_server_url):
    return browser_page(browser, live_server_url)


def test_roster_cards_qr_late_joiner_and_the_room(browser, live_server_url):
    teacher = make_teacher("ms_room", "Ms Room")
    teacher.set_password("room-pass-123")
    teacher.save()
    classroom = services.classroom_create(teacher=teacher, name="9B")

    # --- the teacher signs in (any case) and pastes a spreadsheet roster ------------------
    desk = _page(browser, live_server_url)
    desk.goto("/accounts/login/")
    desk.fill("#id_username", "Ms_Room")
    desk.fill("#id_password", "wrong-password")
    desk.click("button[type=submit]")
    assert "That username and password do not match: check your card, or ask your teacher." \
        in desk.inner_text("main")
    desk.fill("#id_username", "MS_ROOM")
    desk.fill("#id_password", "room-pass-123")
    desk.click("button[type=submit]")
    desk.wait_for_url("**/classes/")
    desk.goto(classroom.get_absolute_url())
    desk.fill("#id_names", "First name\tLast name\nLiam\tNash\nLiam\tNg\nAna\tLópez\n")
    desk.click("#roster-submit")
    desk.wait_for_selector("#roster-preview")
    assert desk.locator("#roster-header").count() == 1
    shown = [desk.get_attribute(f"#roster-preview tr[data-roster-row]:nth-child({i})",
                                "data-display") for i in (1, 2, 3)]
    assert shown == ["Liam Na.", "Liam Ng", "Ana"]
    assert Membership.objects.filter(classroom=classroom).count() == 0  # nothing made yet
    desk.click("#roster-confirm")
    desk.wait_for_url("**/cards/?show=new")
    assert desk.locator(".login-card").count() == 3
    assert desk.locator(".login-card .card-qr svg").count() == 3
    ana_card = desk.locator(".login-card", has_text="Ana López")
    signin_url = ana_card.locator(".card-qr").get_attribute("data-signin-url")
    assert "/login" in ana_card.locator(".card-url").inner_text()
    liam_card = desk.locator(".login-card", has_text="Liam Nash")
    liam_user = liam_card.locator(".card-username").inner_text().strip()
    liam_password = liam_card.locator(".card-password").inner_text().strip()

    # --- the lesson starts: 3 students, 2-player tables, bots fill the gaps -------------------
    assignment = services.assignment_create(
        classroom=classroom, title="Room test", kind="mapmaker", mode="2", table_size=2,
        grouping="random", bot_level="easy")
    desk.goto(assignment.get_absolute_url())
    desk.wait_for_selector('#dashboard[data-live="open"]', state="attached")
    wait_until(desk, "document.getElementById('room-summary').textContent"
                     ".startsWith('0 of 2 tables finished, 0 stalled, 0 students not seated')")

    # --- a tablet: Ana scans her card's QR code -------------------------------------------------
    tablet = _page(browser, live_server_url)
    tablet.goto(signin_url)
    assert "Are you Ana?" in tablet.inner_text("h1")
    tablet.click("#signin-link-confirm")
    tablet.wait_for_url("**/me/")
    tablet.wait_for_selector("#my-games li a", state="attached")
    ana_id = Membership.objects.get(classroom=classroom, student__first_name="Ana").student_id
    # the dashboard sees her online within a tick
    wait_until(desk, f"document.querySelector('#room-students li[data-student-id=\"{ana_id}\"]')"
                     "?.dataset.presence === 'online'")
    # the code worked once: another tablet is refused
    other = _page(browser, live_server_url)
    other.goto(signin_url)
    assert "already used" in other.inner_text("#signin-link-error")

    # --- Liam Nash signs in by typing his username in capitals ---------------------------------
    laptop = _page(browser, live_server_url)
    laptop.goto("/login/")
    laptop.fill("#id_username", liam_user.upper())
    laptop.fill("#id_password", liam_password)
    laptop.click("button[type=submit]")
    laptop.wait_for_url("**/me/")

    # --- a late joiner: listed live, seated with one click, the game appears at once -------------
    late = _page(browser, live_server_url)
    join_by_code(late, classroom.join_code, "Liam Nguyen", "late-pass-42")
    late.goto("/me/")
    late.wait_for_selector('#my-games[data-live="open"]', state="attached")
    assert late.locator("#my-games li").count() == 0
    wait_until(desk, "document.getElementById('room-summary').textContent"
                     ".includes('1 student not seated')")
    chip = desk.locator('#room-students li[data-status="not_seated"]')
    assert "Liam Ngu." in chip.inner_text()
    chip.locator('button[data-action="seat"]').click()
    late.wait_for_selector("#my-games li[data-game-id]")
    assert late.locator("#my-games li a").inner_text().startswith("Room test - table")
    wait_until(desk, "document.getElementById('room-summary').textContent"
                     ".includes('0 students not seated')")
    assert desk.locator('#room-students li[data-status="not_seated"]').count() == 0
    # progress bars for Mapmaker tables
    assert desk.locator('#dashboard progress[data-role="bar"]').count() >= 2

    for page in (desk, tablet, other, laptop, late):
        assert page.errors == [], page.errors
        page.context.close()


def test_cards_reprinted_for_chosen_students_only(browser, live_server_url):
    teacher = make_teacher("ms_cards", "Ms Cards")
    classroom = services.classroom_create(teacher=teacher, name="9C")
    services.roster_add(classroom=classroom, text="Ana López\nBen Ng\nCy Park")
    desk = signed_in_page(browser, live_server_url, teacher)
    desk.goto(f"/classes/{classroom.pk}/cards/")
    assert desk.locator(".card-password").count() == 0  # passwords are never shown again
    ben = Membership.objects.get(classroom=classroom, student__first_name="Ben").student
    old_hash = ben.password
    desk.check(f'.login-card[data-student-id="{ben.pk}"] input.card-pick')
    desk.click("#reissue-chosen")
    desk.wait_for_url("**/cards/?show=new")
    assert re.search(r"New passwords for 1 student: Ben\. 2 other students keep their password\.",
                     desk.inner_text(".messages"))
    assert desk.locator(".login-card").count() == 1
    assert desk.locator(".login-card .card-password").count() == 1
    ben.refresh_from_db()
    assert ben.password != old_hash
    assert desk.errors == [], desk.errors
    desk.context.close()
