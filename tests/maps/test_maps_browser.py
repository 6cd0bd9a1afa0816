"""State maps in real browsers (Playwright on Debian Chromium, live ASGI server).

Staff upload a state's outline on the upload page, look at the draft and publish it; a
teacher assigns 2-player Berrymandering on that map; two students play it to the end, each in
their own browser, on the Berrymandering board (driven through its documented hooks: cells
``[data-cell="x,y"]`` take Enter like a tap, ``#cut-submit`` sends the cut, the chooser's
``#choose-list [data-choose]`` buttons eat a group).  Staff also open the API docs page,
which must run under the site's Content-Security-Policy without a violation.
"""

import json
import time

import pytest
from django.contrib.auth import get_user_model

from classrooms import services as class_services
from classrooms.models import Membership, StudentAccount
from games.engine import get_rules
from games.models import Game, GameMap

from ..conftest import browser_page, wait_until

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TIMEOUT_MS = 15_000
# Colorado's outline (it is nearly a lon/lat rectangle), as a GeoJSON Feature.
COLORADO = {"type": "Feature", "properties": {"NAME": "Colorado"}, "geometry": {
    "type": "Polygon", "coordinates": [[
        [-109.06, 41.0], [-106.86, 41.0], [-104.05, 41.0], [-102.05, 41.0], [-102.04, 37.0],
        [-103.0, 37.0], [-105.15, 36.99], [-107.42, 37.0], [-109.04, 36.99], [-109.06, 41.0]]]}}


def _user(username, **extra):
    return get_user_model().objects.create_user(username=username, password="pw-" + username,
                                                **extra)


def signed_in_page(browser, live_server_url, user):
    page = browser_page(browser, live_server_url, user)
    page.set_default_timeout(TIMEOUT_MS)
    return page


def _play_step(page, game_id, user):
    """Make this player's move if it is theirs: a whole cut (one of the engine's own sample
    cuts, entered cell by cell) or the first group offered.  True if a move was made."""
    state = page.evaluate("""() => ({
        over: document.body.dataset.over === 'true',
        myTurn: document.body.dataset.myTurn === 'true',
        busy: document.body.dataset.busy === 'true',
        phase: document.querySelector('svg.bm-board')?.dataset.phase,
    })""")
    if state["over"] or state["busy"] or not state["myTurn"]:
        return False
    if state["phase"] == "cut":
        game = Game.objects.get(pk=game_id)
        seat = game.seats.get(user=user).index
        cut = get_rules("berrymandering").legal_moves(game.state, seat)[0]
        for group in cut["groups"]:
            for x, y in group:
                page.locator(f'[data-cell="{x},{y}"]').press("Enter")
        page.locator("#cut-submit").click()
        return True
    if state["phase"] == "choose":
        page.locator("#choose-list [data-choose]").first.click()
        return True
    return False


def test_staff_publish_a_state_outline_a_teacher_assigns_it_students_play_it(
        browser, live_server_url):
    staff = _user("mapstaff", is_staff=True)
    teacher = class_services.teacher_make(user=_user("mapteacher", first_name="Ms Map"))
    classroom = class_services.classroom_create(teacher=teacher, name="9M")
    students = [_user("mapana", first_name="Ana"), _user("mapben", first_name="Ben")]
    for student in students:
        Membership.objects.create(classroom=classroom, student=student)
        StudentAccount.objects.get_or_create(user=student,
                                             defaults={"created_by_class": classroom})

    # --- staff: outline -> draft -> publish ------------------------------------------------
    page = signed_in_page(browser, live_server_url, staff)
    page.goto("/maps/")
    page.click("#new-map")
    page.wait_for_url("**/maps/new/")
    page.select_option("#id_o-kind", "berrymandering")
    assert page.locator("#id_o-counties").is_hidden()  # only the chosen game's size shows
    page.fill("#id_o-name", "Colorado")
    page.fill("#id_o-cells", "20")
    page.set_input_files("#id_o-outline_file", files=[{
        "name": "colorado.geojson", "mimeType": "application/geo+json",
        "buffer": json.dumps(COLORADO).encode()}])
    page.click("#make-draft")
    page.wait_for_selector("#draft-preview svg")
    assert page.locator("#draft").get_attribute("data-cells") == "20"
    assert page.locator("#draft-preview svg rect").count() == 20
    page.click("#save-publish-map")
    page.wait_for_selector('#map-status[data-published="true"]')
    game_map = GameMap.objects.get(kind="berrymandering", slug="colorado")
    assert game_map.published and len(game_map.data["cells"]) == 20
    page.goto("/maps/")
    assert page.locator(f'[data-map-id="{game_map.pk}"] img.map-preview').is_visible()

    # the API docs page runs under the CSP, from this site's files only
    page.goto("/api/docs/")
    page.wait_for_selector(".swagger-ui .info .title")
    assert "Gerrymander Classroom API" in page.inner_text(".swagger-ui .info .title")
    page.wait_for_selector("text=/api/maps/outline/")
    assert page.errors == []

    # --- the teacher assigns Berrymandering on Colorado ---------------------------------
    teacher_page = signed_in_page(browser, live_server_url, teacher)
    teacher_page.goto(f"/classes/{classroom.pk}/")
    teacher_page.click("#new-assignment")
    teacher_page.fill("#id_title", "Cut Colorado")
    teacher_page.select_option("#id_game", "berrymandering:2")
    map_select = teacher_page.locator("#id_opt__berrymandering__map")
    assert map_select.is_visible()
    map_select.select_option(label="Colorado")
    teacher_page.fill("#id_table_size", "2")
    teacher_page.select_option("#id_grouping", "random")
    teacher_page.select_option("#id_bot_level", "")
    teacher_page.click("#assignment-submit")
    teacher_page.wait_for_selector("#dashboard", state="attached")
    game = Game.objects.get(assignment_table__assignment__title="Cut Colorado")
    assert game.options["map_ref"]["name"] == "Colorado"
    assert len(game.state["map"]["cells"]) == 20

    # --- two students play it to the end ----------------------------------------------
    pages = []
    for student in students:
        p = signed_in_page(browser, live_server_url, student)
        p.goto("/me/")
        p.locator("a", has_text="Cut Colorado").first.click()
        p.wait_for_selector("svg.bm-board", state="attached")
        assert p.locator("[data-cell]").count() == 20
        pages.append((p, student))
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        if all(p.evaluate("document.body.dataset.over") == "true" for p, _ in pages):
            break
        moved = any([_play_step(p, game.pk, s) for p, s in pages])
        if not moved:
            time.sleep(0.05)
    else:
        pytest.fail("the game did not finish in time")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert sum(game.state["candles"]) <= 5  # 20 cells: 5 groups eaten, 5 rounds
    assert all(game.state["eaten"])
    for p, _ in pages:
        wait_until(p, "document.body.dataset.over === 'true'")
        assert p.errors == [], p.errors
