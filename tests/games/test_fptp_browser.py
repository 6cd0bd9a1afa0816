"""First Past the Post in a real browser (Debian Chromium via Playwright) against a live daphne
server: a whole 3-player game of two students and a bot with news cards (a gerrymander with a
refused hex first, Permanent cards given, Floods, Clean Slate), a 2-player Alternative Vote game
with the offer to end it, a phone's taps, a turn by keyboard, and leaving the game."""

import copy
import random
import time

import pytest

from games import services
from games.engine import get_rules
from games.engine.fptp import sway_bonus
from games.engine.fptp_map import board_for, gerrymander_problem
from games.models import Game
from games.replay import game_replay

from ..conftest import browser_page, wait_until
from .helpers import make_user

pytestmark = [pytest.mark.browser, pytest.mark.embedded, pytest.mark.django_db(transaction=True)]

RULES = get_rules("fptp")

# A small map (20 hexes, 7 constituencies in 3 nations) for whole games in a minute.  Leeds is
# a chain City - rural - rural - Small Town; the London Rural hex at (2, 1) touches two green
# constituencies (York and Hull).
SMALLSHIRE = {
    "name": "Smallshire",
    "hexes": [
        {"q": 0, "r": 0, "constituency": "Leeds", "type": "city"},
        {"q": 1, "r": 0, "constituency": "Leeds", "type": "rural"},
        {"q": 2, "r": 0, "constituency": "Leeds", "type": "rural"},
        {"q": 3, "r": 0, "constituency": "Leeds", "type": "small_town"},
        {"q": 0, "r": 1, "constituency": "York", "type": "city"},
        {"q": 1, "r": 1, "constituency": "York", "type": "rural"},
        {"q": 2, "r": 1, "constituency": "London", "type": "rural"},
        {"q": 1, "r": 2, "constituency": "London", "type": "rural"},
        {"q": 2, "r": 2, "constituency": "London", "type": "city"},
        {"q": 3, "r": 2, "constituency": "London", "type": "small_town"},
        {"q": 2, "r": 3, "constituency": "London", "type": "rural"},
        {"q": 3, "r": 1, "constituency": "Hull", "type": "city"},
        {"q": 4, "r": 1, "constituency": "Hull", "type": "rural"},
        {"q": 4, "r": 0, "constituency": "Hull", "type": "rural"},
        {"q": 4, "r": -1, "constituency": "Perth", "type": "city"},
        {"q": 5, "r": -1, "constituency": "Perth", "type": "rural"},
        {"q": -6, "r": 0, "constituency": "Derry", "type": "city"},
        {"q": -5, "r": 0, "constituency": "Derry", "type": "rural"},
        {"q": -7, "r": 1, "constituency": "Belfast", "type": "rural"},
        {"q": -6, "r": 1, "constituency": "Belfast", "type": "city"},
    ],
    "constituencies": {
        "Leeds": {"nation": "England", "colour": "yellow"},
        "York": {"nation": "England", "colour": "green"},
        "London": {"nation": "England", "colour": "grey"},
        "Hull": {"nation": "England", "colour": "green"},
        "Perth": {"nation": "Scotland", "colour": "orange"},
        "Derry": {"nation": "Northern Ireland", "colour": "yellow"},
        "Belfast": {"nation": "Northern Ireland", "colour": "grey"},
    },
    "gerrymander_hexes": {"green": 2, "orange": 2, "yellow": 2, "grey": 2},
}
# With this seed and Ana first, the news pile opens: Gerrymander Grey (Ana, who holds cards of
# 28 or more), Down the English (Ben), Powermander (the bot), Bad Friday (Ana), Floods (Ben),
# Urbanisation (the bot), Clean Slate (Ana).
NEWS_SEED = "fptp-3p-15"


def fptp_game(*users, options, seed, bots=()):
    seats = [services.SeatSpec(user=u) for u in users]
    seats += [services.SeatSpec(bot_level=level) for level in bots]
    game = services.game_create(kind="fptp", options=options, seats=seats, seed=seed,
                                created_by=users[0])
    if bots:  # made here, where bots are off: the live server picks their turns up on connect
        Game.objects.filter(pk=game.pk).update(created_at=game.created_at.replace(year=2000))
    return game


def open_page(browser, live_server_url, user, game, **context_args):
    page = browser_page(browser, live_server_url, user,
                        **{"viewport": {"width": 1280, "height": 1000}, **context_args})
    page.goto(f"/games/{game.pk}/")
    page.wait_for_selector("#board svg.fptp-board [data-hex]", state="attached")
    page.wait_for_selector("#connection-status[data-state='open']", state="attached")
    return page


def version(page):
    return int(page.locator("body").get_attribute("data-version"))


def wait_version_above(page, v, timeout=15.0):
    wait_until(page, f"Number(document.body.dataset.version) > {v}", timeout)


def wait_version(page, v):
    wait_until(page, f"Number(document.body.dataset.version) >= {v}")


def my_turn(page):
    return page.locator("body[data-my-turn='true'][data-busy='false']").count() > 0


def step(page):
    return page.locator("svg.fptp-board").get_attribute("data-step")


def legal_hexes(page):
    return page.eval_on_selector_all("[data-hex][data-legal='true']",
                                     "ns => ns.map(n => n.dataset.hex)")


def key(hex_):
    return f"{hex_[0]},{hex_[1]}"


def fresh(game):
    game.refresh_from_db()
    return game


class Driver:
    """Plays a student's page: whatever the page asks for, with a seeded choice."""

    def __init__(self, page, seat, rng, cities_first=False, end_answers=(), declines=0):
        self.page = page
        self.seat = seat
        self.rng = rng
        self.cities_first = cities_first  # campaign for the Cities first
        self.end_answers = list(end_answers)  # to the offers to end (then: agree)
        self.declines = declines  # leave the first cards it could pay for
        self.handled = []  # (what, detail) of every decision made on this page

    def act(self):
        """One move if this page's player is to move; True if it moved."""
        page = self.page
        if not my_turn(page):
            return False
        before = version(page)
        st = step(page)
        if page.locator("#news-dialog[open]").count():
            self.news()
        elif st in ("news", "clean_slate"):
            page.locator("#news-open").click()
            page.wait_for_selector("#news-dialog[open]")
            return True
        elif st == "gerrymander":
            colours = page.locator("#gerry-colours:not([hidden]) [data-gerry-colour]")
            if colours.count():  # Powermander: first the colour
                colours.nth(self.rng.randrange(colours.count())).click()
            hexes = legal_hexes(page)
            page.locator(f"[data-hex='{self.rng.choice(hexes)}']").click()
            self.handled.append(("gerrymander", None))
        elif st == "campaign":
            again = page.eval_on_selector_all(".fptp-hex.recampaign", "ns => ns.map(n => n.dataset.hex)")
            if again:
                page.locator(f"[data-hex='{again[0]}']").click()
                self.handled.append(("recampaign", again[0]))
            else:
                cities = page.eval_on_selector_all("[data-hex][data-legal='true'][data-type='city']",
                                                   "ns => ns.map(n => n.dataset.hex)")
                hexes = cities[:1] if self.cities_first and cities else legal_hexes(page)
                page.locator(f"[data-hex='{self.rng.choice(hexes)}']").click()
        elif st == "bid":
            cards = page.locator("#hand-cards [data-card]")
            card = cards.nth(self.rng.randrange(cards.count()))
            card.click()
            page.locator("#bid-submit").click()
        elif st == "end_vote":
            assert page.locator("#end-vote").is_visible()
            agree = self.end_answers.pop(0) if self.end_answers else True
            page.locator("#end-agree" if agree else "#end-refuse").click()
            self.handled.append(("end", agree))
        else:
            return False
        wait_version_above(page, before)
        return True

    def news(self):
        page = self.page
        dialog = page.locator("#news-dialog")
        pays = dialog.locator("[data-pay]")
        for what, selector in (("give", "[data-give-seat]"), ("urbanise", "[data-urbanise]"),
                               ("clean_slate", "[data-clean-seat]")):
            options = dialog.locator(selector)
            if options.count():
                options.nth(self.rng.randrange(options.count())).click()
                self.handled.append((what, None))
                return
        if pays.count() and not self.declines:
            pays.first.click()  # the lowest card that pays
            self.handled.append(("pay", None))
            return
        self.declines = max(0, self.declines - 1)
        dialog.locator("#news-decline").click()
        self.handled.append(("decline", None))


def play_to_end(drivers, game, limit=400, timeout=240):
    moves = 0
    deadline = time.monotonic() + timeout
    while not all(d.page.locator("body[data-over='true']").count() for d in drivers):
        acted = False
        for d in drivers:
            if d.act():
                acted = True
                moves += 1
        if not acted:
            drivers[0].page.wait_for_timeout(40)
        assert moves < limit and time.monotonic() < deadline, "the game did not end"
    return moves


def check_the_end(page, game):
    """The end screen: both counts, constituency by constituency, and the map of either."""
    game = fresh(game)
    result = game.result
    final = game.state["final"]
    variant = game.state["variant"]
    other = "av" if variant == "fptp" else "fptp"
    page.wait_for_selector("#fptp-final")
    assert page.locator(f"#final-{variant}").get_attribute("data-winners") == \
        ",".join(map(str, result["winners"]))
    assert page.locator(f"#final-{other}").get_attribute("data-winners") == \
        ",".join(map(str, result["other_system"]["winners"]))
    rows = page.locator("[data-final-constituency]")
    assert rows.count() == len(final["fptp"]["constituencies"])
    for i, (a, b) in enumerate(zip(final["fptp"]["constituencies"],
                                   final["av"]["constituencies"], strict=True)):
        row = rows.nth(i)
        assert row.get_attribute("data-final-constituency") == a["name"]
        assert row.get_attribute("data-fptp") == ("" if a["winner"] is None else str(a["winner"]))
        assert row.get_attribute("data-av") == ("" if b["winner"] is None else str(b["winner"]))
        assert row.get_attribute("data-differs") == ("true" if a["winner"] != b["winner"]
                                                     else "false")
    # the map shows the game's count, and the other one at a click (the lesson in one picture)
    board = page.locator("svg.fptp-board")
    assert board.get_attribute("data-showing") == variant
    for system in (other, variant):
        page.locator(f"[data-show-system='{system}']").click()
        assert board.get_attribute("data-showing") == system
        marks = page.eval_on_selector_all("[data-const-mark]", "ns => ns.map(n => n.dataset.leader)")
        assert marks == [str(c["winner"]) if c["winner"] is not None else "none"
                         for c in final[system]["constituencies"]]
    # Alternative Vote, round by round, constituency by constituency
    rounds = page.locator("#av-rounds [data-av-constituency]")
    assert rounds.count() == len(final["av"]["constituencies"])
    for i, c in enumerate(final["av"]["constituencies"]):
        assert rounds.nth(i).locator("li[data-round]").count() == len(c["rounds"])
    return game


def test_two_students_and_a_bot_play_a_whole_game_with_news_cards(browser, live_server_url):
    started = time.monotonic()
    ana, ben = make_user("ana", first_name="Ana"), make_user("ben", first_name="Ben")
    game = fptp_game(ana, ben, bots=("random",), seed=NEWS_SEED,
                     options={"players": 3, "first_player": 0, "map": SMALLSHIRE})
    pages = [open_page(browser, live_server_url, user, game) for user in (ana, ben)]
    ana_page, ben_page = pages
    board = board_for(game.state["map"])
    # constituencies in their colours, with bold borders between them and the nations'
    pairs = {(min(i, j), max(i, j)) for i in range(board.size) for j in board.nbrs[i]}
    across_nations = sum(board.nation[i] != board.nation[j] for i, j in pairs)
    across_constituencies = sum(board.nation[i] == board.nation[j] and
                                board.home[i] != board.home[j] for i, j in pairs)
    colours = {"green": "#cfe8c4", "orange": "#f8d3a6", "yellow": "#f5e89a", "grey": "#d9dbe0"}
    for page in pages:
        fills = page.eval_on_selector_all(
            "[data-hex]", "ns => ns.map(n => [n.dataset.colour, n.querySelector('polygon.hex')"
                          ".getAttribute('fill')])")
        assert fills and all(fill == colours[colour] for colour, fill in fills)
        assert page.locator("svg.fptp-board .const-line").count() == across_constituencies > 0
        assert page.locator("svg.fptp-board .nation-line").count() == across_nations > 0
        widths = page.evaluate("""() => ['.const-line', '.nation-line'].map((s) => parseFloat(
            getComputedStyle(document.querySelector('svg.fptp-board ' + s)).strokeWidth))""")
        assert min(widths) >= 2, widths  # bold lines, not the hexes' hairlines
    for page in pages:
        assert page.locator("[data-hex]").count() == 20
        assert page.locator("[data-const-mark]").count() == 7
        # every player's counter shape is in the key, told apart without colour
        assert page.locator("#fptp-legend .legend-counter").count() == 3
        assert page.locator("svg.fptp-board .nation-line").count() > 0
        assert page.locator("[data-hex][data-type='city']").count() == 7

    # Turn 1, Ana: Gerrymander Grey.  Only she gets the dialog; Ben sees the card.
    ana_page.wait_for_selector("#news-dialog[open]")
    assert "Gerrymander Grey" in ana_page.locator("#news-dialog").inner_text()
    assert ben_page.locator("#news-card").get_attribute("data-kind") == "gerrymander_grey"
    assert ben_page.locator("#news-dialog[open]").count() == 0
    pays = [m["card"] for m in RULES.legal_moves(fresh(game).state, 0) if m["type"] == "pay"]
    assert pays and min(pays) >= 28
    assert ana_page.eval_on_selector_all("#news-dialog [data-pay]",
                                         "ns => ns.map(n => Number(n.dataset.pay))") == pays
    before = version(ana_page)
    ana_page.locator(f"[data-pay='{pays[0]}']").click()
    wait_version_above(ana_page, before)
    assert ana_page.locator("#gerry-tools").is_visible()
    state = fresh(game).state
    legal = sorted(key(m["hex"]) for m in RULES.legal_moves(state, 0) if m["type"] == "gerrymander")
    assert sorted(legal_hexes(ana_page)) == legal
    # a Rural hex that breaks a condition: the engine's reason is shown, nothing changes
    wrong = next(i for i in range(board.size) if board.types[i] == "rural"
                 and key(board.coords[i]) not in legal)
    code, message = gerrymander_problem(board, state["const_of"], state["gerrymandered"], wrong,
                                        "grey")
    before = version(ana_page)
    ana_page.locator(f"[data-hex='{key(board.coords[wrong])}']").click()
    wait_until(ana_page, f"document.querySelector('#gerry-message').dataset.code === '{code}'")
    assert ana_page.locator("#gerry-message").inner_text() == message
    assert version(ana_page) == before
    target = legal[0]
    ana_page.locator(f"[data-hex='{target}']").click()
    wait_version_above(ana_page, before)
    for page in pages:
        wait_version(page, before + 1)
        assert page.locator(f"[data-hex='{target}']").get_attribute("data-gerrymandered") == "grey"
    state = fresh(game).state
    moved = board.index[tuple(int(n) for n in target.split(","))]
    assert ana_page.locator(f"[data-hex='{target}']").get_attribute("data-constituency") == \
        board.const_names[state["const_of"][moved]]
    # the campaign: Ana puts the bus on a hex, then everybody chooses a card at once
    hexes = legal_hexes(ana_page)
    before = version(ana_page)
    ana_page.locator(f"[data-hex='{hexes[0]}']").click()
    wait_version_above(ana_page, before)
    for page in pages:
        wait_until(page, "document.querySelector('svg.fptp-board').dataset.step === 'bid'")
        assert page.locator(f"[data-hex='{hexes[0]}']").get_attribute("data-bus") == "true"
        assert page.locator("[data-bus-mark]").count() == 1
    hand = fresh(game).state["hands"][0]
    assert [int(x) for x in ana_page.eval_on_selector_all(
        "#hand-cards [data-card]", "ns => ns.map(n => n.dataset.card)")] == sorted(hand)
    card = sorted(hand)[1]
    ana_page.locator(f"[data-card='{card}']").click()
    assert ana_page.locator(f"[data-card='{card}']").get_attribute("aria-pressed") == "true"
    ana_page.locator("#bid-submit").click()
    ana_page.wait_for_selector("#my-bid:not([hidden])")
    assert str(card) in ana_page.locator("#my-bid").inner_text()
    # Ben sees that Ana has chosen, never what
    wait_until(ben_page, "document.querySelector('[data-committed-seat=\"0\"]')"
                         ".dataset.committed === 'true'")
    assert ben_page.locator("#my-bid").is_hidden()
    ben_card = ben_page.locator("#hand-cards [data-card]").first.get_attribute("data-card")
    before = version(ben_page)
    ben_page.locator(f"[data-card='{ben_card}']").click()
    ben_page.locator(f"[data-card='{ben_card}']").click()  # a second click plays it
    wait_version_above(ben_page, before)
    # the reveal, as the engine made it, on both pages
    ana_page.wait_for_selector("#reveal-winner")
    ben_page.wait_for_selector("#reveal-winner")
    reveal = fresh(game).state["last_reveal"]
    for page in pages:
        for s in range(3):
            row = page.locator(f"[data-reveal-seat='{s}']")
            assert row.get_attribute("data-bid") == str(reveal["bids"][s])
            assert row.get_attribute("data-sway") == str(reveal["sways"][s])
        assert page.locator("#reveal-winner").get_attribute("data-seat") == str(reveal["winner"])
    assert reveal["bids"][0] == card and reveal["bids"][1] == int(ben_card)

    # Turn 2, Ben: a Permanent card to give; then the rest of the game as it comes
    ben_page.wait_for_selector("#news-dialog[open]", timeout=20_000)
    assert ben_page.locator("#news-dialog [data-give-seat]").count() == 3
    drivers = [Driver(ana_page, 0, random.Random(15)),
               Driver(ben_page, 1, random.Random(16), declines=1)]
    moves = play_to_end(drivers, game)
    game = check_the_end(ana_page, game)
    # the lesson marks its packed and cracked constituencies on the map, hex by hex
    lesson = RULES.lesson(game.state)
    ana_page.wait_for_selector("#lesson:not([hidden])")
    wait_until(ana_page, "!document.querySelector('#fptp-legend .legend-lesson').hidden")
    for kind, marked in (("packed", lambda d: d["packed"] is not None),
                         ("cracked", lambda d: bool(d["cracked"]))):
        expected = sorted(f"{q},{r}" for d in lesson["districts"] if marked(d)
                          for q, r in d["cells"])
        shown = sorted(ana_page.eval_on_selector_all(
            f"svg.fptp-board [data-hex].lesson-{kind}", "ns => ns.map(n => n.dataset.hex)"))
        assert shown == expected, kind
    assert any(d["packed"] is not None or d["cracked"] for d in lesson["districts"])
    assert game.status == Game.Status.FINISHED
    handled = [what for d in drivers for what, _ in d.handled]
    # Permanent cards given, Floods used, Clean Slate paid for and aimed, a card left
    assert handled.count("give") >= 2, handled
    assert {"recampaign", "clean_slate", "decline"} <= set(handled), handled
    kinds = {k for k in game.state["news_discard"]}
    assert "floods" in kinds and "gerrymander_grey" in kinds
    # a Permanent card is shown with whoever holds it
    for s, held in enumerate(game.state["perms"]):
        for kind in held:
            assert ben_page.locator(f"[data-party-seat='{s}'] [data-perm='{kind}']").count() >= 1
    assert game_replay(game=game).matches
    # the lesson after the game: both counts side by side, then the random maps
    ana_page.wait_for_selector("#lesson #count-systems")
    text = ana_page.locator("#count-systems").inner_text()
    assert "First Past the Post" in text and "Alternative Vote" in text
    ana_page.wait_for_selector("#ensemble figure[data-party='2'] figcaption", timeout=60_000)
    assert ana_page.locator("#ensemble figure[data-party]").count() == 3
    for page in pages:
        assert page.errors == []
    print(f"\n3-player game with news: {moves} moves by the students, "
          f"{fresh(game).version} in all, {time.monotonic() - started:.1f} s")


def test_a_two_player_alternative_vote_game_with_the_offer_to_end_it(browser, live_server_url):
    started = time.monotonic()
    ana, ben = make_user("ana", first_name="Ana"), make_user("ben", first_name="Ben")
    game = fptp_game(ana, ben, seed="fptp-av-2p-4",
                     options={"players": 2, "variant": "av", "news": False, "first_player": 1,
                              "map": SMALLSHIRE})
    pages = [open_page(browser, live_server_url, user, game) for user in (ana, ben)]
    assert "Alternative Vote" in pages[0].locator("#fptp-standings h2").text_content()
    # Cities first: the small constituencies are soon safe, so the end is offered early
    drivers = [Driver(pages[0], 0, random.Random(0), cities_first=True),
               Driver(pages[1], 1, random.Random(1), cities_first=True, end_answers=[False])]
    moves = play_to_end(drivers, game)
    game = check_the_end(pages[1], game)
    # the first offer: Ben played on, and the game went on; the next one both accepted
    assert [a for what, a in drivers[1].handled if what == "end"] == [False, True]
    assert game.state["end_reason"] == "agreed"
    log = pages[0].locator("#game-log").inner_text()
    assert "Ben wants to play on." in log and "The game goes on." in log
    assert "The game is over (the players agreed to end it)." in log
    assert any(not h["stack"] for h in RULES.view(game.state, None)["hexes"])
    # every campaign stacked both counters: the map shows the stacks
    stacks = pages[0].eval_on_selector_all("[data-hex][data-stack]", "ns => ns.map(n => n.dataset.stack)")
    assert all(s == "" or len(s.split(",")) == 2 for s in stacks) and any(stacks)
    assert pages[0].locator("#av-rounds[open]").count() == 1
    heading = pages[0].locator("#fptp-standings h2").text_content()
    assert heading.startswith("Constituencies (Alternative Vote)")
    assert pages[0].locator("#decided-by").inner_text().endswith("(Alternative Vote)")
    assert game_replay(game=game).matches
    for page in pages:
        assert page.errors == []
    print(f"\n2-player Alternative Vote game: {moves} moves, "
          f"{time.monotonic() - started:.1f} s")


def test_on_a_phone_a_tap_near_a_hex_picks_it_and_two_taps_play_a_card(browser, live_server_url):
    ana, ben = make_user("ana", first_name="Ana"), make_user("ben", first_name="Ben")
    game = fptp_game(ana, ben, seed="fptp-phone",
                     options={"players": 2, "news": False, "first_player": 0})
    page = open_page(browser, live_server_url, ana, game, has_touch=True, is_mobile=True,
                     viewport={"width": 390, "height": 844}, device_scale_factor=2)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    zoom = page.locator("#board-zoom")
    assert zoom.is_visible()
    zoom.tap()
    assert page.locator("#board.zoomed").count() == 1
    zoom.tap()
    # a coastal hex with nothing to its left: tap just off its left edge, on the sea
    coast = page.evaluate("""() => {
        const keys = new Set([...document.querySelectorAll('[data-hex]')].map(n => n.dataset.hex));
        const k = [...keys].find(k => { const [q, r] = k.split(',').map(Number);
            return !keys.has(`${q - 1},${r}`) && !keys.has(`${q - 1},${r + 1}`)
                && !keys.has(`${q},${r - 1}`) && !keys.has(`${q},${r + 1}`); });
        return k; }""")
    hex_ = page.locator(f"[data-hex='{coast}']")
    hex_.scroll_into_view_if_needed()
    box = hex_.bounding_box()
    assert box["width"] >= 36  # a finger's width on a phone
    page.touchscreen.tap(box["x"] - 2, box["y"] + box["height"] / 2)
    # the first tap picks the hex and says what a second tap does
    assert hex_.get_attribute("class").split().count("armed") == 1
    assert "Tap it again" in page.locator("#board-hint").inner_text()
    assert version(page) == 0
    hex_.tap()
    wait_version_above(page, 0)
    q, r = (int(n) for n in coast.split(","))
    assert fresh(game).state["bus"] == board_for(game.state["map"]).index[(q, r)]
    # a card: the first tap picks it, the second plays it
    card = page.locator("#hand-cards [data-card]").nth(2)
    value = int(card.get_attribute("data-card"))
    card.scroll_into_view_if_needed()
    card.tap()
    assert card.get_attribute("aria-pressed") == "true" and version(page) == 1
    box = card.bounding_box()
    assert box["height"] >= 44 and box["width"] >= 44
    card.tap()
    wait_version_above(page, 1)
    assert fresh(game).state["bids"][0] == value
    assert page.errors == []


def two_students_bid(browser, live_server_url, seed):
    """Ana's and Ben's pages at a two-player table without news cards, Ana to campaign."""
    ana, ben = make_user("ana", first_name="Ana"), make_user("ben", first_name="Ben")
    game = fptp_game(ana, ben, seed=seed,
                     options={"players": 2, "news": False, "first_player": 0})
    return game, open_page(browser, live_server_url, ana, game), \
        open_page(browser, live_server_url, ben, game)


def test_a_card_pressed_while_another_player_commits_is_still_picked(browser, live_server_url):
    game, page, ben_page = two_students_bid(browser, live_server_url, "fptp-press")
    before = version(page)
    page.locator(f"[data-hex='{legal_hexes(page)[0]}']").click()
    wait_version_above(page, before)
    for p in (page, ben_page):
        wait_until(p, "document.body.dataset.myTurn === 'true' && document.body.dataset.busy === 'false'")
    card = sorted(fresh(game).state["hands"][0])[0]
    page.locator(f"[data-card='{card}']").hover()
    page.mouse.down()
    # Ben commits his card while Ana's button is held down: her page hears of it ...
    ben_card = ben_page.locator("#hand-cards [data-card]").first
    ben_card.click()
    ben_card.click()
    wait_until(page, "window.gameApp.game.version >= 2")
    page.mouse.up()
    # ... and her click still picks the card
    wait_version(page, 2)
    assert page.locator(f"[data-card='{card}']").get_attribute("aria-pressed") == "true"
    assert page.locator("#bid-submit").is_visible()
    assert page.locator("[data-committed-seat='1']").get_attribute("data-committed") == "true"
    assert page.errors == []


def test_a_turn_by_keyboard(browser, live_server_url):
    game, page, ben_page = two_students_bid(browser, live_server_url, "fptp-keys")
    page.locator("[data-hex][tabindex='0']").focus()
    start = page.evaluate("document.activeElement.dataset.hex")
    for press in ("ArrowDown", "ArrowDown", "ArrowRight"):
        page.keyboard.press(press)
    target = page.evaluate("document.activeElement.dataset.hex")
    assert target != start and page.evaluate("document.activeElement.dataset.legal") == "true"
    # the hint names the hex the keys are on
    assert f"({target})" in page.locator("#board-hint").inner_text()
    page.keyboard.press("Enter")
    wait_version_above(page, 0)
    q, r = (int(n) for n in target.split(","))
    assert fresh(game).state["bus"] == board_for(game.state["map"]).index[(q, r)]
    # number keys pick a card, Escape drops it, Enter plays the one picked
    wait_until(page, "document.body.dataset.myTurn === 'true' && document.body.dataset.busy === 'false'")
    hand = sorted(fresh(game).state["hands"][0])
    page.keyboard.press("3")
    assert page.locator(f"[data-card='{hand[2]}']").get_attribute("aria-pressed") == "true"
    # Ben plays his card meanwhile (a second click plays it): her hand is drawn again, and
    # her place in it stays
    wait_until(ben_page, "document.body.dataset.myTurn === 'true' && document.body.dataset.busy === 'false'")
    ben_card = ben_page.locator("#hand-cards [data-card]").first
    ben_card.click()
    ben_card.click()
    wait_version_above(page, 1)
    assert page.evaluate("document.activeElement.dataset.card") == str(hand[2])
    page.keyboard.press("Escape")
    assert page.locator("[data-card][aria-pressed='true']").count() == 0
    page.keyboard.press("2")
    page.keyboard.press("ArrowRight")  # arrows move between cards
    assert page.locator(f"[data-card='{hand[2]}']").get_attribute("aria-pressed") == "true"
    page.keyboard.press("Enter")
    wait_version_above(page, 2)
    assert fresh(game).state["last_reveal"]["bids"][0] == hand[2]
    assert page.errors == []


def three_students():
    users = [make_user(n, first_name=n.title()) for n in ("ana", "ben", "cy")]
    return users


def test_a_student_leaves_while_it_is_not_their_turn(browser, live_server_url):
    ana, ben, cy = three_students()
    game = fptp_game(ana, ben, cy, seed="fptp-leave",
                     options={"players": 3, "news": False, "first_player": 0})
    ana_page = open_page(browser, live_server_url, ana, game)
    ben_page = open_page(browser, live_server_url, ben, game)
    assert not my_turn(ben_page)  # Ana campaigns first
    ben_page.locator("#leave-game").click()
    ben_page.wait_for_selector("#leave-dialog[open]")
    ben_page.locator("#leave-cancel").click()
    assert ben_page.locator("#leave-dialog[open]").count() == 0 and version(ben_page) == 0
    ben_page.locator("#leave-game").click()
    ben_page.locator("#leave-confirm").click()
    wait_version_above(ben_page, 0)
    state = fresh(game).state
    assert state["left"] == [False, True, False] and state["hands"][1] == []
    for page in (ana_page, ben_page):
        wait_until(page, "document.querySelector('[data-party-seat=\"1\"]').dataset.left === 'true'")
    assert ben_page.locator("#leave-game").is_hidden()
    assert ben_page.locator("#fptp-hand").is_hidden()
    assert "left the game" in ana_page.locator("#game-log").inner_text()
    # the game goes on without Ben: hands are now 2 players + 2
    assert "You draw up to 4" in ana_page.locator("#hand-info").inner_text()
    assert ana_page.errors == [] and ben_page.errors == []


def test_the_shell_sends_the_games_anytime_moves_for_a_seat_not_to_move(browser,
                                                                        live_server_url):
    ana, ben, cy = three_students()
    game = fptp_game(ana, ben, cy, seed="fptp-anytime",
                     options={"players": 3, "news": False, "first_player": 0})
    page = open_page(browser, live_server_url, ben, game)
    wait_until(page, "!!window.gameApp")
    assert page.evaluate("window.gameApp.page.send({type: 'leave'})") is True
    wait_version_above(page, 0)
    assert fresh(game).state["left"][1]


def finish_by_services(game, users, rng):
    """Play random legal moves (never leaving) for every student until the game is over."""
    while True:
        game = fresh(game)
        if game.status == Game.Status.FINISHED:
            return game
        seat = RULES.to_move(game.state)[0]
        moves = [m for m in RULES.legal_moves(game.state, seat) if m["type"] != "leave"]
        services.move_submit(game_id=game.pk, seat_index=seat, move=rng.choice(moves),
                             expected_version=game.version, user=users[seat])


def test_the_end_screen_sentence_names_the_winner(browser, live_server_url):
    ana, ben = make_user("ana", first_name="Ana"), make_user("ben", first_name="Ben")
    game = fptp_game(ana, ben, seed="fptp-outcome",
                     options={"players": 2, "news": False, "map": SMALLSHIRE})
    game = finish_by_services(game, [ana, ben], random.Random(3))
    page = open_page(browser, live_server_url, ana, game)
    page.wait_for_selector("#result-outcome")
    assert "{seat:" not in page.locator("#result-outcome").inner_text()


def test_the_hand_shows_each_cards_sway_and_a_spectator_sees_no_cards(browser, live_server_url):
    ana, ben = make_user("ana", first_name="Ana"), make_user("ben", first_name="Ben")
    sam = make_user("sam", first_name="Sam", is_staff=True)  # staff may watch any game
    options = {"players": 2, "first_player": 0}
    seed = next(f"fptp-sway-{k}" for k in range(500)
                if RULES.setup(options, f"fptp-sway-{k}")["news_card"] in
                ("up_the_english", "divided_kingdom", "central_power", "rural_gaffe"))
    game = fptp_game(ana, ben, seed=seed, options=options)
    game = services.move_submit(game_id=game.pk, seat_index=0, user=ana, expected_version=0,
                                move={"type": "give", "seat": 0})
    state = game.state
    board = board_for(state["map"])
    target = next(i for i in range(board.size) if sway_bonus(state, 0, i) != 0)
    bonus = sway_bonus(state, 0, target)
    game = services.move_submit(game_id=game.pk, seat_index=0, user=ana, expected_version=1,
                                move={"type": "campaign", "hex": list(board.coords[target])})
    page = open_page(browser, live_server_url, ana, game)
    for card in sorted(game.state["hands"][0]):
        shown = page.locator(f"[data-card='{card}'] .card-sway").inner_text()
        assert shown == f"sway {card + bonus}"
    sign = "+" if bonus > 0 else ""
    assert f"give you {sign}{bonus} sway here" in page.locator("#hand-info").inner_text()
    assert page.locator(f"[data-party-seat='0'] [data-perm='{state['perms'][0][0]}']").count() == 1
    # the spectator sees the campaign and who has chosen, but no hand and no way to leave
    watcher = open_page(browser, live_server_url, sam, game)
    assert watcher.locator("body").get_attribute("data-seat") == "spectator"
    assert watcher.locator("#fptp-hand").is_hidden() and watcher.locator("#leave-game").is_hidden()
    assert watcher.locator("[data-committed-seat]").count() == 2
    assert watcher.locator(f"[data-hex='{key(board.coords[target])}']").get_attribute(
        "data-bus") == "true"
    assert page.errors == [] and watcher.errors == []


def rig_news(game, kind, **changes):
    """The game as if its active player had just drawn news card ``kind`` (test rigging: the
    card comes out of the news pile; ``changes`` replace state keys)."""
    state = copy.deepcopy(fresh(game).state)
    pile = list(state["news_pile"])
    taken = [kind] + [k for held in changes.get("perms", []) for k in held]
    for k in taken:
        pile.remove(k)
    if state["news_card"]:
        pile.insert(0, state["news_card"])
    state.update(news_card=kind, news_pile=pile, news_known=0, step="news", **changes)
    Game.objects.filter(pk=game.pk).update(state=state)
    return fresh(game)


def test_giving_a_third_permanent_card_and_urbanisation(browser, live_server_url):
    ana, ben = make_user("ana", first_name="Ana"), make_user("ben", first_name="Ben")
    game = fptp_game(ana, ben, seed="fptp-rigged", options={"players": 2, "first_player": 0})
    # Ana drew City Scandal; Ben already holds two Permanent cards: Ana chooses his discard
    game = rig_news(game, "city_scandal", perms=[[], ["rural_gaffe", "bad_friday"]])
    ana_page = open_page(browser, live_server_url, ana, game)
    ben_page = open_page(browser, live_server_url, ben, game)
    ana_page.wait_for_selector("#news-dialog[open]")
    dialog = ana_page.locator("#news-dialog")
    assert dialog.locator("[data-give-seat='0']:not([data-discard])").count() == 1
    assert sorted(dialog.locator("[data-give-seat='1'][data-discard]").evaluate_all(
        "ns => ns.map(n => n.dataset.discard)")) == ["bad_friday", "rural_gaffe"]
    assert ben_page.locator("#news-dialog[open]").count() == 0
    # "Look at the map first" closes it; the turn card opens it again
    ana_page.locator("#news-later").click()
    assert ana_page.locator("#news-dialog[open]").count() == 0
    ana_page.locator("#news-open").click()
    ana_page.wait_for_selector("#news-dialog[open]")
    dialog.locator("[data-give-seat='1'][data-discard='bad_friday']").click()
    wait_version_above(ana_page, 0)
    state = fresh(game).state
    assert state["perms"][1] == ["rural_gaffe", "city_scandal"]
    assert "bad_friday" in state["news_discard"]
    for page in (ana_page, ben_page):
        wait_version(page, 1)
        held = page.locator("[data-party-seat='1'] [data-perm]").evaluate_all(
            "ns => ns.map(n => n.dataset.perm)")
        assert held == ["rural_gaffe", "city_scandal"]
    # Urbanisation: a Rural hex of Ben's and its City, Ana's, can swap
    board = board_for(state["map"])
    k = board.const_index["Leeds"]
    city = board.city[k]
    rural = next(i for i in range(board.size) if state["const_of"][i] == k
                 and board.types[i] == "rural")
    stacks = [list(s) for s in state["stacks"]]
    stacks[city], stacks[rural] = [0, 1], [1, 0]
    game = rig_news(game, "urbanisation", stacks=stacks)
    ana_page.reload()
    ana_page.wait_for_selector("#news-dialog[open]")
    # the dialog opens from the page's own first board; a choice needs the socket open
    ana_page.wait_for_selector("#connection-status[data-state='open']", state="attached")
    swap = f"{key(board.coords[rural])}|{key(board.coords[city])}"
    assert ana_page.locator("#news-dialog [data-urbanise]").evaluate_all(
        "ns => ns.map(n => n.dataset.urbanise)") == [swap]
    before = version(ana_page)
    ana_page.locator(f"[data-urbanise='{swap}']").click()
    wait_version_above(ana_page, before)
    state = fresh(game).state
    assert state["stacks"][city] == [1, 0] and state["stacks"][rural] == [0, 1]
    assert ana_page.locator(f"[data-hex='{key(board.coords[city])}']").get_attribute(
        "data-owner") == "1"
    assert ana_page.errors == [] and ben_page.errors == []
