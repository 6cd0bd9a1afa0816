"""The map pages as staff and teachers use them: outline to draft, fix, check, save and
publish on the upload page; the gallery's previews; change and delete on a map's page."""

import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from games import maps
from games.models import GameMap

from .conftest import outline

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(client, people):
    client.force_login(people["staff"])
    return client


def _draft(staff, **extra):
    return staff.post("/maps/new/", {
        "action": "outline", "o-kind": "berrymandering", "o-name": "Notchland",
        "o-cells": "40", "o-counties": "73",
        "o-outline_file": SimpleUploadedFile("notch.geojson",
                                             json.dumps(outline()).encode()), **extra})


def test_outline_to_draft_to_published_map(staff, people, client):
    response = _draft(staff)
    assert response.status_code == 200
    html = response.content.decode()
    draft = re.search(r'<div id="draft" data-cells="(\d+)" data-target="(\d+)"', html)
    assert draft and abs(int(draft.group(1)) - 40) <= 4 and draft.group(2) == "40"
    assert '<div class="map-svg" id="draft-preview"><svg' in html  # the preview, inline
    box = re.search(r'<textarea name="d-data_text"[^>]*>(.*?)</textarea>', html, re.S)
    data = json.loads(box.group(1).replace("&quot;", '"'))
    assert len(data["cells"]) == int(draft.group(1))

    # a slip while fixing it in the box is caught by the check; the corrected data passes
    form = {"d-kind": "berrymandering", "d-name": "Notchland", "d-description": "Fixed.",
            "d-data_text": json.dumps({**data, "cells": data["cells"][:-1]})}
    checked = staff.post("/maps/new/", {**form, "action": "check"}).content.decode()
    assert 'id="data_text-problems"' in checked
    assert f"The map has {len(data['cells']) - 1} cells: the cake needs a multiple of 4" \
        in checked
    form["d-data_text"] = json.dumps(data)
    checked = staff.post("/maps/new/", {**form, "action": "check"}).content.decode()
    assert 'id="check-ok"' in checked and '<div class="map-svg" id="check-preview"><svg' \
        in checked
    saved = staff.post("/maps/new/", {**form, "action": "publish"})
    game_map = GameMap.objects.get(kind="berrymandering", slug="notchland")
    assert saved.status_code == 302 and saved["Location"] == f"/maps/{game_map.pk}/"
    assert game_map.published and len(game_map.data["cells"]) == len(data["cells"])
    assert game_map.created_by == people["staff"]


def test_a_map_that_does_not_play_is_shown_with_its_problems(staff):
    response = staff.post("/maps/new/", {
        "action": "save", "d-kind": "berrymandering", "d-name": "Bad",
        "d-data_text": json.dumps({"cells": [[0, 0], [1, 0], [2, 0]]})})
    assert response.status_code == 200
    html = response.content.decode()
    assert "The island at (0,0) has 3 cells: every island needs a multiple of 4 cells." in html
    assert not GameMap.objects.filter(slug="bad").exists()


def test_bad_outline_input_is_refused_on_its_field(staff):
    html = staff.post("/maps/new/", {
        "action": "outline", "o-kind": "berrymandering", "o-name": "X", "o-cells": "40",
        "o-outline_text": '{"type": "Point", "coordinates": [0, 0]}'}).content.decode()
    assert "The outline is a Point; it must be a GeoJSON Polygon or MultiPolygon" in html
    html = staff.post("/maps/new/", {
        "action": "outline", "o-kind": "mapmaker", "o-name": "X", "o-counties": "73",
        "o-outline_text": "{not json"}).content.decode()
    assert "The file is not valid JSON" in html or "not valid JSON" in html


def test_the_gallery_shows_previews_and_hides_unpublished_maps_from_teachers(client, people):
    maps.map_create(kind="berrymandering", name="Secret cake",
                    data=json.loads((maps.MAP_DATA_DIR / "berrymandering-ohio.json")
                                    .read_text())["data"], created_by=people["staff"])
    client.force_login(people["teacher"])
    html = client.get("/maps/").content.decode()
    assert 'alt="Preview of Texas"' in html and "Secret cake" not in html
    texas = GameMap.objects.get(kind="mapmaker", slug="texas")
    svg = client.get(f"/maps/{texas.pk}/preview.svg")
    assert svg["Content-Type"].startswith("image/svg+xml")
    assert svg.content.decode().count("<polygon") == 73
    assert "Upload a map" not in html
    client.force_login(people["staff"])
    html = client.get("/maps/").content.decode()
    assert "Secret cake" in html and "Not published" in html and "Upload a map" in html


def test_the_nav_links_to_maps_for_teachers_and_staff_only(client, people):
    for role, shown in (("student", False), ("teacher", True), ("staff", True)):
        client.force_login(people[role])
        html = client.get("/games/").content.decode()
        assert ('href="/maps/"' in html) is shown, role


def test_staff_change_unpublish_and_delete_on_the_map_page(staff):
    game_map = maps.map_create(kind="berrymandering", name="Cake",
                               data={"cells": [[x, y] for y in range(2) for x in range(4)],
                                     "tiles": {"random": 2,
                                               "berries": [[2, 1, 0, 0], [2, 1, 0, 0]]}},
                               published=True)
    url = f"/maps/{game_map.pk}/"
    response = staff.post(url, {"action": "save", "name": "Cake, renamed",
                                "description": "Now described.",
                                "data_text": json.dumps(game_map.data)})
    assert response.status_code == 302
    game_map.refresh_from_db()
    assert game_map.name == "Cake, renamed" and game_map.description == "Now described."
    bad = staff.post(url, {"action": "save", "name": "Cake", "data_text": '{"cells": []}'})
    assert bad.status_code == 200
    assert 'The map needs &quot;cells&quot;: a list of [x, y] pairs.' in bad.content.decode()
    staff.post(url, {"action": "unpublish"})
    game_map.refresh_from_db()
    assert not game_map.published
    staff.post(url, {"action": "delete"})
    assert not GameMap.objects.filter(pk=game_map.pk).exists()


def test_staff_upload_a_map_data_file_on_the_page(staff):
    from games.engine.fptp_data import DEFAULT_MAP

    islands = {**DEFAULT_MAP, "name": "My islands"}
    response = staff.post("/maps/new/", {
        "action": "publish", "d-kind": "fptp", "d-name": "My islands",
        "d-data_file": SimpleUploadedFile("islands.json", json.dumps(islands).encode(),
                                          content_type="application/json")})
    game_map = GameMap.objects.get(kind="fptp", slug="my-islands")
    assert response.status_code == 302 and response["Location"] == f"/maps/{game_map.pk}/"
    assert game_map.published and len(game_map.data["hexes"]) == len(DEFAULT_MAP["hexes"])
    # a file that is not map data is refused on its field, and nothing is saved
    html = staff.post("/maps/new/", {
        "action": "publish", "d-kind": "fptp", "d-name": "Broken",
        "d-data_file": SimpleUploadedFile("broken.json", b"{not json")}).content.decode()
    assert "not valid JSON" in html
    assert not GameMap.objects.filter(slug="broken").exists()
