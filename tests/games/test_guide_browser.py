"""A guided first game (Chromium): from the lobby's "Learn to play", a solo game with the
guide beside the board, step by step, to the end, well inside three minutes."""

import random
import re
import time

import pytest

from games.models import Game

from .helpers import make_user
from .test_mapmaker_browser import (
    play_one_action,
    signed_in_page,
    version,
    wait_version_above,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_guided_first_game_from_the_lobby_to_the_end(browser, live_server_url):
    ana = make_user("ana", first_name="Ana")
    page = signed_in_page(browser, live_server_url, ana)
    page.goto("/games/")
    page.click("[data-learn='mapmaker']")
    page.wait_for_selector("#guide[data-step='1']")
    # the page draws the board before its socket is open: act only once it is open
    page.wait_for_selector("#connection-status[data-state='open']", state="attached")
    assert "place a border" in page.inner_text("#guide-text")
    game = Game.objects.get(created_by=ana)
    assert game.options["mode"] == "solo-easy"
    started, steps, rng = time.monotonic(), {"1"}, random.Random(5)
    stuck = 0
    while page.locator("body[data-over='true']").count() == 0:
        if not play_one_action(page, rng):
            undo = page.locator("#undo-button:not([disabled])")
            if page.locator("[data-edge][data-legal='true']").count() == 0 and undo.count():
                # stuck: every border left would make a tie.  The border before may be the only
                # one there was, leading straight back here, so each time undo one more
                stuck += 1
                for _ in range(stuck):
                    if undo.count() == 0:
                        break
                    before = version(page)
                    undo.click()
                    wait_version_above(page, before)
            page.wait_for_timeout(50)
        steps.add(page.get_attribute("#guide", "data-step"))
        assert time.monotonic() - started < 180, "a guided game fits in three minutes"
    page.wait_for_selector("#guide h2:has-text('Well done')")
    assert "that is gerrymandering" in page.inner_text("#guide-text")
    assert {"1", "2", "6"} <= steps
    # the solo result: the score, no one-row ranking, nothing reading "null", and the same map
    # and deal to try again
    result = page.inner_text("#result")
    assert "null" not in result and "undefined" not in result
    assert page.locator("#result #ranking").count() == 0
    assert page.locator("#result #result-figures").count() == 1
    page.click("#result #again-button")
    page.wait_for_url(re.compile(rf"/games/(?!{game.pk}/)\d+/$"))
    again = Game.objects.exclude(pk=game.pk).get(created_by=ana)
    assert (again.seed, again.options) == (game.seed, game.options)
    assert again.state["party_at"] == Game.objects.get(pk=game.pk).state["party_at"]
    page.wait_for_selector("#board svg [data-edge]", state="attached")
    assert page.locator("body[data-over='true']").count() == 0
    assert page.errors == []
