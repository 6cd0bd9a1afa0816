"""Berrymandering in a real browser (Debian Chromium via Playwright) against a live daphne
server: whole games played on the cake by dragging and tapping groups and by choosing, and
the cutter told at once why a group is refused."""

import random

import pytest

from games import services
from games.engine import get_rules
from games.engine.tetromino import Region
from games.models import Game, Move
from games.replay import game_replay

from ..conftest import browser_page, wait_until
from .helpers import make_user

pytestmark = [pytest.mark.browser, pytest.mark.embedded, pytest.mark.django_db(transaction=True)]

RULES = get_rules("berrymandering")


def berry_game(*users, options, seed, bots=()):
    seats = [services.SeatSpec(user=u) for u in users]
    seats += [services.SeatSpec(bot_level=level) for level in bots]
    return services.game_create(kind="berrymandering", options=options, seats=seats, seed=seed,
                                created_by=users[0])


def open_page(browser, live_server_url, user, game, **context_args):
    # tall enough that the whole cake is on screen (the pointer works in the viewport)
    page = browser_page(browser, live_server_url, user,
                        **{"viewport": {"width": 1280, "height": 1000}, **context_args})
    page.goto(f"/games/{game.pk}/")
    page.wait_for_selector("#board svg.bm-board [data-cell]", state="attached")
    page.wait_for_selector("#connection-status[data-state='open']", state="attached")
    return page


def version(page):
    return int(page.locator("body").get_attribute("data-version"))


def wait_version_above(page, v):
    wait_until(page, f"Number(document.body.dataset.version) > {v}")


def my_turn(page):
    return page.locator("body[data-my-turn='true'][data-busy='false']").count() > 0


def phase(page):
    return page.locator("svg.bm-board").get_attribute("data-phase")


def uneaten(page):
    return [tuple(int(n) for n in key.split(",")) for key in page.eval_on_selector_all(
        "[data-cell][data-eaten='false']", "nodes => nodes.map(n => n.dataset.cell)")]


def centres(page):
    return page.evaluate("""Object.fromEntries([...document.querySelectorAll('[data-cell]')]
        .map(n => { const r = n.getBoundingClientRect();
                    return [n.dataset.cell, [r.x + r.width / 2, r.y + r.height / 2]]; }))""")


def key(cell):
    return f"{cell[0]},{cell[1]}"


def random_cut(cells, rng):
    region = Region(cells)
    return [region.cells_of(p) for p in region.random_tiling(rng)]


def walk(group):
    """A path over the 4 cells of a tetromino, each step to a side neighbour (revisiting the
    middle of a T): what a finger drags along."""
    cells = set(group)

    def nbrs(c):
        return [n for n in ((c[0] + 1, c[1]), (c[0] - 1, c[1]), (c[0], c[1] + 1), (c[0], c[1] - 1))
                if n in cells]

    start = min(cells, key=lambda c: (len(nbrs(c)), c[1], c[0]))
    path, seen = [start], {start}

    def visit(c):
        for n in nbrs(c):
            if n not in seen:
                seen.add(n)
                path.append(n)
                visit(n)
                if len(seen) < 4:
                    path.append(c)

    visit(start)
    return path


def drag_group(page, group):
    page.evaluate("window.scrollTo(0, 0)")  # a click in the panel may have scrolled the page
    at = centres(page)
    path = walk(group)
    page.mouse.move(*at[key(path[0])])
    page.mouse.down()
    for cell in path[1:]:
        page.mouse.move(*at[key(cell)], steps=3)
    page.mouse.up()


def tap_group(page, group):
    for cell in group:
        page.locator(f"[data-cell='{key(cell)}']").click()


def cut_by_hand(page, rng, tap=False):
    """Cut all the cake left, one group at a time, and send the cut."""
    groups = random_cut(uneaten(page), rng)
    for i, group in enumerate(groups):
        (tap_group if tap else drag_group)(page, group)
        wait_until(page, f"document.querySelectorAll('[data-group-label]').length === {i + 1}")
    assert page.locator("#cut-message").get_attribute("data-code") == "complete"
    before = version(page)
    page.locator("#cut-submit").click()
    wait_version_above(page, before)
    return groups


def test_two_players_play_a_whole_game_by_dragging_groups_and_choosing(browser,
                                                                      live_server_url):
    ana, ben = make_user("ana", first_name="Ana"), make_user("ben", first_name="Ben")
    game = berry_game(ana, ben, seed="bm-browser-2p",
                      options={"players": 2, "team_chooser": 0, "team": 0, "first_cutter": 0})
    pages = [open_page(browser, live_server_url, user, game) for user in (ana, ben)]
    rng = random.Random(4)
    # every seat sees the round, the candles and who does what
    for page in pages:
        assert page.locator("#bm-round").inner_text().startswith("Round 1 of 9")
        assert page.locator("#bm-roles [data-role='cutter']").inner_text().endswith("Ana")
        assert page.locator("#bm-roles [data-role='chooser']").inner_text().endswith("Ben")
        assert page.locator("#mystery-left").inner_text().startswith("6 Mystery tiles")
    moves = 0
    choices_by_board = 0
    while not all(page.locator("body[data-over='true']").count() for page in pages):
        acted = False
        for seat, page in enumerate(pages):
            if not my_turn(page):
                continue
            acted = True
            if phase(page) == "cut":
                cut_by_hand(page, rng)
            else:
                game.refresh_from_db()
                view = RULES.view(game.state, seat)
                buttons = page.locator("[data-choose]")
                assert buttons.count() == len(view["cut"])
                # the chooser sees each group's berries per team before choosing
                for i, berries in enumerate(view["cut_berries"]):
                    text = buttons.nth(i).inner_text()
                    assert f"{berries['strawberries']}" in text and f"{berries['blueberries']}" \
                        in text
                assert page.locator("[data-group-badge]").count() == len(view["cut"])
                i = rng.randrange(len(view["cut"]))
                before = version(page)
                if moves % 4 == 1:  # on the cake: the first tap picks, the second eats
                    cell = key(sorted(view["cut"][i], key=lambda c: (c[1], c[0]))[-1])
                    page.locator(f"[data-cell='{cell}']").click()
                    assert page.locator(f"[data-group-badge='{i}'].selected").count() == 1
                    assert version(page) == before
                    page.locator(f"[data-cell='{cell}']").click()
                    choices_by_board += 1
                else:
                    buttons.nth(i).click()
                wait_version_above(page, before)
                game.refresh_from_db()
                for other in pages:
                    wait_until(other, f"Number(document.body.dataset.version) === {game.version}")
                    for team in (0, 1):
                        shown = other.locator(f"#bm-candles [data-team='{team}']")
                        assert shown.get_attribute("data-candles") == str(
                            game.state["candles"][team])
                # a Random tile's Mystery tile is shown to both players at once
                revealed = len(game.state["revealed"])
                for other in pages:
                    assert other.locator("#mystery-revealed li").count() == revealed
            moves += 1
        if not acted:
            pages[0].wait_for_timeout(50)
        assert moves <= 18, "9 rounds of a cut and a choice"
    assert choices_by_board >= 2
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and moves == 18
    assert Move.objects.filter(game=game).count() == game.version == 18
    assert game_replay(game=game).matches
    winners = ",".join(str(s) for s in game.result["winners"])
    for page in pages:
        page.wait_for_selector("#result")
        summary = page.locator("#result-summary")
        assert summary.get_attribute("data-winners") == winners
        assert summary.get_attribute("data-decided-by") == game.result["decided_by"]
        for team in (0, 1):
            assert page.locator(f"#final-candles [data-team='{team}']").get_attribute(
                "data-candles") == str(game.state["candles"][team])
        # every eaten group is marked with its candle (or none) on the cake
        assert page.locator("[data-eaten-group]").count() == 9
        assert page.locator("[data-cell][data-eaten='false']").count() == 0
    # the lesson after the game: berries against candles, then 1,000 random cuts of the cake
    page = pages[0]
    page.wait_for_selector("#lesson #votes-seats")
    assert "groups" in page.locator("#votes-seats").inner_text()
    page.wait_for_selector("#ensemble figure[data-party='1'] figcaption", timeout=60_000)
    assert page.locator("#ensemble figure[data-party]").count() == 2
    assert page.locator("#ensemble [data-this-game='true']").count() == 2
    packed = sum(1 for d in RULES.lesson(game.state)["districts"] if d["packed"] is not None)
    assert page.locator(".bm-cell.lesson-packed").count() == 4 * packed
    for page in pages:
        assert page.errors == []


def test_a_solo_game_tapping_groups_then_choosing_three_a_round(browser, live_server_url):
    ana = make_user("ana", first_name="Ana")
    game = berry_game(ana, seed="bm-browser-solo", options={"mode": "solo", "team": 1})
    page = open_page(browser, live_server_url, ana, game)
    rng = random.Random(8)
    for round_ in (1, 2, 3):
        assert page.locator("#bm-round").inner_text().startswith(f"Round {round_} of 3")
        cut_by_hand(page, rng, tap=round_ == 2)
        for left in (3, 2, 1):
            assert phase(page) == "choose" and f"{left} group" in page.locator(
                "#bm-round").inner_text()
            game.refresh_from_db()
            view = RULES.view(game.state, 0)
            scores = [b["blueberries"] - b["strawberries"] for b in view["cut_berries"]]
            best = scores.index(max(scores))
            before = version(page)
            if left == 2:  # by keyboard: focus a cell of the group, Enter picks, Enter eats
                cell = page.locator(f"[data-cell='{key(view['cut'][best][0])}']")
                cell.focus()
                page.keyboard.press("Enter")
                page.keyboard.press("Enter")
            else:
                page.locator(f"[data-choose='{best}']").click()
            wait_version_above(page, before)
    page.wait_for_selector("#result")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    result = game.result
    rating = page.locator("#solo-rating")
    assert rating.get_attribute("data-candles") == str(result["score"])
    assert result["rating"] in rating.inner_text()
    assert page.locator("#result-heading").inner_text() == ("You won!" if result["won"]
                                                            else "Not this time")
    assert game_replay(game=game).matches
    assert page.errors == []


def cut_message(page):
    node = page.locator("#cut-message")
    return node.get_attribute("data-code"), node.inner_text()


def test_the_cutter_is_told_at_once_why_a_group_is_refused(browser, live_server_url):
    """Round 2 (one group eaten): taps, keys and drags that make no group say why at once,
    and nothing is sent until the whole cake is cut."""
    ana, ben = make_user("ana", first_name="Ana"), make_user("ben", first_name="Ben")
    game = berry_game(ana, ben, seed="bm-browser-refused",
                      options={"players": 2, "team_chooser": 1, "team": 0, "first_cutter": 0})
    top_left = [[0, 0], [1, 0], [0, 1], [1, 1]]
    rest = [c for c in RULES.setup({"players": 2}, 1)["map"]["cells"] if c not in top_left]
    groups = [top_left] + [[list(c) for c in g] for g in random_cut(rest, random.Random(1))]
    services.move_submit(game_id=game.pk, seat_index=0, user=ana, expected_version=0,
                         move={"type": "cut", "groups": groups})
    services.move_submit(game_id=game.pk, seat_index=1, user=ben, expected_version=1,
                         move={"type": "choose", "cell": [0, 0]})
    page = open_page(browser, live_server_url, ben, game)  # ben cuts round 2
    assert page.locator("#cut-tools").is_visible()
    assert page.locator("[data-cell='0,0']").get_attribute("data-eaten") == "true"

    page.locator("[data-cell='0,0']").click()
    assert cut_message(page) == ("eaten", "That piece (0,0) has been eaten.")
    # four pieces that do not touch
    tap_group(page, [(2, 0), (4, 0), (2, 2), (4, 2)])
    code, text = cut_message(page)
    assert code == "not_connected" and text.startswith("These 4 cells are not connected")
    assert page.locator("[data-group-label]").count() == 0
    assert page.locator("[data-forming]").count() == 0
    # a tap on a piece of the group being made takes it out again
    tap_group(page, [(2, 0), (3, 0)])
    page.locator("[data-cell='3,0']").click()
    assert page.locator("[data-forming]").count() == 1
    page.locator("[data-cell='2,0']").click()
    assert page.locator("[data-forming]").count() == 0
    # by keyboard: focus a piece, arrows move, Enter adds
    page.locator("[data-cell='2,0']").focus()
    for step in ("Enter", "ArrowRight", "Enter", "ArrowRight", "Enter", "ArrowRight", "Enter"):
        page.keyboard.press(step)
    assert page.locator("[data-group-label]").count() == 1
    assert [page.locator(f"[data-cell='{x},0']").get_attribute("data-group")
            for x in range(2, 6)] == ["0", "0", "0", "0"]
    page.keyboard.press("ArrowDown")  # to (5,1): Enter starts a group, Escape drops it
    page.keyboard.press("Enter")
    assert page.locator("[data-forming]").count() == 1
    page.keyboard.press("Escape")
    assert page.locator("[data-forming]").count() == 0
    page.locator("[data-cell='3,0']").click()
    assert cut_message(page)[0] == "in_group"
    # cutting off the two pieces below the eaten corner: they are marked at once
    drag_group(page, [(2, 1), (3, 1), (2, 2), (3, 2)])
    drag_group(page, [(0, 3), (1, 3), (2, 3), (3, 3)])
    code, text = cut_message(page)
    assert code == "stuck" and "(0,2)" in text
    stuck = page.eval_on_selector_all("[data-stuck='true']", "ns => ns.map(n => n.dataset.cell)")
    assert sorted(stuck) == ["0,2", "1,2"]  # not the big island they leave short
    assert page.locator("#cut-submit").is_disabled()
    page.locator("#cut-undo").click()
    assert page.locator("[data-stuck]").count() == 0
    assert page.locator("[data-group-label]").count() == 2
    # the groups made so far survive a reload
    page.reload()
    page.wait_for_selector("#connection-status[data-state='open']", state="attached")
    wait_until(page, "document.querySelectorAll('[data-group-label]').length === 2")
    page.locator("#cut-clear").click()
    assert page.locator("[data-group-label]").count() == 0
    assert cut_message(page)[0] == "cleared"
    # nothing was sent
    game.refresh_from_db()
    assert game.version == 2
    cut_by_hand(page, random.Random(3))
    game.refresh_from_db()
    assert game.version == 3 and game.state["phase"] == "choose"
    assert page.errors == []


def test_the_pages_tiling_check_agrees_with_the_engine(browser, live_server_url):
    """The exact check the page runs on the pieces left (``tileable`` in the board module)
    gives the engine's answer on random shapes, islands and the rulebook's comb."""
    ana = make_user("ana")
    game = berry_game(ana, seed="bm-js", options={"mode": "solo"})
    page = open_page(browser, live_server_url, ana, game)
    rng = random.Random(5)
    shapes = [[(0, 0), (0, 1), (0, 2), (0, 3), (0, 4), (1, 0), (1, 2), (1, 4)]]  # the comb
    while len(shapes) < 150:
        cells = [(x, y) for x in range(6) for y in range(6) if rng.random() < 0.75]
        cells = cells[:len(cells) - len(cells) % 4]
        if cells:
            shapes.append(cells)
    expected = [Region(cells).tileable() for cells in shapes]
    assert True in expected and False in expected
    keys = [[f"{x},{y}" for x, y in cells] for cells in shapes]
    got = page.evaluate("""async (shapes) => {
        const m = await import("/static/games/js/berrymandering-board.js");
        return shapes.map((keys) => m.tileable(keys));
    }""", keys)
    assert got == expected


def test_on_a_touch_screen_groups_are_tapped_and_a_group_is_eaten_with_two_taps(
        browser, live_server_url):
    ana = make_user("ana", first_name="Ana")
    game = berry_game(ana, seed="bm-touch", options={"mode": "solo"})
    page = open_page(browser, live_server_url, ana, game, has_touch=True, is_mobile=True,
                     viewport={"width": 400, "height": 800})
    groups = random_cut(uneaten(page), random.Random(6))
    for i, group in enumerate(groups):
        for cell in group:
            page.locator(f"[data-cell='{key(cell)}']").tap()
        assert page.locator("[data-group-label]").count() == i + 1
    page.locator(f"[data-cell='{key(groups[0][0])}']").tap()
    assert cut_message(page)[0] == "in_group"
    before = version(page)
    page.locator("#cut-submit").tap()
    wait_version_above(page, before)
    cell = page.locator(f"[data-cell='{key(groups[2][0])}']")
    cell.tap()
    assert version(page) == before + 1  # the first tap only picks the group
    cell.tap()
    wait_version_above(page, before + 1)
    game.refresh_from_db()
    assert game.state["history"][0]["cells"] == [list(c) for c in groups[2]]
    assert page.errors == []
