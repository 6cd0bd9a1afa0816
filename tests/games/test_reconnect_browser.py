"""The page survives a server restart: it reconnects by itself, resyncs from the server's
version and play goes on; nothing is lost or played twice."""

import pytest

from games.models import Move

from ..conftest import live_server_start, live_server_stop
from .helpers import make_game, make_user
from .test_mapmaker_browser import signed_in_page, version, wait_version_above

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_server_restart_mid_game_loses_and_doubles_nothing(browser):
    ana = make_user("ana")
    game = make_game(ana, options={"mode": "solo-easy"}, seed="restart")
    url, server = live_server_start(log_name="restart")
    port = int(url.rsplit(":", 1)[1])
    try:
        page = signed_in_page(browser, url, ana)
        page.goto(f"/games/{game.pk}/")
        status = page.locator("#connection-status")
        page.wait_for_selector("#connection-status[data-state='open']", state="attached")
        page.locator("[data-edge][data-legal='true']").first.click()
        wait_version_above(page, 0)

        live_server_stop(server)  # the server goes away mid-game
        page.wait_for_selector("#connection-status[data-state='reconnecting']", state="attached",
                               timeout=15000)
        # A click while offline is refused with a message; nothing is queued or sent.
        page.locator("[data-edge][data-legal='true']").first.click()
        assert page.locator("#game-message").get_attribute("data-code") == "offline"
        _, server = live_server_start(log_name="restart", port=port)
        page.wait_for_selector("#connection-status[data-state='open']", state="attached",
                               timeout=20000)
        assert version(page) == 1 and status.get_attribute("data-state") == "open"
        assert list(Move.objects.filter(game=game).values_list("ply", flat=True)) == [0]

        # Play on normally after the restart.
        page.wait_for_selector("body[data-busy='false']", state="attached")
        page.locator("[data-edge][data-legal='true']").first.click()
        wait_version_above(page, 1)
        assert list(Move.objects.filter(game=game).values_list("ply", flat=True)) == [0, 1]
        assert page.errors == []
    finally:
        live_server_stop(server)
