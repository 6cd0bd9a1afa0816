"""The First Past the Post board's static files: its stylesheet in the production shape (the
collected, hashed board module names the hashed stylesheet, so a browser never pairs a new
board with an old cached stylesheet), and the game data the board shows agrees with the
engine's (news cards, counter colours and shapes, constituency colours)."""

import json
import re
from pathlib import Path

from games.engine.fptp_data import COLOURS, NEWS_DECK, SEAT_COLOURS, SEAT_SHAPES
from games.engine.fptp_lesson import COLORS

from ..test_settings import PRODUCTION, run_manage

ROOT = Path(__file__).resolve().parents[2]
BOARD = (ROOT / "static/games/js/fptp-board.js").read_text()


def test_the_collected_board_loads_its_hashed_stylesheet(tmp_path):
    result = run_manage("collectstatic", "--noinput", "-v", "0",
                        env={**PRODUCTION, "STATIC_ROOT": str(tmp_path)})
    assert result.returncode == 0, result.stdout + result.stderr
    paths = json.loads((tmp_path / "staticfiles.json").read_text())["paths"]
    board = (tmp_path / paths["games/js/fptp-board.js"]).read_text()
    css = paths["games/css/fptp.css"]
    assert re.search(r"\.[0-9a-f]{12}\.css$", css)
    # the module finds its stylesheet from this string (see STYLE_REF in the module)
    refs = re.findall(r"""'import\("([^"]+)"\)'""", board)
    assert refs == ["../css/" + css.rsplit("/", 1)[1]]
    assert (tmp_path / "games/js" / refs[0]).resolve() == (tmp_path / css).resolve()


def js_object(name):
    match = re.search(rf"export const {name} = (\{{.*?\n\}});", BOARD, re.S)
    assert match, f"{name} not found in the board module"
    return match.group(1)


def test_the_news_cards_on_the_page_are_the_engines():
    cards = json.loads(js_object("NEWS_CARDS"))
    assert list(cards) == [c["kind"] for c in NEWS_DECK]
    for card in NEWS_DECK:
        shown = cards[card["kind"]]
        assert (shown["type"], shown["title"], shown["text"]) == \
            (card["type"], card["title"], card["text"])
        if card["type"] == "permanent":
            # what the page adds up as a bonus on the hex under the battle bus
            assert (shown["sway"], shown["where"]) == (card["effect"]["sway"],
                                                       card["effect"]["where"])
        else:
            assert "sway" not in shown


def test_counter_colours_and_shapes_match_the_engine_and_the_lesson():
    styles = dict(re.findall(r"^  (\w+): \{ color: \"(#[0-9a-f]{6})\"", js_object("SEAT_STYLE"),
                             re.M))
    assert list(styles) == list(SEAT_COLOURS)
    # the lesson's charts use the same colours as the counters on the map
    assert [styles[c] for c in SEAT_COLOURS] == [COLORS[str(s)] for s in range(5)]
    shapes = re.search(r"const SHAPES = (\[[^\]]*\]);", BOARD).group(1)
    assert json.loads(shapes) == list(SEAT_SHAPES)
    consts = re.findall(r"^  (\w+): \{ fill:", js_object("CONSTITUENCY_COLOURS"), re.M)
    assert consts == list(COLOURS)
    assert len(set(styles.values())) == 5
