"""The outline rasteriser: for any outline the board's size is near the target, it passes
the engine's map_check, and its cells lie inside the outline; repairs are said in words."""

import math
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shapely.geometry import MultiPolygon, Polygon

from games.engine import get_rules
from games.engine.mapmaker import map_players
from games.maps_raster import (
    ADD_FLOOR,
    HEX_NBRS,
    KEEP_FRACTION,
    SQUARE_NBRS,
    OutlineError,
    Projection,
    _berry_data,
    _berry_repair,
    _components,
    berry_tile_mix,
    outline_draft,
    outline_parse,
)


@st.composite
def outlines(draw):
    """A star-shaped state somewhere on Earth (a few degrees across), sometimes with a
    small island off its coast."""
    lon = draw(st.floats(-175, 175))
    lat = draw(st.floats(-60, 60))
    radius = draw(st.floats(0.5, 6))
    n = draw(st.integers(5, 24))
    wobble = draw(st.lists(st.floats(0.45, 1.0), min_size=n, max_size=n))
    squash = draw(st.floats(0.4, 1.0))
    ring = []
    for i, w in enumerate(wobble):
        a = 2 * math.pi * i / n
        ring.append((lon + radius * w * math.cos(a), lat + radius * w * squash * math.sin(a)))
    parts = [Polygon(ring)]
    if draw(st.booleans()):
        r = radius * draw(st.floats(0.02, 0.15))
        cx, cy = lon + radius * 1.4, lat
        parts.append(Polygon([(cx - r, cy - r), (cx + r, cy - r), (cx + r, cy + r),
                              (cx - r, cy + r)]))
    return MultiPolygon(parts) if len(parts) > 1 else parts[0]


def _check_cells_inside(draft):
    added = {tuple(c) for c in draft["added"]}
    rows = draft["data"]["cells"] if draft["kind"] == "berrymandering" \
        else draft["data"]["counties"]
    for row, inside in zip(rows, draft["inside"], strict=True):
        if (row[0], row[1]) in added:
            assert inside >= ADD_FLOOR, (row, inside)
        else:
            assert inside >= KEEP_FRACTION - 1e-9, (row, inside)
    # the cells a repair added are a small share of the board
    assert len(added) <= max(3, len(rows) // 8)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(geom=outlines(), target=st.integers(20, 160))
def test_berrymandering_drafts_are_near_the_target_playable_and_inside(geom, target):
    draft = outline_draft(geom, kind="berrymandering", target=target, name="Somewhere")
    cells = draft["data"]["cells"]
    assert len(cells) == draft["cells"]
    assert abs(len(cells) - target) <= 0.1 * target
    assert len(cells) % 4 == 0
    assert get_rules("berrymandering").map_check(draft["data"]) == []
    _check_cells_inside(draft)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(geom=outlines(), target=st.sampled_from([37, 55, 73]))
def test_mapmaker_drafts_have_the_exact_tiers_playable_and_inside(geom, target):
    draft = outline_draft(geom, kind="mapmaker", target=target, name="Somewhere")
    rows = draft["data"]["counties"]
    assert len(rows) == target
    assert get_rules("mapmaker").map_check(draft["data"]) == []
    offered, _ = map_players(draft["data"])
    assert offered == {37: [2], 55: [2, 3], 73: [2, 3, 4]}[target]
    assert [0, 0, 1] in rows  # the 2-player tier grows from the middle county
    _check_cells_inside(draft)


def test_the_two_player_tier_is_central():
    box = Polygon([(-10, 40), (0, 40), (0, 46), (-10, 46)])
    draft = outline_draft(box, kind="mapmaker", target=73, name="Box")
    rows = draft["data"]["counties"]

    def spread(tier):
        pts = [(math.sqrt(3) * (q + r / 2), 1.5 * r) for q, r, m in rows if m == tier]
        return sum(math.hypot(x, y) for x, y in pts) / len(pts)

    assert spread(1) < spread(3) < spread(4)


def test_the_standard_mix_scaled():
    assert berry_tile_mix(36) == ({"random": 6, "berries": [[6, 4, 3, 2], [6, 4, 3, 2]]},
                                  [[2, 1, 0, 0], [2, 1, 0, 0]])
    tiles, mystery = berry_tile_mix(48)
    assert tiles == {"random": 8, "berries": [[8, 5, 4, 3], [8, 5, 4, 3]]}
    assert mystery == [[3, 1, 0, 0], [3, 1, 0, 0]]
    for n in range(12, 401, 4):
        tiles, mystery = berry_tile_mix(n)
        assert tiles["random"] + 2 * sum(tiles["berries"][0]) == n
        assert 2 * sum(mystery[0]) >= tiles["random"]  # Mystery >= Random


# --------------------------------------------------------------------------- repairs in words


class _FakeGrid:
    """A grid whose cells' shares inside the outline are given (white-box repair tests)."""

    shape, size, offset, cell_area = "square", 1.0, (0.0, 0.0), 1.0
    nbrs = SQUARE_NBRS

    def __init__(self, frac):
        self.frac = frac
        self.centre = {c: (c[0] + 0.5, c[1] + 0.5) for c in frac}

    def kept(self):
        return {c for c, f in self.frac.items() if f >= KEEP_FRACTION}


def _words(frac):
    grid = _FakeGrid(frac)
    cells, changes = _berry_repair(grid)
    proj = Projection(Polygon([(-1, -1), (1, -1), (1, 1), (-1, 1)]))
    data, words, _ = _berry_data("Test", cells, changes, grid, proj)
    return data, words


def test_a_tiny_island_is_dropped_and_said_so():
    frac = {(x, y): 1.0 for x in range(4) for y in range(2)}
    frac.update({(7, 0): 0.9, (8, 0): 0.8, (7, 1): 0.7})  # 3 cells off the coast
    data, words = _words(frac)
    assert len(data["cells"]) == 8
    assert len(words) == 1
    assert re.fullmatch(r"Dropped an island of 3 cells off the coast at \(7,0\) \(near "
                        r"\d+\.\d°[NS], \d+\.\d°[EW]\): too small for a group of 4\.", words[0])


def test_an_island_gains_the_cells_most_inside_the_outline():
    frac = {(x, 0): 1.0 for x in range(6)}  # 6 cells in a row: 2 short of 8
    frac.update({(0, 1): 0.45, (1, 1): 0.4, (4, 1): 0.1})
    data, words = _words(frac)
    assert words == ["Added 2 cells to the island at (0,0) so that it cuts into groups of 4: "
                     "(0,1) and (1,1)."]
    assert get_rules("berrymandering").map_check(data) == []


def test_an_island_loses_the_cells_least_inside_the_outline():
    frac = {(x, 0): 1.0 for x in range(9)}  # 9 cells in a row: one too many
    frac[(8, 0)] = 0.55
    data, words = _words(frac)
    assert words == ["Took 1 cell off the island at (0,0) so that it cuts into groups of 4: "
                     "(8,0)."]
    assert len(data["cells"]) == 8


def test_islands_are_four_connected():
    parts = _components({(0, 0), (1, 1)}, SQUARE_NBRS)
    assert len(parts) == 2  # corners do not join squares
    assert len(_components({(0, 0), (1, -1)}, HEX_NBRS)) == 1  # hex neighbours do


def test_a_state_across_the_date_line_is_unwrapped():
    geom = outline_parse({"type": "MultiPolygon", "coordinates": [
        [[[178, 51], [180, 51], [180, 53], [178, 53], [178, 51]]],
        [[[-180, 51], [-177, 51], [-177, 53], [-180, 53], [-180, 51]]]]})
    minx, _, maxx, _ = geom.bounds
    assert maxx - minx == pytest.approx(5)
    draft = outline_draft(geom, kind="berrymandering", target=40, name="Aleutia")
    assert len(draft["data"]["cells"]) == 40


def test_too_many_points_are_refused():
    ring = [[math.cos(i / 1000), math.sin(i / 1000)] for i in range(100_001)]
    with pytest.raises(OutlineError, match="more than 100,000 points"):
        outline_parse({"type": "Polygon", "coordinates": [ring]})
