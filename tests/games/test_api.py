"""The HTTP move endpoint goes through the same move service as the socket."""

import pytest
from rest_framework.test import APIClient

from games.models import Move

from .helpers import a_legal_move, make_game, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def setup():
    ana, ben, eve = make_user("ana"), make_user("ben"), make_user("eve")
    game = make_game(ana, ben)
    clients = {}
    for user in (ana, ben, eve):
        client = APIClient()
        client.force_authenticate(user)
        clients[user.username] = client
    return game, clients


def test_move_over_http(setup):
    game, clients = setup
    url = f"/api/games/{game.pk}/moves/"
    move = a_legal_move(game, 0)
    response = clients["ana"].post(url, {"move": move, "version": 0}, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["version"] == 1 and response.json()["seat"] == 0
    # Same version again: the game moved on; the reply carries the fresh board.
    response = clients["ana"].post(url, {"move": move, "version": 0}, format="json")
    assert response.status_code == 409
    assert response.json()["code"] == "stale" and response.json()["game"]["version"] == 1
    assert Move.objects.filter(game=game).count() == 1


@pytest.mark.parametrize(
    "body, status, field",
    [
        ({"move": "border", "version": 0}, 400, "move"),
        ({"move": {"type": "border"}}, 400, "version"),
        ({"move": {"type": "border"}, "version": -1}, 400, "version"),
        ({"move": {"type": "border", "between": [[0, 0], [9, 9]]}, "version": 0}, 400, "message"),
    ],
)
def test_bad_requests_say_what_is_wrong_and_change_nothing(setup, body, status, field):
    game, clients = setup
    response = clients["ana"].post(f"/api/games/{game.pk}/moves/", body, format="json")
    assert response.status_code == status
    assert field in response.json()
    assert Move.objects.filter(game=game).count() == 0


def test_spectators_and_strangers(setup):
    """A stranger cannot read or play a lobby game (the same 404 as a missing one); with the
    game's share link they may watch, not move."""
    game, clients = setup
    move = a_legal_move(game, 0)
    eve = clients["eve"]
    assert eve.get(f"/api/games/{game.pk}/").status_code == 404
    response = eve.post(f"/api/games/{game.pk}/moves/", {"move": move, "version": 0},
                        format="json")
    assert response.status_code == 404
    linked = APIClient()
    linked.force_login(game.seats.model.objects.get(game=game, index=0).user.__class__
                       .objects.get(username="eve"))
    assert linked.get(f"/games/{game.pk}/?key=wrong").status_code == 404
    assert linked.get(f"/games/{game.pk}/?key={game.share_key}").status_code == 200
    response = linked.post(f"/api/games/{game.pk}/moves/", {"move": move, "version": 0},
                           format="json")
    assert response.status_code == 403 and response.json()["code"] == "spectator"
    assert linked.get(f"/api/games/{game.pk}/").json()["seat"] is None
    assert APIClient().get(f"/api/games/{game.pk}/").status_code in (401, 403)
    assert clients["ana"].get(f"/api/games/{game.pk + 999}/").status_code == 404


