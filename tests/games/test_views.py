"""The lobby: create a game, share its link, others take seats; my games lists them."""

import pytest

from games.models import Game

from .helpers import make_user

pytestmark = pytest.mark.django_db


def test_create_share_join_and_list(client):
    ana, ben = make_user("ana"), make_user("ben")
    client.force_login(ana)
    response = client.post("/games/", {"mode": "3", "bots": ""})
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    assert game.status == Game.Status.WAITING and game.options == {"players": 3}
    page = client.get(f"/games/{game.pk}/")
    assert page.status_code == 200 and b"game-initial" in page.content
    assert client.get("/games/").status_code == 200

    client.force_login(ben)
    assert game.get_absolute_url().encode() in client.get("/games/").content  # open games
    assert client.post(f"/games/{game.pk}/join/").status_code == 302
    assert list(game.seats.order_by("index").values_list("user__username", flat=True)) == [
        "ana", "ben", None]
    lobby = client.get("/games/")
    assert lobby.status_code == 200 and f"/games/{game.pk}/".encode() in lobby.content


def test_solo_and_bot_games_start_at_once(client):
    ana = make_user("ana")
    client.force_login(ana)
    client.post("/games/", {"mode": "solo-easy", "party": "0"})
    client.post("/games/", {"mode": "2", "bots": "easy"})
    solo, with_bot = Game.objects.order_by("pk")
    assert solo.options == {"mode": "solo-easy", "party": 0}
    assert solo.status == with_bot.status == Game.Status.ACTIVE
    assert with_bot.seats.get(index=1).bot_level == "easy"


def test_bad_form_is_shown_again_with_errors(client):
    client.force_login(make_user("ana"))
    response = client.post("/games/", {"mode": "7"})
    assert response.status_code == 200 and Game.objects.count() == 0
    assert "not one of the available choices" in response.content.decode()


def test_anonymous_is_sent_to_sign_in(client):
    assert client.get("/games/").status_code == 302


def test_watch_a_bots_only_game(client):
    ana = make_user("ana")
    client.force_login(ana)
    response = client.post("/games/", {"mode": "3", "bots": "random", "watch": "on"})
    game = Game.objects.get()
    assert response.status_code == 302 and game.status == Game.Status.ACTIVE
    assert [s.bot_level for s in game.seats.order_by("index")] == ["random"] * 3
    page = client.get(f"/games/{game.pk}/")  # the creator watches as a spectator
    assert page.status_code == 200
    response = client.post("/games/", {"mode": "2", "bots": "", "watch": "on"})
    assert response.status_code == 200 and "level" in response.content.decode()
