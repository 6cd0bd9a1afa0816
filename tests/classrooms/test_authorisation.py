"""The authorisation matrix: every classrooms URL, the game URLs of a class game, and every
socket route, as anonymous, a student of the class, a student of another class, the class
teacher, another teacher and an admin.

The URL and route lists come from the URLconf and the websocket routing, so a new URL or
route without an entry in EXPECTED / EXPECTED_WS fails ``test_every_url_has_an_entry``.
"""

import json

import pytest
from channels.testing import WebsocketCommunicator
from django.contrib.messages import get_messages
from django.db import transaction
from django.test import Client
from django.urls import NoReverseMatch, URLPattern, URLResolver, get_resolver, reverse

from games.models import GameMap

from ..conftest import ws_open
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


# --- what each role must get, exactly ---------------------------------------------------
# An int is the exact status code; LOGIN is a redirect to the sign-in page (with ?next=);
# Redirect(...) is a 302 to exactly that page, with a flash message of that level (an
# "error" flash means the request was refused; "ok" means there was no error flash).

LOGIN = "login"


class Redirect:
    def __init__(self, target, flash="ok"):
        self.target, self.flash = target, flash

    def path(self, school):
        return self.target(school) if callable(self.target) else self.target

    def __repr__(self):
        return f"302 -> {self.target if not callable(self.target) else '...'} ({self.flash})"


def _class_page(s):
    return reverse("classrooms:class_detail", args=[s.class_a.pk])


def _cards_page(s):
    return reverse("classrooms:cards", args=[s.class_a.pk])


def _new_cards_page(s):
    return _cards_page(s) + "?show=new"


def _dashboard(s):
    return reverse("classrooms:assignment_dashboard", args=[s.assignment.pk])


def _game_page(s):
    return reverse("games:detail", args=[s.game.pk])


def teacher_page(ok):
    """A page of class A or its assignment: its teacher and admins get ``ok``; a student is
    refused the role (403); another teacher cannot tell the id exists (404)."""
    return {"anonymous": LOGIN, "student": 403, "other_student": 403, "teacher": ok,
            "other_teacher": 404, "admin": ok}


def game_of_class_a(at_table, *, anonymous=LOGIN):
    """A game of class A's table: players, its teacher and admins get ``at_table`` (a dict per
    role or one value); anyone else gets the same answer as a missing game (404)."""
    per_role = at_table if isinstance(at_table, dict) else dict.fromkeys(AT_TABLE, at_table)
    return {"anonymous": anonymous, "other_student": 404, "other_teacher": 404, **per_role}


MAP_READERS = {"anonymous": LOGIN, "student": 403, "other_student": 403, "teacher": 200,
               "other_teacher": 200, "admin": 200}
API_STAFF_POST = {"anonymous": 403, "student": 403, "other_student": 403, "teacher": 403,
                  "other_teacher": 403, "admin": 405}

# name -> (method, POST data builder or None, {role: expectation})
EXPECTED = {
    "home": ("get", None, {"anonymous": 200, "student": Redirect("/me/"),
                           "other_student": Redirect("/me/"), "teacher": Redirect("/classes/"),
                           "other_teacher": Redirect("/classes/"),
                           "admin": Redirect("/classes/")}),
    "login": ("get", None, {"anonymous": 200, **dict.fromkeys(SIGNED_IN, Redirect("/"))}),
    "logout": ("post", None, dict.fromkeys(ALL, Redirect("/accounts/login/"))),
    "classrooms:signup": ("get", None, {"anonymous": 200,
                                        **dict.fromkeys(SIGNED_IN, Redirect("/"))}),
    "classrooms:join": ("get", None, dict.fromkeys(ALL, 200)),
    "classrooms:my_games": ("get", None, {"anonymous": LOGIN, **dict.fromkeys(SIGNED_IN, 200)}),
    "classrooms:class_list": ("get", None, {**teacher_page(200), "other_teacher": 200}),
    "classrooms:class_detail": ("get", None, teacher_page(200)),
    "classrooms:class_rename": ("post", lambda s: {"name": "Renamed"},
                                teacher_page(Redirect(_class_page))),
    "classrooms:roster_add": ("post", lambda s: {"names": "New Kid", "confirm": "1"},
                              teacher_page(Redirect(_new_cards_page, "success"))),
    "classrooms:cards": ("get", None, teacher_page(200)),
    "classrooms:cards_reissue": ("post", None, teacher_page(Redirect(_new_cards_page,
                                                                     "success"))),
    "classrooms:signin_revoke": ("post", None, teacher_page(Redirect(_class_page, "success"))),
    # a card's QR sign-in link: a bad one is refused alike for everyone (gone)
    "classrooms:signin_link": ("get", None, dict.fromkeys(ALL, 410)),
    "classrooms:login_short": ("get", None, dict.fromkeys(ALL, Redirect("/accounts/login/"))),
    "classrooms:join_code": ("post", lambda s: {"action": "regenerate"},
                             teacher_page(Redirect(_class_page, "success"))),
    "classrooms:class_results": ("get", None, teacher_page(200)),
    "classrooms:class_results_csv": ("get", None, teacher_page(200)),
    "classrooms:assignment_create": ("get", None, teacher_page(200)),
    "classrooms:student_reset": ("post", None, teacher_page(Redirect(_class_page, "success"))),
    "classrooms:student_rename": ("post", lambda s: {"name": "Anita"},
                                  teacher_page(Redirect(_class_page))),
    "classrooms:student_remove": ("post", None, teacher_page(Redirect(_class_page, "success"))),
    "classrooms:student_results": ("get", None, teacher_page(200)),
    "classrooms:assignment_dashboard": ("get", None, teacher_page(200)),
    # started already: the arrange page sends the teacher to the dashboard
    "classrooms:assignment_arrange": ("get", None, teacher_page(Redirect(_dashboard))),
    "classrooms:assignment_pause": ("post", lambda s: {"paused": "1"},
                                    teacher_page(Redirect(_dashboard, "success"))),
    "classrooms:assignment_seat": ("post", _seat_post, teacher_page(Redirect(_dashboard, "success"))),
    "classrooms:assignment_move": ("post", lambda s: {"student_id": s.ana.pk,
                                                      "table_id": s.table.pk},
                                   teacher_page(Redirect(_dashboard, "success"))),
    # every student of class A is seated already: nothing to do, said as a success
    "classrooms:assignment_seat_student": ("post", lambda s: {"all": "1"},
                                           teacher_page(Redirect(_dashboard, "success"))),
    "classrooms:assignment_results": ("get", None, teacher_page(200)),
    "classrooms:assignment_results_csv": ("get", None, teacher_page(200)),
    "classrooms:assignment_debrief": ("get", None, teacher_page(200)),
    # the games app's pages and API, for a game of class A
    "games:lobby": ("get", None, {"anonymous": LOGIN, **dict.fromkeys(SIGNED_IN, 200)}),
    "games:detail": ("get", None, game_of_class_a(200)),
    # the game is full and started: whoever may join is told so (an error flash), never seated
    "games:join": ("post", None, game_of_class_a(Redirect(_game_page, "error"))),
    # "Try this map again" is for one's own finished solo game: a class table is nobody's
    "games:again": ("post", None, {"anonymous": LOGIN, **dict.fromkeys(SIGNED_IN, 404)}),
    "games:learn": ("post", None, {"anonymous": LOGIN, **dict.fromkeys(SIGNED_IN, 302)}),
    "api-game": ("get", None, game_of_class_a(200, anonymous=403)),
    # a move reaches the move service only for a seated player (it refuses this illegal move:
    # 400); the teacher and admins are spectators (403)
    "api-game-moves": ("json", lambda s: {"move": {"type": "border", "between": [[99, 99], [98, 98]]},
                                          "version": s.game.version},
                       game_of_class_a({"student": 400, "teacher": 403, "admin": 403},
                                       anonymous=403)),
    # state maps (a published built-in map): teachers read them, staff write them; the
    # exact matrix per method and map state is tests/maps/test_maps_permissions.py
    "maps:gallery": ("get", None, MAP_READERS),
    "maps:new": ("get", None, {**MAP_READERS, "teacher": 403, "other_teacher": 403}),
    "maps:detail": ("get", None, MAP_READERS),
    "maps:preview": ("get", None, MAP_READERS),
    "api-maps": ("get", None, {**MAP_READERS, "anonymous": 403}),
    "api-map": ("get", None, {**MAP_READERS, "anonymous": 403}),
    # staff only, and by POST: a GET is refused before the method check for anyone else
    "api-maps-check": ("get", None, API_STAFF_POST),
    "api-maps-outline": ("get", None, API_STAFF_POST),
    "api-map-publish": ("get", None, {**API_STAFF_POST, "teacher": 405, "other_teacher": 405}),
    "api-map-unpublish": ("get", None, {**API_STAFF_POST, "teacher": 405,
                                        "other_teacher": 405}),
    "api-schema": ("get", None, {**API_STAFF_POST, "admin": 200}),
    "api-docs": ("get", None, {**API_STAFF_POST, "admin": 200}),
}

EXPECTED_WS = {
    "ws/games/<id:game_id>/": AT_TABLE,
    "ws/me/": SIGNED_IN,
    "ws/assignments/<id:assignment_id>/": TEACHER,
    "ws/echo/": None,  # benchmark-only echo socket (off by default): not a classroom route
    "": None,  # any other path: closed with 4404
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
           "assignment_id": school.assignment.pk, "game_id": school.game.pk,
           "token": "not-a-real-token", "kind": "mapmaker",
           "map_id": GameMap.objects.filter(published=True).order_by("pk").first().pk}
    for keys in ((), ("class_id",), ("class_id", "student_id"), ("assignment_id",), ("game_id",),
                 ("token",), ("kind",), ("map_id",)):
        try:
            return reverse(name, kwargs={k: ids[k] for k in keys})
        except NoReverseMatch:
            continue
    raise AssertionError(f"cannot build a URL for {name}: give _url its ids")


def _mismatch(response, expected, school, url):
    """None if ``response`` is exactly what ``expected`` says, else what differs."""
    status = response.status_code
    location = response.get("Location", "")
    if expected == LOGIN:
        want = f"{reverse('login')}?next={url}"
        return None if status == 302 and location == want else f"{status} {location}, want {want}"
    if isinstance(expected, Redirect):
        flashes = {m.level_tag for m in get_messages(response.wsgi_request)}
        got = f"{status} {location} {sorted(flashes)}"
        if status != 302 or location != expected.path(school):
            return f"{got}, want {expected!r}"
        if expected.flash == "ok" and "error" in flashes:
            return f"{got}: refused (error flash), want {expected!r}"
        if expected.flash != "ok" and expected.flash not in flashes:
            return f"{got}, want {expected!r}"
        return None
    return None if status == expected else f"{status} {location}, want {expected}"


@pytest.mark.django_db
def test_every_url_has_an_entry():
    names = set(_walk(get_resolver().url_patterns))
    assert names - set(EXPECTED) == set(), "new URL(s) need an entry in EXPECTED"
    assert set(EXPECTED) - names == set(), "EXPECTED lists URL(s) that no longer exist"
    from gerrymander_site.routing import websocket_urlpatterns

    routes = {str(p.pattern) for p in websocket_urlpatterns}
    assert routes - set(EXPECTED_WS) == set(), "new socket route(s) need an entry in EXPECTED_WS"


@pytest.mark.django_db
def test_authorisation_matrix_http():
    school = build_school()
    failures = []
    for name, (method, data, expected) in EXPECTED.items():
        assert set(expected) == ALL, f"{name}: give an expectation for every role"
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
            problem = _mismatch(response, expected[role], school, url)
            if problem:
                failures.append(f"{name} {url} as {role}: {problem}")
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
    assert client.get(reverse("games:detail", args=[school.game.pk])).status_code == 404
    assert client.get(reverse("api-game", args=[school.game.pk])).status_code == 404
    # a lobby game is seen by its players, the teachers of their classes, and whoever has
    # its share link; nobody else can read its players' names, by page or by API
    from games import services as game_services

    lobby_game = game_services.game_create(kind="mapmaker", options={"players": 2},
                                           created_by=school.eve, lobby=True,
                                           seats=[game_services.SeatSpec(user=school.eve)])
    page = reverse("games:detail", args=[lobby_game.pk])
    for user, status in ((cara, 404), (school.teach_a, 404), (school.teach_b, 200),
                         (school.eve, 200), (school.admin, 200)):
        client.force_login(user)
        assert client.get(page).status_code == status, user
        assert client.get(reverse("api-game", args=[lobby_game.pk])).status_code == status, user
    client.force_login(cara)
    assert client.get(f"{page}?key={lobby_game.share_key}").status_code == 200
    assert client.get(reverse("api-game", args=[lobby_game.pk])).status_code == 200


@pytest.mark.django_db
def test_the_lobby_lists_only_the_users_own_games():
    """No list walks other people's games: the lobby shows the games the user sits at or
    made, nothing else (a class table waiting for a player included)."""
    from classrooms.models import AssignmentGame
    from games import services as game_services

    school = build_school()
    class_game = game_services.game_create(
        kind="mapmaker", options={"players": 2}, created_by=school.teach_a,
        seats=[game_services.SeatSpec(user=school.ben)])
    AssignmentGame.objects.create(assignment=school.assignment, game=class_game, table=2)
    lobby_game = game_services.game_create(
        kind="mapmaker", options={"players": 2}, created_by=school.eve, lobby=True,
        seats=[game_services.SeatSpec(user=school.eve)])
    solo_b = school.assignment_b.tables.get().game_id  # Eve's table in class B
    expected = {"student": {school.game.pk}, "other_student": {lobby_game.pk, solo_b},
                "teacher": {class_game.pk, school.game.pk}, "other_teacher": {solo_b},
                "admin": set()}
    for role, games in expected.items():
        client = Client()
        client.force_login(_user(school, role))
        response = client.get(reverse("games:lobby"))
        assert response.status_code == 200
        listed = {g.pk for g in response.context["my_games"]}
        assert listed == games, role


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
        "ws/games/<id:game_id>/": f"/ws/games/{school.game.pk}/",
        "ws/me/": "/ws/me/",
        "ws/assignments/<id:assignment_id>/": f"/ws/assignments/{school.assignment.pk}/",
    }
    failures = []
    for pattern in websocket_urlpatterns:
        route = str(pattern.pattern)
        allowed_roles = EXPECTED_WS[route]
        if allowed_roles is None:
            continue
        for role in ROLES:
            headers = [(b"origin", b"http://localhost")]
            if role != "anonymous":
                headers.append((b"cookie", school.cookies[role]))
            comm = WebsocketCommunicator(application, paths[route], headers=headers)
            connected, got = await ws_open(comm)
            if connected:
                assert got["type"] in ("state", "rows", "games")
            else:
                assert got == (4401 if role == "anonymous" else 4404)
            await comm.disconnect()
            if connected != (role in allowed_roles):
                failures.append(f"{route} as {role}: {'connected' if connected else got}")
    # a missing assignment gets the same answer as another teacher's: ids cannot be probed
    comm = WebsocketCommunicator(application, "/ws/assignments/999999/",
                                 headers=[(b"origin", b"http://localhost"),
                                          (b"cookie", school.cookies["teacher"])])
    assert await ws_open(comm) == (False, 4404)
    assert not failures, "\n".join(failures)
