"""Phones (Chromium with a phone's screen and touch): no page scrolls sideways at 390 px, a
border is chosen reliably by touch (a tap snaps to the nearest edge, a second tap places it;
zoom in on a small screen), and in landscape the board is above the fold."""

import pytest
from django.urls import reverse

from classrooms import services as class_services
from games.engine import get_rules
from games.models import Game

from ..classrooms.conftest import join, make_teacher
from ..conftest import browser_page, wait_until
from .helpers import make_game, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def phone_page(browser, live_server_url, user, viewport=PHONE):
    return browser_page(browser, live_server_url, user, viewport=viewport, is_mobile=True,
                        has_touch=True, device_scale_factor=2)


def test_no_page_scrolls_sideways_on_a_phone(browser, live_server_url):
    teacher = make_teacher("ms_p", "Ms P")
    kids = [make_user(f"kid{n}", first_name=f"Kid {n}", last_name="With A Long Family Name")
            for n in range(4)]
    classroom = class_services.classroom_create(teacher=teacher, name="Year 8, room 12")
    join(classroom, *kids)
    assignment = class_services.assignment_create(
        classroom=classroom, title="Maps and votes", kind="mapmaker", mode="4", table_size=2,
        grouping="random", bot_level="easy")
    pages = {
        teacher: [reverse("games:lobby"), reverse("classrooms:class_list"),
                  reverse("classrooms:class_detail", args=[classroom.pk]),
                  reverse("classrooms:assignment_dashboard", args=[assignment.pk]),
                  reverse("classrooms:assignment_results", args=[assignment.pk]),
                  reverse("classrooms:class_results", args=[classroom.pk])],
        kids[0]: [reverse("classrooms:my_games"), reverse("games:lobby"),
                  Game.objects.get(seats__user=kids[0],
                                   assignment_table__assignment=assignment).get_absolute_url()],
    }
    for user, paths in pages.items():
        page = phone_page(browser, live_server_url, user)
        for path in paths:
            response = page.goto(path)
            assert response.ok, (path, response.status, response.text()[:500])
            page.wait_for_load_state("networkidle")
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= PHONE["width"], f"{path} is {width} px wide on a 390 px phone"
        assert page.errors == []


def test_a_tap_snaps_to_the_nearest_edge_and_a_second_tap_places_it(browser, live_server_url):
    ana, ben = make_user("ana"), make_user("ben")
    game = make_game(ana, ben, options={"players": 2, "first_seat": 0}, seed="phone")
    page = phone_page(browser, live_server_url, ana)
    page.goto(game.get_absolute_url())
    page.wait_for_selector("body[data-my-turn='true'][data-busy='false']", state="attached")
    # the socket's first state redraws the board: find the edge after it has come
    page.wait_for_selector("#connection-status[data-state='open']", state="attached")
    page.click("#board-zoom")
    # tap inside a county, near (not on) one of its edges
    edge = page.locator("[data-edge][data-legal='true']").first
    key = edge.get_attribute("data-edge")
    edge.scroll_into_view_if_needed()
    box = edge.bounding_box()
    county = page.locator(f"[data-county='{key.split('|')[0]}']").bounding_box()
    centre = (county["x"] + county["width"] / 2, county["y"] + county["height"] / 2)
    mid = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    tap = (mid[0] + (centre[0] - mid[0]) * 0.3, mid[1] + (centre[1] - mid[1]) * 0.3)
    page.touchscreen.tap(*tap)
    armed = page.locator(".edge.armed [data-edge]")
    assert armed.count() == 1 and armed.get_attribute("data-edge") == key
    assert Game.objects.get(pk=game.pk).version == 0  # the first tap only shows it
    page.touchscreen.tap(*tap)
    wait_until(page, "document.body.dataset.version === '1'")
    placed = Game.objects.get(pk=game.pk).state["borders"]
    assert len(placed) == 1
    view = get_rules("mapmaker").view(Game.objects.get(pk=game.pk).state, 0)
    a, b = view["borders"][0]
    assert {f"{a[0]},{a[1]}", f"{b[0]},{b[1]}"} == set(key.split("|"))
    assert page.errors == []


def test_in_landscape_the_board_is_above_the_fold(browser, live_server_url):
    ana, ben = make_user("ana"), make_user("ben")
    game = make_game(ana, ben, options={"players": 4, "first_seat": 0}, seed="land",
                     bots=("easy", "easy"))
    landscape = {"width": 844, "height": 390}
    page = phone_page(browser, live_server_url, ana, viewport=landscape)
    page.goto(game.get_absolute_url())
    page.wait_for_selector("#board svg [data-edge]", state="attached")
    box = page.locator("#board svg").bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= landscape["height"] + 1, box
    assert page.locator("#turn-status").bounding_box()["y"] < landscape["height"]
