"""Bad input anywhere gets a clear answer and changes nothing: never a 500, never a socket
closed with 1011 (findings of the security probe)."""

import json

import pytest
from channels.testing import WebsocketCommunicator
from django.test import Client

from classrooms import services as class_services
from games.models import Game, Move

from .classrooms.conftest import build_school, cookie_for
from .conftest import ws_open

DEEP = "[" * 5000 + "]" * 5000
HUGE = "9" * 25


@pytest.fixture
def school(db):
    return build_school()


def test_the_api_refuses_deep_json_and_non_numbers_in_words(school):
    client = Client(raise_request_exception=False)
    client.force_login(school.ana)
    url = f"/api/games/{school.game.pk}/moves/"
    for body in (DEEP, '{"move": {"type": "border"}, "version": NaN}',
                 '{"move": {}, "version": Infinity}', '{"move": ' + DEEP + ', "version": 0}'):
        response = client.post(url, body, content_type="application/json")
        assert response.status_code == 400, body[:40]
        assert "not acceptable JSON" in response.json()["detail"]
    assert not Move.objects.exists()


def test_huge_ids_in_urls_are_missing_pages_not_errors(school):
    client = Client(raise_request_exception=False)
    client.force_login(school.teach_a)
    for url in (f"/games/{HUGE}/", f"/api/games/{HUGE}/", f"/classes/{HUGE}/",
                f"/assignments/{HUGE}/results/", f"/classes/{school.class_a.pk}/students/{HUGE}/results/"):
        assert client.get(url).status_code == 404, url
    response = client.post(f"/assignments/{school.assignment.pk}/seat/",
                           {"table_id": HUGE, "index": "0", "action": "bot"},
                           HTTP_ACCEPT="application/json")
    assert response.status_code == 400 and not json.loads(response.content)["ok"]


def test_a_missing_page_is_a_page_a_student_can_read_on_a_phone(school):
    """Not Django's bare "Not Found": the site's own page, sized for a phone, with a way back."""
    client = Client(raise_request_exception=False)
    client.force_login(school.ana)
    response = client.get(f"/games/{HUGE}/")
    text = response.content.decode()
    assert response.status_code == 404
    assert '<meta name="viewport"' in text and "not yours to see" in text
    assert 'href="/"' in text or "Back to the start page" in text


@pytest.mark.parametrize(("tables", "said"), [
    (DEEP, "nested more than"), ("[[NaN]]", "not a number JSON allows"),
    ("[[1.5]]", "whole-number id"), ("[[true]]", "whole-number id"),
    (f"[[{HUGE}]]", "must be a student of this class"),
])
def test_the_arrange_form_refuses_bad_tables_in_words(school, tables, said):
    assignment = class_services.assignment_create(
        classroom=school.class_a, title="Arranged", kind="mapmaker", mode="2", table_size=2,
        grouping="manual", bot_level="easy")
    client = Client(raise_request_exception=False)
    client.force_login(school.teach_a)
    response = client.post(f"/assignments/{assignment.pk}/arrange/", {"tables": tables})
    assert response.status_code == 400 and said in response.content.decode()
    assert not assignment.tables.exists()


def _socket(path, cookie):
    from gerrymander_site.asgi import application

    return WebsocketCommunicator(application, path, headers=[
        (b"origin", b"http://localhost"), (b"cookie", cookie)])


@pytest.mark.django_db(transaction=True)
async def test_every_socket_route_answers_junk_with_an_error_frame(inmemory_layer):
    from channels.db import database_sync_to_async

    school = await database_sync_to_async(build_school)()
    ana = await database_sync_to_async(cookie_for)(school.ana)
    teacher = await database_sync_to_async(cookie_for)(school.teach_a)
    routes = [(f"/ws/games/{school.game.pk}/", ana), ("/ws/me/", ana),
              (f"/ws/assignments/{school.assignment.pk}/", teacher)]
    for path, cookie in routes:
        comm = _socket(path, cookie)
        assert (await ws_open(comm))[0], path
        while await comm.receive_nothing(timeout=0.2) is False:
            await comm.receive_from()
        for junk in (DEEP, '{"type": "sync", "ref": NaN}', '{"type": "move", "version": '
                     'Infinity, "move": {}}', "\x00\x01", json.dumps({"type": "x" * 10})):
            await comm.send_to(text_data=junk)
            frame = json.loads(await comm.receive_from(timeout=5))
            assert frame["type"] == "error" and frame["code"] == "bad_frame", (path, frame)
        await comm.send_to(text_data=json.dumps({"type": "sync"}))  # still alive
        assert json.loads(await comm.receive_from(timeout=5))["type"] in {"state", "games", "rows"}
        await comm.disconnect()
    game = await database_sync_to_async(Game.objects.get)(pk=school.game.pk)
    assert game.version == 0


@pytest.mark.django_db(transaction=True)
async def test_unrouted_socket_paths_and_huge_ids_are_told_no_such_thing(inmemory_layer):
    from channels.db import database_sync_to_async

    school = await database_sync_to_async(build_school)()
    ana = await database_sync_to_async(cookie_for)(school.ana)
    for path in ("/ws/nothing/", "/ws/", f"/ws/games/{HUGE}/", "/ws/games/-1/", "/socket"):
        assert await ws_open(_socket(path, ana)) == (False, 4404), path
