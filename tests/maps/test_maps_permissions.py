"""Who may do what with maps: every maps endpoint and page, every method, for anonymous, a
student, a teacher, staff, a superuser, and staff through a token (API only), with the exact
answer each gets.

Anonymous API requests get 403 (sessions are the first authentication scheme, which sends
no WWW-Authenticate challenge); anonymous page requests are sent to the sign-in page (302).
A teacher asking for an unpublished map gets 404, like a map that does not exist.
"""

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games import maps
from games.models import GameMap

from .conftest import client_for, outline

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "student", "teacher", "staff", "superuser", "staff_token")

SMALL = {"cells": [[x, y] for y in range(2) for x in range(4)],
         "tiles": {"random": 2, "berries": [[2, 1, 0, 0], [2, 1, 0, 0]]},
         "mystery": [[1, 0, 0, 0], [1, 0, 0, 0]]}


@pytest.fixture
def world(people):
    staff = people["staff"]
    published = maps.map_create(kind="berrymandering", name="Published", data=SMALL,
                                published=True, created_by=staff)
    hidden = maps.map_create(kind="berrymandering", name="Hidden", data=SMALL,
                             created_by=staff)
    builtin = GameMap.objects.filter(builtin=True).first()
    token = Token.objects.create(user=staff)
    return {"P": published.pk, "U": hidden.pk, "B": builtin.pk, "token": token.key}


def api_client(role, people, world):
    if role == "staff_token":
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {world['token']}")
        return client
    return client_for(people[role])


NEW_MAP = {"kind": "berrymandering", "name": "New one", "data": SMALL}
OUTLINE = {"kind": "berrymandering", "target": 24, "name": "Box", "outline": outline()}
CHECK = {"kind": "berrymandering", "data": SMALL}

#      name, method, path ({P}, {U}, {B} filled in), body,
#      anonymous, student, teacher, staff, superuser, staff by token
API_CASES = [
    ("list", "get", "/api/maps/", None, 403, 403, 200, 200, 200, 200),
    ("list by kind", "get", "/api/maps/?kind=mapmaker", None, 403, 403, 200, 200, 200, 200),
    ("create", "post", "/api/maps/", NEW_MAP, 403, 403, 403, 201, 201, 201),
    ("read published", "get", "/api/maps/{P}/", None, 403, 403, 200, 200, 200, 200),
    ("read unpublished", "get", "/api/maps/{U}/", None, 403, 403, 404, 200, 200, 200),
    ("read missing", "get", "/api/maps/999999/", None, 403, 403, 404, 404, 404, 404),
    ("change", "patch", "/api/maps/{P}/", {"description": "Dry."},
     403, 403, 403, 200, 200, 200),
    ("replace (no PUT)", "put", "/api/maps/{P}/", NEW_MAP, 403, 403, 403, 405, 405, 405),
    ("delete", "delete", "/api/maps/{U}/", None, 403, 403, 403, 204, 204, 204),
    ("delete built-in", "delete", "/api/maps/{B}/", None, 403, 403, 403, 400, 400, 400),
    ("publish", "post", "/api/maps/{U}/publish/", None, 403, 403, 403, 200, 200, 200),
    ("unpublish", "post", "/api/maps/{P}/unpublish/", None, 403, 403, 403, 200, 200, 200),
    ("publish by GET", "get", "/api/maps/{P}/publish/", None, 403, 403, 405, 405, 405, 405),
    ("check", "post", "/api/maps/check/", CHECK, 403, 403, 403, 200, 200, 200),
    ("check by GET", "get", "/api/maps/check/", None, 403, 403, 403, 405, 405, 405),
    ("outline", "post", "/api/maps/outline/", OUTLINE, 403, 403, 403, 200, 200, 200),
    ("outline by GET", "get", "/api/maps/outline/", None, 403, 403, 403, 405, 405, 405),
    ("schema", "get", "/api/schema/", None, 403, 403, 403, 200, 200, 200),
    ("docs page", "get", "/api/docs/", None, 403, 403, 403, 200, 200, 200),
]

# Pages use sessions only: a token is not a sign-in there (staff_token: as anonymous).
PAGE_CASES = [
    ("gallery", "get", "/maps/", None, 302, 403, 200, 200, 200, 302),
    ("upload page", "get", "/maps/new/", None, 302, 403, 403, 200, 200, 302),
    ("map page", "get", "/maps/{P}/", None, 302, 403, 200, 200, 200, 302),
    ("unpublished map page", "get", "/maps/{U}/", None, 302, 403, 404, 200, 200, 302),
    ("preview", "get", "/maps/{P}/preview.svg", None, 302, 403, 200, 200, 200, 302),
    ("unpublished preview", "get", "/maps/{U}/preview.svg", None, 302, 403, 404, 200, 200,
     302),
    ("publish on the page", "post", "/maps/{U}/", {"action": "publish"},
     302, 403, 404, 302, 302, 302),
    ("unpublish on the page", "post", "/maps/{P}/", {"action": "unpublish"},
     302, 403, 403, 302, 302, 302),
    ("draft on the upload page", "post", "/maps/new/", {"action": "check"},
     302, 403, 403, 200, 200, 302),
]


def _path(template, world):
    return template.format(P=world["P"], U=world["U"], B=world["B"])


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("case", API_CASES, ids=[c[0] for c in API_CASES])
def test_api_matrix(case, role, people, world):
    name, method, path, body, *expected = case
    want = dict(zip(ROLES, expected, strict=True))[role]
    client = api_client(role, people, world)
    kwargs = {"format": "json"} if body is not None else {}
    response = getattr(client, method)(_path(path, world), body, **kwargs) \
        if body is not None else getattr(client, method)(_path(path, world))
    assert response.status_code == want, (name, role, response.content[:300])
    if want >= 400 and path.startswith("/api/maps"):
        payload = response.json()
        assert set(payload) >= {"code", "message"} and payload["message"]


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("case", PAGE_CASES, ids=[c[0] for c in PAGE_CASES])
def test_page_matrix(case, role, people, world, client):
    name, method, path, body, *expected = case
    want = dict(zip(ROLES, expected, strict=True))[role]
    user = people.get(role)
    if user is not None:
        client.force_login(user)
    path = _path(path, world)
    response = client.post(path, body) if method == "post" else client.get(path)
    assert response.status_code == want, (name, role)
    if want == 302 and role in ("anonymous", "staff_token"):
        assert response["Location"].startswith("/accounts/login/")


def test_what_each_role_sees_in_the_list(people, world):
    """Teachers see published maps only; staff see every map."""
    teacher = client_for(people["teacher"]).get("/api/maps/").json()
    staff = client_for(people["staff"]).get("/api/maps/").json()
    assert world["P"] in {m["id"] for m in teacher}
    assert world["U"] not in {m["id"] for m in teacher}
    assert all(m["published"] for m in teacher)
    assert {world["P"], world["U"]} <= {m["id"] for m in staff}


def test_the_refusals_say_why(people, world):
    student = client_for(people["student"]).get("/api/maps/").json()
    assert student["message"] == "Maps are for teachers and staff."
    teacher = client_for(people["teacher"]).post("/api/maps/", NEW_MAP, format="json").json()
    assert teacher["message"] == "Only staff can do this."
    anonymous = APIClient().get("/api/maps/").json()
    assert "token" in anonymous["message"].lower()


def test_a_bad_token_is_refused(world):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    response = client.get("/api/maps/")
    assert response.status_code == 403
    assert response.json()["code"] == "authentication_failed"


def test_the_teachers_group_name_is_the_one_classrooms_uses():
    from classrooms.models import TEACHERS_GROUP as CLASSROOMS_GROUP
    from games.maps_selectors import TEACHERS_GROUP

    assert TEACHERS_GROUP == CLASSROOMS_GROUP
