"""The authorisation matrix: every classrooms URL, the game URLs of a class game, and every
socket route, as anonymous, a student of the class, a student of another class, the class
teacher, another teacher and an admin.

The URL and route lists come from the URLconf and the websocket routing, so a new URL or
route without an entry in EXPECTED / EXPECTED_WS fails ``test_every_url_has_an_entry``.
"""

import json

import pytest
from channels.testing import WebsocketCommunicator
from django.db import transaction
from django.test import Client
from django.urls import NoReverseMatch, URLPattern, URLResolver, get_resolver, reverse

from .conftest import build_school, cookie_for, join, make_user

ROLES = ["anonymous", "student", "other_student", "teacher", "other_teacher", "admin"]
ALL = set(ROLES)
SIGNED_IN = ALL - {"anonymous"}
TEACHER = {"teacher", "admin"}
AT_TABLE = {"student", "teacher", "admin"}


def _user(school, role):
    return {"anonymous": None, "student": school.ana, "other_student": school.eve,
            "teacher": school.teach_a, "other_teacher": school.teach_b, "admin": school.admin}[role]


def _seat_post(s):
    return {"table_id": s.table.pk, "index": s.game.seats.get(user=s.ana).index, "action": "bot"}


# name -> (method, POST data builder or None, roles allowed)
EXPECTED = {
    "home": ("get", None, ALL),
    "login": ("get", None, ALL),
    "logout": ("post", None, ALL),
    "classrooms:signup": ("get", None, ALL),
    "classrooms:join": ("get", None, ALL),
    "classrooms:my_games": ("get", None, SIGNED_IN),
    "classrooms:class_list": ("get", None, {"teacher", "other_teacher", "admin"}),
    "classrooms:class_detail": ("get", None, TEACHER),
    "classrooms:class_rename": ("post", lambda s: {"name": "Renamed"}, TEACHER),
    "classrooms:roster_add": ("post", lambda s: {"names": "New Kid"}, TEACHER),
    "classrooms:cards": ("get", None, TEACHER),
    "classrooms:cards_reissue": ("post", None, TEACHER),
    "classrooms:join_code": ("post", lambda s: {"action": "regenerate"}, TEACHER),
    "classrooms:class_results": ("get", None, TEACHER),
    "classrooms:class_results_csv": ("get", None, TEACHER),
    "classrooms:assignment_create": ("get", None, TEACHER),
    "classrooms:student_reset": ("post", None, TEACHER),
    "classrooms:student_rename": ("post", lambda s: {"name": "Anita"}, TEACHER),
    "classrooms:student_remove": ("post", None, TEACHER),
    "classrooms:student_results": ("get", None, TEACHER),
    "classrooms:assignment_dashboard": ("get", None, TEACHER),
    "classrooms:assignment_arrange": ("get", None, TEACHER),
    "classrooms:assignment_pause": ("post", lambda s: {"paused": "1"}, TEACHER),
    "classrooms:assignment_seat": ("post", _seat_post, TEACHER),
    "classrooms:assignment_move": ("post", lambda s: {"student_id": s.ana.pk,
                                                      "table_id": s.table.pk}, TEACHER),
    "classrooms:assignment_results": ("get", None, TEACHER),
    "classrooms:assignment_results_csv": ("get", None, TEACHER),
    # the games app's pages and API, for a game of class A
    "games:lobby": ("get", None, SIGNED_IN),
    "games:detail": ("get", None, AT_TABLE),
    "games:join": ("post", None, AT_TABLE),
    "api-game": ("get", None, AT_TABLE),
    # a move reaches the move service only for a seated player (teacher/admin: spectators)
    "api-game-moves": ("json", lambda s: {"move": {"type": "border", "between": [[99, 99], [98, 98]]},
                                          "version": s.game.version}, {"student"}),
}

EXPECTED_WS = {
    "ws/games/<int:game_id>/": AT_TABLE,
    "ws/me/": SIGNED_IN,
    "ws/assignments/<int:assignment_id>/": TEACHER,
    "ws/echo/": None,  # benchmark-only echo socket (off by default): not a classroom route
}


def _walk(patterns, namespace=None):
    for entry in patterns:
        if isinstance(entry, URLResolver):
            if str(entry.pattern) == "admin/":
                continue  # Django's admin guards itself (staff only)
            ns = entry.namespace
            full = f"{namespace}:{ns}" if namespace and ns else (ns or namespace)
            yield from _walk(entry.url_patterns, full)
        elif isinstance(entry, URLPattern) and entry.name:
            yield f"{namespace}:{entry.name}" if namespace else entry.name


def _url(name, school):
    """Reverse ``name`` with whichever of class A's ids its pattern takes."""
    ids = {"class_id": school.class_a.pk, "student_id": school.ana.pk,
           "assignment_id": school.assignment.pk, "game_id": school.game.pk}
    for keys in ((), ("class_id",), ("class_id", "student_id"), ("assignment_id",), ("game_id",)):
        try:
            return reverse(name, kwargs={k: ids[k] for k in keys})
        except NoReverseMatch:
            continue
    raise AssertionError(f"cannot build a URL for {name}: give _url its ids")


def _allowed(response, role):
    if response.status_code in (401, 403, 404):
        return False
    if response.status_code == 302 and "?next=" in response.get("Location", ""):
        return False  # sent to sign in
    return True


@pytest.mark.django_db
def test_every_url_has_an_entry():
    names = set(_walk(get_resolver().url_patterns))
    assert names - set(EXPECTED) == set(), "new URL(s) need an entry in EXPECTED"
    assert set(EXPECTED) - names == set(), "EXPECTED lists URL(s) that no longer exist"
    from gerrymander_site.routing import websocket_urlpatterns

    routes = {p.pattern._route for p in websocket_urlpatterns}
    assert routes - set(EXPECTED_WS) == set(), "new socket route(s) need an entry in EXPECTED_WS"


@pytest.mark.django_db
def test_authorisation_matrix_http():
    school = build_school()
    failures = []
    for name, (method, data, allowed_roles) in EXPECTED.items():
        url = _url(name, school)
        for role in ROLES:
            with transaction.atomic():  # each request's writes are rolled back
                client = Client(raise_request_exception=False)
                user = _user(school, role)
                if user is not None:
                    client.force_login(user)
                payload = data(school) if data else {}
                if method == "get":
                    response = client.get(url)
                elif method == "json":
                    response = client.post(url, json.dumps(payload),
                                           content_type="application/json")
                else:
                    response = client.post(url, payload)
                transaction.set_rollback(True)
            got = _allowed(response, role)
            if response.status_code >= 500:
                failures.append(f"{name} {url} as {role}: server error {response.status_code}")
            elif got != (role in allowed_roles):
                failures.append(f"{name} {url} as {role}: {response.status_code} "
                                f"({'allowed' if got else 'denied'})")
    assert not failures, "\n".join(failures)


@pytest.mark.django_db
def test_ids_of_another_class_are_unreachable():
    """A teacher cannot reach class A's data through their own class's ids, and vice versa."""
    school = build_school()
    client = Client()
    client.force_login(school.teach_b)
    for name in ("student_reset", "student_rename", "student_remove", "student_results"):
        response = client.post(reverse(f"classrooms:{name}", args=[school.class_b.pk, school.ana.pk]),
                               {"name": "hacked"})
        assert response.status_code == 404, name
    # class A's table through class B's assignment: refused, nothing changes
    response = client.post(reverse("classrooms:assignment_seat", args=[school.assignment_b.pk]),
                           {"table_id": school.table.pk, "index": 0, "action": "bot"},
                           HTTP_ACCEPT="application/json")
    assert response.status_code == 400
    assert not school.game.seats.filter(bot_level__gt="").exists()
    school.ana.refresh_from_db()
    assert school.ana.first_name == "Ana María"


@pytest.mark.django_db
def test_a_classmate_not_at_the_table_cannot_watch_it():
    school = build_school()
    cara = make_user("cara")
    join(school.class_a, cara)
    client = Client()
    client.force_login(cara)
    assert client.get(reverse("games:detail", args=[school.game.pk])).status_code == 403
    assert client.get(reverse("api-game", args=[school.game.pk])).status_code == 404
    # a lobby game (no assignment) stays open to any signed-in user, as the games app wants
    from games import services as game_services

    lobby_game = game_services.game_create(kind="mapmaker", options={"players": 2},
                                           created_by=school.eve,
                                           seats=[game_services.SeatSpec(user=school.eve)])
    assert client.get(reverse("games:detail", args=[lobby_game.pk])).status_code == 200


@pytest.fixture
def ws_school(transactional_db):
    school = build_school()
    school.cookies = {role: cookie_for(_user(school, role)) for role in ROLES if role != "anonymous"}
    return school


@pytest.mark.django_db(transaction=True)
async def test_authorisation_matrix_sockets(ws_school):
    from gerrymander_site.asgi import application
    from gerrymander_site.routing import websocket_urlpatterns

    school = ws_school
    paths = {
        "ws/games/<int:game_id>/": f"/ws/games/{school.game.pk}/",
        "ws/me/": "/ws/me/",
        "ws/assignments/<int:assignment_id>/": f"/ws/assignments/{school.assignment.pk}/",
    }
    failures = []
    for pattern in websocket_urlpatterns:
        route = pattern.pattern._route
        allowed_roles = EXPECTED_WS[route]
        if allowed_roles is None:
            continue
        for role in ROLES:
            headers = [(b"origin", b"http://localhost")]
            if role != "anonymous":
                headers.append((b"cookie", school.cookies[role]))
            comm = WebsocketCommunicator(application, paths[route], headers=headers)
            connected, code = await comm.connect(timeout=5)
            if connected:
                frame = json.loads(await comm.receive_from(timeout=5))
                assert frame["type"] in ("state", "rows", "games")
                await comm.disconnect()
            elif role == "anonymous":
                assert code == 4401
            else:
                assert code in (4403, 4404)
            if connected != (role in allowed_roles):
                failures.append(f"{route} as {role}: {'connected' if connected else code}")
    # another id in the path: class B's teacher on class A's dashboard, and a missing one
    comm = WebsocketCommunicator(application, "/ws/assignments/999999/",
                                 headers=[(b"origin", b"http://localhost"),
                                          (b"cookie", school.cookies["teacher"])])
    assert (await comm.connect(timeout=5)) == (False, 4404)
    assert not failures, "\n".join(failures)
