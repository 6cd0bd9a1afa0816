"""Each board's "How to play" teaches the rules a teacher will look for (read from the board
modules the pages load, as a student sees them)."""

import re
from pathlib import Path

import pytest

JS = Path(__file__).resolve().parents[2] / "static" / "games" / "js"


def how_to_play(kind):
    """The lines of ``kind``'s How to play panel."""
    source = (JS / f"{kind}-board.js").read_text()
    block = source[source.index("howToPlay(["):]
    block = block[:block.index("]);")]
    return [re.sub(r'\\(.)', r"\1", s) for s in re.findall(r'"((?:[^"\\]|\\.)*)"', block)]


@pytest.mark.parametrize(("kind", "rules"), [
    ("mapmaker", [
        # the 1-2-3-then-4 borders
        "the first player places 1 border, the second 2, the next 3, and from then on everyone "
        "places 4 each turn",
        "at least 4 counties",
        # who picks a tied district's winner
        "the player who placed the closing border chooses which of the tied parties wins",
        # the tie-breaks, down to the Supreme Court
        "swing counties", "Supreme Court", "fewest votes for their own party",
        "Solo", "undo",
    ]),
    ("berrymandering", [
        "groups of exactly 4", "one player cuts and the other chooses", "candle",
        "Mystery tile", "tie gets no candle", "Solo", "Strategy variant",
    ]),
    ("fptp", [
        "face down", "draw-off", "One vote more than your rival is enough", "Permanent",
        "Gerrymander", "Alternative Vote", "more than half", "leave the game at any time",
        "the City, then a Large Town, then a Small Town",
    ]),
])
def test_how_to_play_teaches_the_rules(kind, rules):
    text = " ".join(how_to_play(kind))
    for rule in rules:
        assert rule in text, (kind, rule)
    # and says how to play by mouse, touch and keyboard
    assert "keyboard" in text.lower() and ("tap" in text.lower() or "touch" in text.lower())
