"""The game page in a lesson (Chromium): an assigned game is called by its assignment and
table, the teacher watching it gets its controls, a student whose seat goes to a bot is told
so and plays on when it comes back (no reload), a pause freezes the board with the teacher's
message, and the student's turn shows in the tab."""

import random

import pytest
from django.urls import reverse

from classrooms import services
from games.models import Game

from ..conftest import wait_until
from ..games.test_mapmaker_browser import play_one_action, signed_in_page
from .conftest import join, make_teacher, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def student_against_a_bot(title):
    """(teacher, Ana, the assignment, her game): one student at a 2-player Mapmaker table with
    an easy bot."""
    teacher = make_teacher(f"t_{title.lower()}", "Mr W")
    ana = make_user(f"ana_{title.lower()}", name="Ana")
    classroom = services.classroom_create(teacher=teacher, name="8D")
    join(classroom, ana)
    assignment = services.assignment_create(
        classroom=classroom, title=title, kind="mapmaker", mode="2", table_size=2,
        grouping="random", bot_level="easy")
    game = assignment.tables.get().game
    # made here, where bots are off: the live server picks up the bot's turns on connect
    Game.objects.filter(pk=game.pk).update(created_at=game.created_at.replace(year=2000))
    return teacher, ana, assignment, game


def test_a_student_follows_seat_changes_and_a_pause_without_reloading(browser, live_server_url):
    teacher, ana, assignment, game = student_against_a_bot("Borders")
    seat = game.seats.get(user=ana).index
    page = signed_in_page(browser, live_server_url, ana)
    page.goto(game.get_absolute_url())
    page.wait_for_selector("#connection-status[data-state='open']", state="attached")
    assert page.inner_text("#game-title") == "Borders - table 1"
    assert page.get_attribute("#back-link", "href") == reverse("classrooms:my_games")
    if page.locator("body[data-my-turn='true']").count():
        assert page.title().startswith("\u25cf Your turn")

    # the teacher watches the table and gives Ana's seat to a bot
    desk = signed_in_page(browser, live_server_url, teacher)
    desk.goto(game.get_absolute_url())
    assert "You are watching table 1 as the teacher" in desk.inner_text("#watch-controls")
    assert desk.get_attribute("#back-link", "href") == reverse(
        "classrooms:assignment_dashboard", args=[assignment.pk])
    desk.click(f"#watch-controls li[data-seat='{seat}'] [data-action='to-bot']")
    desk.wait_for_selector(f"#watch-controls li[data-seat='{seat}'] [data-action='back']")
    page.wait_for_selector("#seat-notice[data-kind='seat_lost']")
    assert "Your teacher gave your seat to a bot" in page.inner_text("#seat-notice")
    assert page.get_attribute("body", "data-seat") == "spectator"
    assert page.locator("#connection-status[data-state='open']").count() == 1  # still live

    # ... and gives it back: her page plays on from where the table is now
    desk.click(f"#watch-controls li[data-seat='{seat}'] [data-action='back']")
    page.wait_for_selector("#seat-notice[data-kind='seat_back']")
    assert page.get_attribute("body", "data-seat") == str(seat)
    wait_until(page, "document.body.dataset.myTurn === 'true' && document.body.dataset.busy === 'false'",
               timeout=30)
    assert play_one_action(page, random.Random(1))

    # the teacher pauses every table with a message: the board freezes, then resumes
    desk.goto(reverse("classrooms:assignment_dashboard", args=[assignment.pk]))
    desk.fill("#pause-message", "Eyes on me: look at district 3")
    desk.click("#pause-all")
    page.wait_for_selector("#pause-overlay:not([hidden])")
    assert page.inner_text("#pause-text") == "Eyes on me: look at district 3"
    assert "is-paused" in page.get_attribute(".board-area", "class")
    desk.click("#resume-all")
    page.wait_for_selector("#pause-overlay[hidden]", state="attached")
    page.wait_for_selector("#seat-notice[data-kind='resumed']")
    assert "Resumed" in page.inner_text("#seat-notice")
    # ... and the notice fades away by itself
    page.wait_for_selector("#seat-notice.fading", state="attached", timeout=5000)
    page.wait_for_selector("#seat-notice", state="hidden", timeout=5000)
    assert page.errors == [] and desk.errors == []


def test_turn_alerts_in_the_tab_and_an_optional_sound(browser, live_server_url):
    _, ana, _, game = student_against_a_bot("Turns")
    page = signed_in_page(browser, live_server_url, ana)
    # count the tones the page plays (a test cannot listen)
    page.add_init_script("""
        window.__tones = 0;
        const Real = window.AudioContext;
        window.AudioContext = class extends Real {
          createOscillator() { window.__tones += 1; return super.createOscillator(); }
        };""")
    page.goto(game.get_absolute_url())
    page.wait_for_selector("#connection-status[data-state='open']", state="attached")
    # her turn (the bot may open the game): the tab says so, and with the sound still off
    # her turn came in silence
    wait_until(page, "document.body.dataset.myTurn === 'true' && document.body.dataset.busy === 'false'",
               timeout=30)
    assert page.title().startswith("\u25cf Your turn")
    assert page.evaluate("window.__tones") == 0
    assert not page.is_checked("#turn-sound")  # off unless the student asks for it
    page.check("#turn-sound")
    assert page.evaluate("localStorage.getItem('gerrymander-turn-sound')") == "on"
    tones = page.evaluate("window.__tones")
    assert tones == 1  # ticking the box plays the tone once, so the student knows it

    # she plays, the bot plays, and her next turn sounds
    rng = random.Random(3)
    while play_one_action(page, rng):
        pass
    wait_until(page, "document.body.dataset.myTurn === 'true'", timeout=30)
    wait_until(page, f"window.__tones > {tones}")
    assert page.title().startswith("\u25cf Your turn")

    # My games counts the games waiting for her, in the tab too
    me = signed_in_page(browser, live_server_url, ana)
    me.goto(reverse("classrooms:my_games"))
    me.wait_for_selector(f"#my-games li[data-game-id='{game.pk}'][data-state='your_turn']")
    wait_until(me, "document.title.startsWith('\u25cf Your turn (1)')")
    # ... and the sound stays on for her next visit
    page.reload()
    page.wait_for_selector("#connection-status[data-state='open']", state="attached")
    assert page.is_checked("#turn-sound")
    assert page.errors == [] and me.errors == []
