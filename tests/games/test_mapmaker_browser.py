"""Mapmaker in a real browser (Debian Chromium via Playwright) against a live daphne server."""

import random

import pytest

from games.engine.mapmaker import DIRECTIONS
from games.models import Game, Move
from games.replay import game_replay

from ..conftest import browser_page, wait_until
from .helpers import make_game, make_user

# Also run in the embedded shape (SQLite, in-memory layer, in-process bots) by `make test`.
pytestmark = [pytest.mark.browser, pytest.mark.embedded, pytest.mark.django_db(transaction=True)]


def signed_in_page(browser, live_server_url, user):
    return browser_page(browser, live_server_url, user)


def version(page):
    return int(page.locator("body").get_attribute("data-version"))


def wait_version_above(page, v):
    wait_until(page, f"Number(document.body.dataset.version) > {v}")


def play_one_action(page, rng):
    """If it is this page's player's turn: settle a tie or click a legal edge. True if acted."""
    dialog = page.locator("#tie-dialog[open]")
    if dialog.count():
        before = version(page)
        dialog.locator("button[data-party]").first.click()
        wait_version_above(page, before)
        return True
    if page.locator("body[data-my-turn='true'][data-busy='false']").count() == 0:
        return False
    edges = page.locator("[data-edge][data-legal='true']")
    count = edges.count()
    if count == 0:
        return False
    before = version(page)
    edges.nth(rng.randrange(count)).click()
    wait_version_above(page, before)
    return True


def test_two_players_play_a_whole_game_by_clicking_edges(browser, live_server_url):
    ana, ben = make_user("ana"), make_user("ben")
    game = make_game(ana, ben, options={"players": 2, "first_seat": 0}, seed="browser-2p")
    pages = [signed_in_page(browser, live_server_url, user) for user in (ana, ben)]
    for page in pages:
        page.goto(f"/games/{game.pk}/")
        page.wait_for_selector("#board svg [data-edge]", state="attached")
        page.wait_for_selector("#connection-status[data-state='open']", state="attached")
    rng = random.Random(3)
    clicks = 0
    while not all(page.locator("body[data-over='true']").count() for page in pages):
        acted = False
        for page in pages:
            if play_one_action(page, rng):
                clicks += 1
                acted = True
        if not acted:
            pages[0].wait_for_timeout(100)
        assert clicks < 400, "the game should end long before this"
    for page in pages:
        page.wait_for_selector("#result")
    summaries = [page.locator("#result-summary") for page in pages]
    texts = [s.inner_text() for s in summaries]
    assert texts[0] == texts[1] and "Winner" in texts[0]
    assert summaries[0].get_attribute("data-winners") == summaries[1].get_attribute("data-winners")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert Move.objects.filter(game=game).count() == game.version == clicks
    winners = ",".join(str(s) for s in game.result["winners"])
    assert summaries[0].get_attribute("data-winners") == winners
    assert summaries[0].get_attribute("data-decided-by") == game.result["decided_by"]
    assert game_replay(game=game).matches
    assert pages[0].errors == [] and pages[1].errors == []


def illegal_free_borders(view):
    """Borders between touching counties, not placed, not inside a district, and refused."""
    counties = {(c["q"], c["r"]): c for c in view["counties"]}
    placed = {frozenset(map(tuple, b)) for b in view["borders"]}
    legal = {frozenset(map(tuple, m["between"])) for m in view["legal_moves"]}
    out = []
    for (q, r), county in counties.items():
        for dq, dr in DIRECTIONS:
            other = counties.get((q + dq, r + dr))
            edge = frozenset([(q, r), (q + dq, r + dr)])
            if other is None or (q, r) > (q + dq, r + dr) or edge in placed or edge in legal:
                continue
            if county["district"] is None or county["district"] != other["district"]:
                out.append(edge)
    return out


def test_illegal_click_shows_the_engine_message(browser, live_server_url):
    """The player to move clicks a border the engine refuses: the page sends it anyway and
    shows the engine's own message for that border."""
    from games import services
    from games.engine import IllegalMove, get_rules

    ana, ben = make_user("ana"), make_user("ben")
    game = make_game(ana, ben, options={"players": 2, "first_seat": 0}, seed="browser-illegal")
    rules, rng, users = get_rules("mapmaker"), random.Random(3), {0: ana, 1: ben}
    for _ in range(200):  # play on until ana is to move and some free border is illegal
        game.refresh_from_db()
        if rules.to_move(game.state) == [0] and illegal_free_borders(rules.view(game.state, 0)):
            break
        seat = rules.to_move(game.state)[0]
        services.move_submit(game_id=game.pk, seat_index=seat, expected_version=game.version,
                             move=rng.choice(rules.legal_moves(game.state, seat)), user=users[seat])
    else:
        pytest.fail("no position with an illegal free border in 200 plies")
    page = signed_in_page(browser, live_server_url, ana)
    page.goto(f"/games/{game.pk}/")
    page.wait_for_selector("#connection-status[data-state='open']", state="attached")
    edge = page.locator("[data-edge][data-legal='false']").first
    between = [[int(n) for n in end.split(",")] for end in edge.get_attribute("data-edge").split("|")]
    with pytest.raises(IllegalMove) as refused:
        rules.apply(game.state, 0, {"type": "border", "between": between})
    edge.click()
    alert = page.locator("#game-message")
    alert.wait_for(state="visible")
    assert alert.inner_text() == refused.value.message
    assert Move.objects.filter(game=game).count() == game.version


def test_solo_game_with_undo(browser, live_server_url):
    ana = make_user("ana")
    game = make_game(ana, options={"mode": "solo-competitive"}, seed="browser-solo")
    page = signed_in_page(browser, live_server_url, ana)
    page.goto(f"/games/{game.pk}/")
    page.wait_for_selector("#connection-status[data-state='open']", state="attached")
    rng = random.Random(5)
    for _ in range(3):
        assert play_one_action(page, rng)
    assert version(page) == 3
    borders_before = page.locator("[data-border]").count()
    assert borders_before == 3
    score_before = page.locator("#solo-score").inner_text()
    page.locator("#undo-button").click()
    wait_version_above(page, 3)
    assert page.locator("[data-border]").count() == 2
    # Competitive score: 10 per district minus 1 per border; the undone border is given back.
    assert int(page.locator("#solo-score").inner_text()) == int(score_before) + 1
    game.refresh_from_db()
    assert game.version == 4 and len(game.state["borders"]) == 2
    assert list(Move.objects.filter(game=game).values_list("move__type", flat=True)) == [
        "border", "border", "border", "undo"]
    assert page.errors == []


def test_the_last_turn_stays_marked_and_every_move_is_in_the_log(browser, live_server_url):
    """A bot places its borders in a flash: the other player still sees them marked as the
    last turn, and reads each of them in the game log."""
    ana = make_user("ana", first_name="Ana")
    game = make_game(ana, bots=("random",), options={"players": 2, "first_seat": 1},
                     seed="browser-marks")
    # made here, where bots are off: the live server picks the bot's turn up on connect
    Game.objects.filter(pk=game.pk).update(created_at=game.created_at.replace(year=2000))
    page = signed_in_page(browser, live_server_url, ana)
    page.goto(f"/games/{game.pk}/")
    # the bot opens with 1 border, then it is Ana's turn (2 borders)
    page.wait_for_selector("body[data-my-turn='true']", state="attached")
    marked = page.locator("[data-border][data-turn-mark='last-turn']")
    assert marked.count() == 1
    assert page.locator("#game-log li").count() == 1
    assert page.locator("#game-log li").first.inner_text() == "Bot (Random) placed a border."
    assert play_one_action(page, random.Random(1))
    assert page.locator("[data-border][data-turn-mark='this-turn']").count() == 1
    assert page.locator("[data-border][data-turn-mark='last-turn']").count() == 1
    wait_until(page, "document.querySelectorAll('#game-log li').length === 2")
    assert page.locator("#game-log li").nth(1).inner_text() == "Ana placed a border."
    assert page.errors == []
