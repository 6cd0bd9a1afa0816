"""A whole lesson in Chromium, as a teacher runs it: a roster pasted with namesakes is
previewed and printed as cards with QR codes; the assignment is made with the form; one
student signs in on a phone by her card's QR code and plays by touch; a student who joins late
is seated from the live dashboard; the teacher gives the phone student's seat to a bot and
back, and her page recovers by itself; the teacher pauses every board with a message and
resumes; the results list every student of the class."""

import random

import pytest
from django.urls import reverse

from classrooms import services
from classrooms.models import Assignment, Membership
from games.models import Game

from ..conftest import browser_page, wait_until
from ..games.test_mapmaker_browser import play_one_action, signed_in_page, version
from .conftest import join_by_code, make_teacher

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def _no_sideways_scroll(page):
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{page.url} is {width} px wide on a 390 px phone"


def _tap_a_border(page):
    """Place one legal border by touch: the first tap shows it, the second places it."""
    edge = page.locator("[data-edge][data-legal='true']").first
    edge.scroll_into_view_if_needed()
    box = edge.bounding_box()
    spot = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    before = version(page)
    page.touchscreen.tap(*spot)
    page.wait_for_selector(".edge.armed [data-edge]", state="attached")
    page.touchscreen.tap(*spot)
    wait_until(page, f"Number(document.body.dataset.version) > {before}")


def test_a_whole_lesson_from_roster_to_results(browser, live_server_url):
    teacher = make_teacher("ms_lesson", "Ms Lesson")
    classroom = services.classroom_create(teacher=teacher, name="9L")
    desk = signed_in_page(browser, live_server_url, teacher)

    # --- the roster, pasted as "Last, First" with two Liams: previewed, then cards --------------
    desk.goto(classroom.get_absolute_url())
    desk.fill("#id_names", "Nash, Liam\nNg, Liam\nLópez, Ana\n")
    desk.click("#roster-submit")
    desk.wait_for_selector("#roster-preview")
    shown = [desk.get_attribute(f"#roster-preview tr[data-roster-row]:nth-child({i})",
                                "data-display") for i in (1, 2, 3)]
    assert shown == ["Liam Na.", "Liam Ng", "Ana"]
    assert Membership.objects.filter(classroom=classroom).count() == 0
    desk.click("#roster-confirm")
    desk.wait_for_url("**/cards/?show=new")
    assert desk.locator(".login-card").count() == 3
    assert desk.locator(".login-card .card-qr svg").count() == 3
    signin_url = desk.locator(".login-card", has_text="Ana López").locator(
        ".card-qr").get_attribute("data-signin-url")

    # --- the assignment, made with the form: tables of 2, a bot fills the odd seat ------------
    desk.goto(reverse("classrooms:assignment_create", args=[classroom.pk]))
    desk.fill("#id_title", "Fair maps")
    desk.select_option("#id_game", "mapmaker:2")
    desk.fill("#id_table_size", "2")
    desk.select_option("#id_bot_level", "easy")
    desk.click("#assignment-submit")
    assignment = Assignment.objects.get(classroom=classroom, title="Fair maps")
    desk.wait_for_url(f"**{assignment.get_absolute_url()}")
    desk.wait_for_selector('#dashboard[data-live="open"]', state="attached")
    wait_until(desk, "document.getElementById('room-summary').textContent"
                     ".startsWith('0 of 2 tables finished')")

    # --- Ana signs in on a phone with her card's QR code and opens her game ---------------------
    phone = browser_page(browser, live_server_url, viewport=PHONE, is_mobile=True,
                         has_touch=True, device_scale_factor=2)
    phone.goto(signin_url)
    phone.click("#signin-link-confirm")
    phone.wait_for_url("**/me/")
    link = phone.locator("#my-games li a").first
    assert link.inner_text().startswith("Fair maps - table")
    _no_sideways_scroll(phone)
    link.click()
    phone.wait_for_selector("#connection-status[data-state='open']", state="attached")
    phone.wait_for_selector("#board svg [data-edge]", state="attached")
    _no_sideways_scroll(phone)
    ana = Membership.objects.get(classroom=classroom, student__first_name="Ana").student
    game = Game.objects.get(seats__user=ana, assignment_table__assignment=assignment)
    seat = game.seats.get(user=ana).index

    # --- a late joiner appears on the dashboard and is seated with one click -------------------
    late = browser_page(browser, live_server_url)
    join_by_code(late, classroom.join_code, "Liam Nguyen", "late-pass-42")
    wait_until(desk, "document.getElementById('room-summary').textContent"
                     ".includes('1 student not seated')")
    chip = desk.locator('#room-students li[data-status="not_seated"]')
    assert "Liam Ngu." in chip.inner_text()
    chip.locator('button[data-action="seat"]').click()
    wait_until(desk, "document.getElementById('room-summary').textContent"
                     ".includes('0 students not seated')")
    late.goto("/me/")
    assert late.locator("#my-games li a").first.inner_text().startswith("Fair maps - table")

    # --- the teacher gives Ana's seat to a bot, then back: her page follows without a reload ---
    desk.goto(game.get_absolute_url())
    desk.click(f"#watch-controls li[data-seat='{seat}'] [data-action='to-bot']")
    phone.wait_for_selector("#seat-notice[data-kind='seat_lost']")
    assert "Your teacher gave your seat to a bot" in phone.inner_text("#seat-notice")
    assert phone.get_attribute("body", "data-seat") == "spectator"
    desk.click(f"#watch-controls li[data-seat='{seat}'] [data-action='back']")
    phone.wait_for_selector("#seat-notice[data-kind='seat_back']")
    assert phone.get_attribute("body", "data-seat") == str(seat)

    # --- the table plays on: Ana by touch, a classmate at her table (if any) by mouse ---------
    others = []
    for other in game.seats.exclude(user=ana).exclude(user__isnull=True).select_related("user"):
        page = signed_in_page(browser, live_server_url, other.user)
        page.goto(game.get_absolute_url())
        page.wait_for_selector("#connection-status[data-state='open']", state="attached")
        others.append(page)
    rng = random.Random(7)
    for _ in range(60):
        if phone.locator("body[data-my-turn='true'][data-busy='false']").count():
            _tap_a_border(phone)
            break
        if not any(play_one_action(page, rng) for page in others):
            phone.wait_for_timeout(250)  # the bot is thinking
    else:
        raise AssertionError("Ana never got a turn")
    assert Game.objects.get(pk=game.pk).moves.filter(seat=seat).exists()

    # --- eyes on the teacher: every board freezes with the message, then plays on -------------
    desk.goto(assignment.get_absolute_url())
    desk.fill("#pause-message", "Eyes on me: who drew these lines?")
    desk.click("#pause-all")
    phone.wait_for_selector("#pause-overlay:not([hidden])")
    assert phone.inner_text("#pause-text") == "Eyes on me: who drew these lines?"
    desk.click("#resume-all")
    phone.wait_for_selector("#pause-overlay[hidden]", state="attached")
    phone.wait_for_selector("#seat-notice[data-kind='resumed']")

    # --- the results list every student of the class, each with a status ----------------------
    desk.goto(reverse("classrooms:assignment_results", args=[assignment.pk]))
    text = desk.inner_text("main")
    for name in ("Liam Nash", "Liam Ng", "Ana López", "Liam Nguyen"):
        assert name in text, name
    statuses = desk.locator("tr[data-status]")
    assert statuses.count() >= 4
    won = [c.strip() for c in desk.locator("tr[data-status='playing'] [data-role=won]")
           .all_inner_texts()]
    assert won and set(won) == {"in play"}

    for page in (desk, phone, late, *others):
        assert page.errors == [], page.errors
        page.context.close()
