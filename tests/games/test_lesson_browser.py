"""The lesson after the game in Chromium: the last border, the progress bar while 1,000 random
maps are drawn, the histograms with this game marked and its percentile, then the class
debrief on the teacher's projector."""

import math
import random

import pytest
from django.urls import reverse

from classrooms import services as class_services
from games import services
from games.engine import get_rules
from games.models import Game, GameLesson

from ..classrooms.conftest import join, make_teacher
from ..conftest import wait_until
from .helpers import make_user
from .test_mapmaker_browser import play_one_action, signed_in_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_finish_watch_the_ensemble_and_open_the_debrief(browser, live_server_url):
    rules = get_rules("mapmaker")
    teacher = make_teacher("ms_t", "Ms T")
    ana, ben = make_user("ana", first_name="Ana"), make_user("ben", first_name="Ben")
    classroom = class_services.classroom_create(teacher=teacher, name="9B")
    join(classroom, ana, ben)
    assignment = class_services.assignment_create(
        classroom=classroom, title="Lesson day", kind="mapmaker", mode="2", table_size=2,
        grouping="random", bot_level="")
    game = assignment.tables.get().game
    # a fixed deal, so the last check below (this map does pack or crack) holds every run
    game.seed = "lesson-browser-1"
    game.state = rules.setup(dict(game.options), game.seed)
    game.save(update_fields=["seed", "state"])
    users = {s.index: s.user for s in game.seats.all()}
    rng = random.Random(2)
    # play until one border before the end, so the browser places the last one
    while True:
        game.refresh_from_db()
        seat = rules.to_move(game.state)[0]
        moves = rules.legal_moves(game.state, seat)
        finals = [m for m in moves if rules.is_over(rules.apply(game.state, seat, m))]
        if finals:  # the browser plays the last move (a border, or settling a tie)
            break
        services.move_submit(game_id=game.pk, seat_index=seat, user=users[seat],
                             move=rng.choice(moves), expected_version=game.version)
    page = signed_in_page(browser, live_server_url, users[seat])
    page.goto(f"/games/{game.pk}/")
    page.wait_for_selector("#connection-status[data-state='open']", state="attached")
    while page.locator("body[data-over='true']").count() == 0:
        play_one_action(page, rng)
    # the lesson shows at once, the random maps arrive with a progress bar ...
    page.wait_for_selector("#lesson:not([hidden]) #votes-seats")
    page.wait_for_selector("#lesson-progress", state="attached")
    # ... then the histograms, with this game's result marked and its percentile
    page.wait_for_selector("#ensemble figure[data-party]", timeout=60_000)
    lesson = GameLesson.objects.get(game=game)
    assert lesson.status == GameLesson.Status.DONE
    figures = page.locator("#ensemble figure[data-party]")
    assert figures.count() == 2
    for row in lesson.summary["parties"]:
        figure = page.locator(f"#ensemble figure[data-party='{row['party']}']")
        marked = figure.locator("rect[data-this-game='true']")
        assert marked.get_attribute("data-seats") == str(row["seats"])
        percent = figure.locator("figcaption").get_attribute("data-percentile")
        assert percent == str(math.floor(row["at_least"] * 100 + 0.5))  # as JavaScript rounds
    wait_until(page, "!!document.querySelector('#wasted-votes #lesson-measure')")
    assert "Efficiency gap" in page.inner_text("#lesson-measure")
    # the map marks the packed and the cracked districts the lesson names, county by county
    for kind in ("packed", "cracked"):
        if kind == "packed":
            marked = [d for d in lesson.lesson["districts"] if d["packed"] is not None]
        else:
            marked = [d for d in lesson.lesson["districts"] if d["cracked"]]
        expected = sorted(f"{q},{r}" for d in marked for q, r in d["cells"])
        shown = sorted(page.eval_on_selector_all(
            f"#board [data-county].lesson-{kind}", "ns => ns.map(n => n.dataset.county)"))
        assert shown == expected, kind
    assert any(d["packed"] is not None or d["cracked"] for d in lesson.lesson["districts"])
    assert page.errors == []
    # the teacher opens the class debrief and hides the names for the projector
    desk = signed_in_page(browser, live_server_url, teacher)
    desk.goto(reverse("classrooms:assignment_debrief", args=[assignment.pk]))
    card = desk.locator(".debrief-table[data-table='1']")
    assert "Ana" in card.inner_text() or "Ben" in card.inner_text()
    desk.click("#names-toggle")
    assert "Ana" not in card.inner_text() and "Player 1" in card.inner_text()
    assert desk.locator("#debrief-questions li").count() == 3
    assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED
    assert desk.errors == []
