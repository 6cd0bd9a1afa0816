"""The lobby: create a game, share its link, others take seats; my games lists them."""

import pytest

from games.engine import get_rules
from games.models import Game

from .helpers import make_user

pytestmark = pytest.mark.django_db


def test_create_share_join_and_list(client):
    ana, ben = make_user("ana"), make_user("ben")
    client.force_login(ana)
    response = client.post("/games/", {"game": "mapmaker:3", "bots": ""})
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    assert game.status == Game.Status.WAITING and game.options == {"players": 3}
    page = client.get(f"/games/{game.pk}/")
    assert page.status_code == 200 and b"game-initial" in page.content
    assert client.get("/games/").status_code == 200

    share = page.context["share_url"]
    assert share.endswith(f"/games/{game.pk}/?key={game.share_key}")
    assert game.share_key in page.content.decode()  # the page shows its share link

    client.force_login(ben)
    # without the link the game does not exist for him; the link lets him in
    assert client.get(f"/games/{game.pk}/").status_code == 404
    assert client.post(f"/games/{game.pk}/join/").status_code == 404
    assert game.get_absolute_url().encode() not in client.get("/games/").content
    page = client.get(f"/games/{game.pk}/?key={game.share_key}")
    assert page.status_code == 200 and page.context["can_join"]
    assert client.post(f"/games/{game.pk}/join/").status_code == 302
    assert list(game.seats.order_by("index").values_list("user__username", flat=True)) == [
        "ana", "ben", None]
    lobby = client.get("/games/")
    assert lobby.status_code == 200 and f"/games/{game.pk}/".encode() in lobby.content


def test_solo_and_bot_games_start_at_once(client):
    ana = make_user("ana")
    client.force_login(ana)
    client.post("/games/", {"game": "mapmaker:solo-easy", "opt__mapmaker__party": "0"})
    client.post("/games/", {"game": "mapmaker:2", "bots": "easy"})
    solo, with_bot = Game.objects.order_by("pk")
    assert solo.options == {"mode": "solo-easy", "party": 0}
    assert solo.status == with_bot.status == Game.Status.ACTIVE
    assert with_bot.seats.get(index=1).bot_level == "easy"


def test_bad_form_is_shown_again_with_errors(client):
    client.force_login(make_user("ana"))
    response = client.post("/games/", {"game": "mapmaker:7"})
    assert response.status_code == 200 and Game.objects.count() == 0
    assert "not one of the available choices" in response.content.decode()


def test_anonymous_is_sent_to_sign_in(client):
    assert client.get("/games/").status_code == 302


def test_watch_a_bots_only_game(client):
    ana = make_user("ana")
    client.force_login(ana)
    response = client.post("/games/", {"game": "mapmaker:3", "bots": "random", "watch": "on"})
    game = Game.objects.get()
    assert response.status_code == 302 and game.status == Game.Status.ACTIVE
    assert [s.bot_level for s in game.seats.order_by("index")] == ["random"] * 3
    page = client.get(f"/games/{game.pk}/")  # the creator watches as a spectator
    assert page.status_code == 200
    response = client.post("/games/", {"game": "mapmaker:2", "bots": "", "watch": "on"})
    assert response.status_code == 200 and "level" in response.content.decode()


def test_only_lobby_games_are_listed_and_hidden_games_look_missing(client):
    from games import services
    from games.access import _rules, access_rule_register

    ana, ben = make_user("ana"), make_user("ben")
    class_table = services.game_create(kind="mapmaker", options={"players": 2},
                                       seats=[services.SeatSpec(user=ana)])
    client.force_login(ben)
    assert f"/games/{class_table.pk}/".encode() not in client.get("/games/").content
    rule = access_rule_register(lambda game, user: False if game.pk == class_table.pk else None)
    try:
        assert client.get(f"/games/{class_table.pk}/").status_code == 404
        # a rule's refusal wins over a share link
        assert client.get(f"/games/{class_table.pk}/?key={class_table.share_key}").status_code == 404
        assert client.get("/games/999999/").status_code == 404
        assert client.post(f"/games/{class_table.pk}/join/").status_code == 404
    finally:
        _rules.remove(rule)


def test_api_takes_no_basic_auth_and_admin_login_is_rate_limited(client):
    import base64

    make_user("ana")
    basic = base64.b64encode(b"ana:pw-ana").decode()
    response = client.get("/api/games/1/", HTTP_AUTHORIZATION=f"Basic {basic}")
    assert response.status_code == 403  # passwords are only checked by the login pages
    for _ in range(6):
        response = client.post("/admin/login/", {"username": "ana", "password": "wrong"})
    assert "Too many wrong passwords" in response.content.decode()


def test_admin_cannot_edit_games_behind_the_services_back(admin_client):
    from games import services

    game = services.game_create(kind="mapmaker", options={"players": 2})
    assert admin_client.get(f"/admin/games/game/{game.pk}/change/").status_code == 200
    assert admin_client.get("/admin/games/game/add/").status_code == 403
    admin_client.post(f"/admin/games/game/{game.pk}/change/", {"status": "finished"})
    game.refresh_from_db()
    assert game.status == Game.Status.WAITING
    assert admin_client.get("/admin/games/move/").status_code == 200


def test_try_this_map_again_deals_the_same_solo_game_afresh(client):
    ana, ben = make_user("ana"), make_user("ben")
    client.force_login(ana)
    client.post("/games/", {"game": "mapmaker:solo-easy", "bots": ""})
    game = Game.objects.get()
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert 'id="again-form"' in page and "Try this map again" in page
    # not before the end
    response = client.post(f"/games/{game.pk}/again/", follow=True)
    assert "Finish this game before you try its map again." in response.content.decode()
    assert Game.objects.count() == 1
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    response = client.post(f"/games/{game.pk}/again/")
    again = Game.objects.exclude(pk=game.pk).get()
    assert response.status_code == 302 and response["Location"] == f"/games/{again.pk}/"
    assert (again.kind, again.options, again.seed) == (game.kind, game.options, game.seed)
    assert again.state == get_rules("mapmaker").setup(game.options, game.seed)  # the same deal
    assert [s.user for s in again.seats.all()] == [ana] and again.status == Game.Status.ACTIVE
    # someone else's game, or a game with a table of players, has no "again"
    client.force_login(ben)
    assert client.post(f"/games/{game.pk}/again/").status_code == 404
    client.post("/games/", {"game": "mapmaker:2", "bots": "easy"})
    table = Game.objects.get(created_by=ben)
    assert 'id="again-form"' not in client.get(f"/games/{table.pk}/").content.decode()
    Game.objects.filter(pk=table.pk).update(status=Game.Status.FINISHED)
    assert client.post(f"/games/{table.pk}/again/").status_code == 404
    assert Game.objects.count() == 3
