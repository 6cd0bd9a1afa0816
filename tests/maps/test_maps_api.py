"""The maps API as staff and teachers use it: JSON and multipart uploads, each engine's
map_check refusals per field in words, size limits, outlines to drafts, publishing, and the
docs page under the site's Content-Security-Policy."""

import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from games import maps
from games.engine.fptp_data import DEFAULT_MAP as FPTP_MAP
from games.models import GameMap

from .conftest import RECT, client_for, outline

pytestmark = pytest.mark.django_db

SMALL = {"cells": [[x, y] for y in range(2) for x in range(4)],
         "tiles": {"random": 2, "berries": [[2, 1, 0, 0], [2, 1, 0, 0]]},
         "mystery": [[1, 0, 0, 0], [1, 0, 0, 0]]}


def _upload(name, payload, content_type="application/json"):
    data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    return SimpleUploadedFile(name, data, content_type=content_type)


# --------------------------------------------------------------------------- uploads


def test_staff_upload_json_then_teachers_read_it_once_published(people, staff_client):
    response = staff_client.post("/api/maps/", {"kind": "berrymandering", "name": "Tiny Cake",
                                                "description": "Eight cells.",
                                                "data": SMALL}, format="json")
    assert response.status_code == 201
    body = response.json()
    assert body["slug"] == "tiny-cake" and body["version"] == 1 and not body["published"]
    assert body["data"]["name"] == "Tiny Cake"  # the map's name goes into its data
    assert body["svg"].startswith("<svg") and body["svg"].count("<rect") == 8
    assert body["summary"][0] == "8 cells: 2 rounds"
    assert body["created_by"] == "sta"

    teacher = client_for(people["teacher"])
    assert teacher.get(f"/api/maps/{body['id']}/").status_code == 404
    published = staff_client.post(f"/api/maps/{body['id']}/publish/").json()
    assert published["published"] is True
    read = teacher.get(f"/api/maps/{body['id']}/").json()
    assert read["data"]["cells"] == SMALL["cells"]


def test_staff_upload_a_file_with_multipart(staff_client):
    response = staff_client.post("/api/maps/", {
        "kind": "fptp", "name": "Islands", "published": "true",
        "file": _upload("uk.json", {**FPTP_MAP, "name": "ignored"}),
    }, format="multipart")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["published"] and body["data"]["name"] == "Islands"
    assert body["summary"] == [f"{len(FPTP_MAP['hexes'])} hexes",
                               "11 constituencies in 4 nations"]


def test_update_raises_the_version_only_when_the_data_changes(staff_client):
    created = staff_client.post("/api/maps/", {"kind": "berrymandering", "name": "Cake",
                                               "data": SMALL}, format="json").json()
    url = f"/api/maps/{created['id']}/"
    same = staff_client.patch(url, {"description": "Still eight."}, format="json").json()
    assert same["version"] == 1 and same["description"] == "Still eight."
    sixteen = {**SMALL, "cells": [[x, y] for y in range(4) for x in range(4)],
               "tiles": {"random": 4, "berries": [[3, 2, 1, 0], [3, 2, 1, 0]]},
               "mystery": [[2, 0, 0, 0], [2, 0, 0, 0]]}
    changed = staff_client.patch(url, {"data": sixteen}, format="json").json()
    assert changed["version"] == 2 and len(changed["data"]["cells"]) == 16
    by_file = staff_client.patch(url, {"file": _upload("m.json", SMALL)}, format="multipart")
    assert by_file.status_code == 200 and by_file.json()["version"] == 3


def test_a_slug_is_unique_per_game(staff_client):
    first = staff_client.post("/api/maps/", {"kind": "berrymandering", "name": "Twin",
                                             "data": SMALL}, format="json")
    assert first.status_code == 201
    second = staff_client.post("/api/maps/", {"kind": "berrymandering", "name": "Twin",
                                              "data": SMALL}, format="json")
    assert second.status_code == 400
    assert second.json()["errors"]["slug"] == [
        'A Berrymandering map called "twin" already exists: choose another name or slug.']


# --------------------------------------------------------------------------- refusals


def _refusal(client, body, status=400):
    response = client.post("/api/maps/", body, format="json")
    assert response.status_code == status, response.content
    return response.json()


def test_berrymandering_refusals_come_from_its_map_check(staff_client):
    # an 8-cell block and a 6-cell island starting at (5,2)
    cells = SMALL["cells"] + [[5, 2], [6, 2], [7, 2], [5, 3], [6, 3], [7, 3]]
    body = _refusal(staff_client, {"kind": "berrymandering", "name": "Bad", "data": {
        "cells": cells, "tiles": {"random": 2, "berries": [[3, 2, 1, 0], [3, 2, 1, 0]]}}})
    assert body["code"] == "map_problems"
    assert "The island at (5,2) has 6 cells: every island needs a multiple of 4 cells." \
        in body["errors"]["data"]
    assert "The map has 14 cells: the cake needs a multiple of 4 cells, as every group has " \
           "4." in body["errors"]["data"]
    assert body["message"].startswith("data: ")


def test_berrymandering_unequal_teams_are_refused(staff_client):
    data = {**SMALL, "tiles": {"random": 2, "berries": [[3, 0, 0, 0], [2, 1, 0, 0]]}}
    body = _refusal(staff_client, {"kind": "berrymandering", "name": "Unfair", "data": data})
    assert body["errors"]["data"] == [
        "Strawberry and Blueberry must get the same berry tiles (the same number of 1-, 2-, "
        "3- and 4-berry tiles each)."]


def test_mapmaker_refusals_come_from_its_map_check(staff_client):
    rows = [[q, r, 1] for q in range(-3, 4) for r in range(-3, 4) if abs(q + r) <= 3][:36]
    body = _refusal(staff_client, {"kind": "mapmaker", "name": "Short", "data": {
        "counties": rows}})
    assert body["errors"]["data"] == [
        "With 2 players the board has 36 counties in play but there are 37 voter tokens: it "
        "needs exactly one county per token."]
    body = _refusal(staff_client, {"kind": "mapmaker", "name": "Odd", "data": {
        "counties": [[0, 0, 7]]}})
    assert body["errors"]["data"] == [
        "The county at (0,0) has min_players 7; it must be 1 to 4."]


def test_fptp_refusals_come_from_its_map_check(staff_client):
    data = json.loads(json.dumps(FPTP_MAP))
    data["constituencies"]["Leeds"]["colour"] = "pink"
    body = _refusal(staff_client, {"kind": "fptp", "name": "Pink", "data": data})
    assert any(p.startswith("Leeds has the colour 'pink'") for p in body["errors"]["data"])


def test_the_other_fields_are_refused_in_words(staff_client):
    body = _refusal(staff_client, {"kind": "chess", "name": "X", "data": SMALL})
    assert body["errors"]["kind"] == ["Choose one of: mapmaker, berrymandering, fptp."]
    body = _refusal(staff_client, {"kind": "berrymandering", "name": "   ", "data": SMALL})
    assert list(body["errors"]) == ["name"]
    body = _refusal(staff_client, {"kind": "berrymandering", "name": "X", "data": [1, 2]})
    assert body["errors"]["data"] == ["The map data must be a JSON object."]
    body = _refusal(staff_client, {"kind": "berrymandering", "name": "X"})
    assert body["errors"]["data"] == ["This field is required."]
    body = _refusal(staff_client, [1, 2, 3])
    assert body["errors"]["non_field_errors"] == ["The body must be a JSON object."]


def test_builtin_maps_keep_their_data_and_cannot_be_deleted(staff_client):
    builtin = GameMap.objects.get(kind="berrymandering", slug="texas")
    response = staff_client.patch(f"/api/maps/{builtin.pk}/", {"data": SMALL}, format="json")
    assert response.status_code == 400
    assert response.json()["errors"]["data"][0].startswith("This is a built-in map")
    response = staff_client.delete(f"/api/maps/{builtin.pk}/")
    assert response.status_code == 400 and response.json()["code"] == "builtin"
    renamed = staff_client.patch(f"/api/maps/{builtin.pk}/", {"name": "Texas (big)"},
                                 format="json").json()
    assert renamed["name"] == "Texas (big)" and renamed["data"]["name"] == "Texas (big)"


def test_bad_json_is_refused_before_it_is_read(staff_client):
    deep = "[" * 200 + "]" * 200
    response = staff_client.post("/api/maps/", deep, content_type="application/json")
    assert response.status_code == 400
    assert "nested more than 32 levels" in response.json()["message"]
    response = staff_client.post("/api/maps/", '{"kind": NaN}', content_type="application/json")
    assert response.status_code == 400 and "NaN" in response.json()["message"]
    response = staff_client.post("/api/maps/", "kind=x", content_type="text/plain")
    assert response.status_code == 415 and response.json()["code"] == "unsupported_media_type"


def test_files_that_are_not_json_are_refused_per_field(staff_client):
    response = staff_client.post("/api/maps/", {
        "kind": "berrymandering", "name": "X", "file": _upload("m.json", b"\xff\xfe\x00")},
        format="multipart")
    assert response.json()["errors"]["file"] == [
        "The file is not text (UTF-8): upload a .json file."]
    response = staff_client.post("/api/maps/", {
        "kind": "berrymandering", "name": "X", "file": _upload("m.json", b"{cells: 1}")},
        format="multipart")
    assert response.json()["errors"]["file"][0].startswith("The file is not valid JSON:")


def test_uploads_over_the_limit_are_refused_with_the_limit_in_words(staff_client):
    big = b'{"cells": [' + b"[0, 0]," * 400_000 + b"[1, 1]]}"
    assert len(big) > maps.MAX_UPLOAD_BYTES
    response = staff_client.post("/api/maps/", {
        "kind": "berrymandering", "name": "Huge", "file": _upload("huge.json", big)},
        format="multipart")
    assert response.status_code == 413
    assert re.fullmatch(r"The upload is 2\.\d MB; the limit is 2\.0 MB\.",
                        response.json()["message"])
    response = staff_client.post("/api/maps/", big, content_type="application/json")
    assert response.status_code == 413 and response.json()["code"] == "too_large"


# --------------------------------------------------------------------------- check, outline


def test_check_lists_problems_or_previews(staff_client):
    ok = staff_client.post("/api/maps/check/", {"kind": "berrymandering", "data": SMALL},
                           format="json").json()
    assert ok["ok"] and ok["problems"] == [] and ok["svg"].startswith("<svg")
    bad = staff_client.post("/api/maps/check/", {"kind": "berrymandering",
                                                 "data": {"cells": [[0, 0]]}},
                            format="json").json()
    assert not bad["ok"] and bad["svg"] is None
    assert "The island at (0,0) has 1 cell: every island needs a multiple of 4 cells." \
        in bad["problems"]
    assert not staff_client.post("/api/maps/", {"kind": "berrymandering", "name": "x",
                                                "data": SMALL}, format="json").json()["published"]


def test_an_outline_becomes_a_draft_that_saves(staff_client):
    island = [[-100.0, 35.5], [-99.95, 35.5], [-99.95, 35.45], [-100.0, 35.45], [-100.0, 35.5]]
    geo = {"type": "MultiPolygon", "coordinates": [[RECT], [island]]}
    draft = staff_client.post("/api/maps/outline/", {"kind": "berrymandering", "target": 40,
                                                     "name": "Notched", "outline": geo},
                              format="json").json()
    assert draft["kind"] == "berrymandering" and draft["target"] == 40
    assert abs(draft["cells"] - 40) <= 4 and draft["cells"] % 4 == 0
    assert len(draft["data"]["cells"]) == draft["cells"]
    assert draft["svg"].startswith("<svg") and "<path" in draft["svg"]  # the outline
    saved = staff_client.post("/api/maps/", {"kind": "berrymandering", "name": draft["name"],
                                             "data": draft["data"]}, format="json")
    assert saved.status_code == 201


def test_an_outline_file_for_mapmaker(staff_client):
    response = staff_client.post("/api/maps/outline/", {
        "kind": "mapmaker", "target": "55", "name": "Box",
        "file": _upload("box.geojson", {"type": "Feature", "properties": {},
                                        "geometry": outline()})}, format="multipart")
    assert response.status_code == 200, response.json()
    draft = response.json()
    assert draft["cells"] == 55
    assert draft["summary"] == ["37 counties with 2 players; 55 counties with 3 players",
                                "for 2 or 3 players"]


@pytest.mark.parametrize("body, field, words", [
    ({"kind": "fptp", "target": 40, "outline": outline()}, "kind",
     "Outlines become Berrymandering or Mapmaker boards"),
    ({"kind": "mapmaker", "target": 40, "outline": outline()}, "target",
     "A Mapmaker board has 37 counties (2 players), 55"),
    ({"kind": "berrymandering", "target": 4, "outline": outline()}, "target",
     "A Berrymandering cake has 20 to 400 cells."),
    ({"kind": "berrymandering", "target": 40, "outline": {"type": "Point",
                                                          "coordinates": [1, 2]}},
     "outline", "The outline is a Point; it must be a GeoJSON Polygon or MultiPolygon"),
    ({"kind": "berrymandering", "target": 40, "outline": {
        "type": "Polygon", "coordinates": [[[0, 0], [500, 0], [1, 1], [0, 0]]]}},
     "outline", "The outline, ring 1: the position [500, 0] is not a longitude"),
    ({"kind": "berrymandering", "target": 40, "outline": {
        "type": "Polygon", "coordinates": [[[0, 0], [1, 0], [2, 0], [0, 0]]]}},
     "outline", "The outline encloses no area."),
])
def test_outline_refusals_say_which_field(staff_client, body, field, words):
    response = staff_client.post("/api/maps/outline/", {"name": "X", **body}, format="json")
    assert response.status_code == 400
    payload = response.json()
    assert list(payload["errors"]) == [field]
    assert payload["errors"][field][0].startswith(words), payload


# --------------------------------------------------------------------------- schema, docs


def test_the_schema_documents_the_maps_api(staff_client):
    response = staff_client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    schema = json.loads(response.content)
    assert schema["openapi"].startswith("3.")
    for path in ("/api/maps/", "/api/maps/{map_id}/", "/api/maps/{map_id}/publish/",
                 "/api/maps/{map_id}/unpublish/", "/api/maps/check/", "/api/maps/outline/"):
        assert path in schema["paths"], path
    create = schema["paths"]["/api/maps/"]["post"]["requestBody"]["content"]
    assert set(create) == {"application/json", "multipart/form-data"}
    assert {"cookieAuth", "tokenAuth"} <= set(schema["components"]["securitySchemes"])


def test_the_docs_page_runs_no_inline_script_and_loads_only_this_site(staff_client):
    response = staff_client.get("/api/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    scripts = re.findall(r"<script\b([^>]*)>(.*?)</script>", html, re.S)
    assert len(scripts) == 3
    for attrs, body in scripts:
        assert body.strip() == "" and "src=" in attrs  # every script is a file
    assert "<style" not in html and " style=" not in html and "onload=" not in html
    urls = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert urls and all(u.startswith("/") and not u.startswith("//") for u in urls), urls
    csp = response["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    # the init script and the Swagger UI files are served here
    init = next(re.search(r'src="([^"]+)"', a).group(1) for a, _ in scripts if "script" in a)
    script = staff_client.get(init.replace("&amp;", "&"))
    assert script.status_code == 200
    assert script["Content-Type"].startswith("application/javascript")
    assert '"validatorUrl": null' in script.content.decode()
    assert "/api/schema/" in script.content.decode()
