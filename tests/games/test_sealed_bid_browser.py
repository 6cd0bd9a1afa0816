"""The page shell loads another game's board module: the tests' sealed-bid game in Chromium."""

import pytest

from games import services
from games.models import Game, Move

from .helpers import make_user
from .test_mapmaker_browser import signed_in_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_sealed_bid_round_in_the_browser(browser, live_server_url):
    ana = make_user("ana", first_name="Ana")
    game = services.game_create(
        kind="sealedbid", options={"players": 3}, created_by=ana, seed="browser-bid",
        seats=[services.SeatSpec(user=ana), services.SeatSpec(bot_level="easy"),
               services.SeatSpec(bot_level="easy")])
    # made here, where bots are off: the live server picks the bots' turns up on connect
    Game.objects.filter(pk=game.pk).update(created_at=game.created_at.replace(year=2000))
    page = signed_in_page(browser, live_server_url, ana)
    page.goto(f"/games/{game.pk}/")
    page.wait_for_selector("#bid-button:not([disabled])")
    assert page.locator("#turn-status").inner_text().startswith("Your turn")
    page.fill("#bid-amount", "6")
    page.click("#bid-button")
    # both bots bid too: the round is revealed to everyone at once
    page.wait_for_selector("#sealed-reveal:has-text('Round 1')")
    log = page.locator("#game-log").inner_text()
    # Ana reads her own amount unless her bid was the round's last (then the reveal says it);
    # round 1 is the game's first three moves
    mine = Move.objects.get(game=game, seat=0, ply__lt=3)
    assert ("Ana bid." if mine.ply == 2 else "Ana bid 6.") in log
    assert "Bids revealed: Ana 6," in log
    assert page.errors == []
