"""From an outline to a board: a GeoJSON outline (longitude/latitude) becomes map data.

``outline_parse(obj)`` reads a GeoJSON Polygon or MultiPolygon (bare, in a Feature or in a
FeatureCollection) and refuses anything else in words (``OutlineError``).
``outline_draft(geom, kind=..., target=..., name=...)`` projects it (equirectangular, x
scaled by the cosine of the middle latitude, so a state keeps its shape; y grows southwards
as the boards' rows do), lays a grid over it and keeps every cell that is at least half
inside the outline:

* Berrymandering: square cells.  Every island (cells joined side to side) must have a
  multiple of 4 cells that can be cut into groups of 4: islands of 1 to 3 cells are dropped,
  other islands lose or gain the fewest cells that make them cut (the cells least inside the
  outline go, the cells most inside it come), and each change is said in words.  The tile mix
  is the standard one scaled to the cells: about a sixth Random tiles, each team's berry tiles
  in the standard 6:4:3:2 proportions, as many Mystery tiles as Random tiles.
* Mapmaker: hexes (pointy-top, as the board draws them).  The board must be one piece of
  exactly 37, 55 or 73 counties (2, 3 or 4 players with the standard voter tokens): other
  islands are dropped and counties at the edge taken off or added to hit the number.  The
  2-player tier is the 37 counties nearest the board's middle (grown outwards, so every tier
  is connected), then the 3-player tier, then the 4-player tier.

Several cell sizes and grid offsets are tried; the draft keeps the one whose cell count is
nearest the target and whose cells follow the outline best.  The draft passes the engine's
``map_check`` (checked here; anything else is a bug and raises).

This module is platform code (shapely); the engines stay pure.
"""

import heapq
import math

import numpy as np
import shapely
from shapely.geometry import MultiPolygon, Polygon

from games.engine import get_rules
from games.engine.berrymandering_data import MAP_CHECK_STEPS, MAX_CELLS
from games.engine.berrymandering_data import STANDARD_MAP as BERRY_STANDARD
from games.engine.tetromino import Region, TooIntricate

BERRY = "berrymandering"
MAPMAKER = "mapmaker"
RASTER_KINDS = (BERRY, MAPMAKER)

MAX_POINTS = 100_000  # outline vertices
# (below the minimum, the nearest multiple of 4 may miss the target by more than a tenth)
BERRY_TARGET_MIN, BERRY_TARGET_MAX = 20, MAX_CELLS
MAPMAKER_TARGETS = {37: "2 players", 55: "2 or 3 players", 73: "2 to 4 players"}
MAPMAKER_TIERS = ((37, 1), (55, 3), (73, 4))  # (counties so far, min_players)

KEEP_FRACTION = 0.5  # a cell at least this much inside the outline is kept
ADD_FLOOR = 0.05  # a repair adds only cells at least this much inside the outline

KM_PER_DEG_LAT = 110.574
KM_PER_DEG_LON = 111.320

SQ3 = math.sqrt(3.0)
SQUARE_NBRS = ((1, 0), (-1, 0), (0, 1), (0, -1))
HEX_NBRS = ((1, 0), (0, 1), (1, -1), (-1, 0), (0, -1), (-1, 1))


class OutlineError(ValueError):
    """An outline or a draft request the server cannot use; ``field`` names the input."""

    def __init__(self, message, field="outline"):
        super().__init__(message)
        self.message = message
        self.field = field


# ---------------------------------------------------------------------------- GeoJSON

def _is_num(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def _ring(raw, where, counter):
    if not isinstance(raw, list) or len(raw) < 4:
        raise OutlineError(f"{where} needs at least 4 positions (the first repeated last).")
    ring = []
    for pos in raw:
        if (not isinstance(pos, list) or not 2 <= len(pos) <= 3
                or not all(_is_num(v) for v in pos)):
            raise OutlineError(f"{where}: each position is [longitude, latitude] in numbers.")
        lon, lat = float(pos[0]), float(pos[1])
        if not -180 <= lon <= 180 or not -90 <= lat <= 90:
            raise OutlineError(f"{where}: the position [{lon:g}, {lat:g}] is not a longitude "
                               "(-180 to 180) and latitude (-90 to 90).")
        ring.append((lon, lat))
    counter[0] += len(ring)
    if counter[0] > MAX_POINTS:
        raise OutlineError(f"The outline has more than {MAX_POINTS:,} points: simplify it "
                           "first.")
    return ring


def _polygon(raw, where, counter):
    if not isinstance(raw, list) or not raw:
        raise OutlineError(f"{where} must be a list of rings (the outline, then any holes).")
    rings = [_ring(r, f"{where}, ring {i + 1}", counter) for i, r in enumerate(raw)]
    return rings[0], rings[1:]


def _geometry_parts(obj, counter, where="The outline"):
    """The polygons of a GeoJSON object, as (shell, holes) lists in lon/lat."""
    if not isinstance(obj, dict):
        raise OutlineError("The outline must be a GeoJSON object: a Polygon or MultiPolygon "
                           "(or a Feature or FeatureCollection of them).")
    kind = obj.get("type")
    if kind == "Polygon":
        return [_polygon(obj.get("coordinates"), where, counter)]
    if kind == "MultiPolygon":
        coords = obj.get("coordinates")
        if not isinstance(coords, list) or not coords:
            raise OutlineError(f"{where}: a MultiPolygon needs a list of polygons.")
        return [_polygon(p, f"{where}, polygon {i + 1}", counter) for i, p in enumerate(coords)]
    if kind == "Feature":
        return _geometry_parts(obj.get("geometry"), counter, where)
    if kind == "FeatureCollection":
        features = obj.get("features")
        if not isinstance(features, list) or not features:
            raise OutlineError("The FeatureCollection has no features.")
        if len(features) > 500:
            raise OutlineError("The FeatureCollection has more than 500 features.")
        parts = []
        for i, feature in enumerate(features):
            parts += _geometry_parts(feature, counter, f"Feature {i + 1}")
        return parts
    raise OutlineError(f"{where} is a {str(kind)[:40]!s}; it must be a GeoJSON Polygon or "
                       "MultiPolygon (or a Feature or FeatureCollection of them).")


def outline_parse(obj):
    """A shapely (Multi)Polygon in longitude/latitude from GeoJSON, or OutlineError."""
    parts = _geometry_parts(obj, [0])
    lons = [lon for shell, _ in parts for lon, _ in shell]
    if max(lons) - min(lons) > 180:  # crosses the date line (the Aleutians, Fiji): unwrap
        def shift(ring):
            return [(lon + 360 if lon < 0 else lon, lat) for lon, lat in ring]
        parts = [(shift(shell), [shift(h) for h in holes]) for shell, holes in parts]
    polys = []
    for shell, holes in parts:
        try:
            polys.append(Polygon(shell, holes))
        except (ValueError, shapely.errors.ShapelyError):
            raise OutlineError("A ring of the outline is not a closed line.") from None
    geom = shapely.make_valid(MultiPolygon(polys) if len(polys) > 1 else polys[0])
    geom = _polygonal(geom)
    if geom is None or geom.is_empty or geom.area <= 0:
        raise OutlineError("The outline encloses no area.")
    return geom


def _polygonal(geom):
    """The polygon parts of a geometry (make_valid may return a collection)."""
    if isinstance(geom, (Polygon, MultiPolygon)):
        return geom
    polys = [g for g in getattr(geom, "geoms", []) if isinstance(g, (Polygon, MultiPolygon))]
    if not polys:
        return None
    return shapely.union_all(polys)


# ---------------------------------------------------------------------------- projection

class Projection:
    """Equirectangular around the outline's middle: kilometres east and south of it."""

    def __init__(self, geom):
        minx, miny, maxx, maxy = geom.bounds
        self.lon0 = (minx + maxx) / 2
        self.lat0 = (miny + maxy) / 2
        self.kx = KM_PER_DEG_LON * math.cos(math.radians(self.lat0))
        self.ky = KM_PER_DEG_LAT

    def forward(self, geom):
        return shapely.transform(
            geom, lambda c: np.column_stack([(c[:, 0] - self.lon0) * self.kx,
                                             (self.lat0 - c[:, 1]) * self.ky]))

    def inverse_point(self, x, y):
        return self.lon0 + x / self.kx, self.lat0 - y / self.ky


def lonlat_words(lon, lat):
    ns = "N" if lat >= 0 else "S"
    lon = (lon + 180) % 360 - 180
    ew = "E" if lon >= 0 else "W"
    return f"{abs(lat):.1f}°{ns}, {abs(lon):.1f}°{ew}"


# ---------------------------------------------------------------------------- grids

class _Grid:
    """Cells of one size and offset over a projected outline: their centres and how much of
    each lies inside the outline."""

    def __init__(self, geom, shape, size, offset):
        self.shape, self.size, self.offset = shape, size, offset
        minx, miny, maxx, maxy = geom.bounds
        ox, oy = offset[0] * size, offset[1] * size
        if shape == "square":
            xs = range(math.floor((minx - ox) / size) - 1, math.ceil((maxx - ox) / size) + 1)
            ys = range(math.floor((miny - oy) / size) - 1, math.ceil((maxy - oy) / size) + 1)
            keys = [(x, y) for y in ys for x in xs]
            k = np.array(keys, dtype=float)
            x0 = k[:, 0] * size + ox
            y0 = k[:, 1] * size + oy
            polys = shapely.box(x0, y0, x0 + size, y0 + size)
            centres = np.column_stack([x0 + size / 2, y0 + size / 2])
            cell_area = size * size
        else:
            h = 1.5 * size
            w = SQ3 * size
            rs = range(math.floor((miny - oy) / h) - 1, math.ceil((maxy - oy) / h) + 2)
            keys = []
            for r in rs:
                q0 = math.floor((minx - ox) / w - r / 2) - 1
                q1 = math.ceil((maxx - ox) / w - r / 2) + 2
                keys.extend((q, r) for q in range(q0, q1))
            k = np.array(keys, dtype=float)
            cx = w * (k[:, 0] + k[:, 1] / 2) + ox
            cy = h * k[:, 1] + oy
            angles = np.radians(60 * np.arange(6) - 30)
            ring = np.stack([cx[:, None] + size * np.cos(angles),
                             cy[:, None] + size * np.sin(angles)], axis=-1)
            polys = shapely.polygons(ring)
            centres = np.column_stack([cx, cy])
            cell_area = 1.5 * SQ3 * size * size
        hit = shapely.intersects(polys, geom)
        frac = np.zeros(len(keys))
        if hit.any():
            frac[hit] = shapely.area(shapely.intersection(polys[hit], geom)) / cell_area
        self.frac = {key: float(f) for key, f in zip(keys, frac, strict=True) if f > 1e-9}
        self.centre = {key: (float(c[0]), float(c[1]))
                       for key, c, f in zip(keys, centres, frac, strict=True) if f > 1e-9}
        self.polys = {key: p for key, p, f in zip(keys, polys, frac, strict=True) if f > 1e-9}
        self.cell_area = cell_area
        self.nbrs = SQUARE_NBRS if shape == "square" else HEX_NBRS

    def kept(self):
        return {c for c, f in self.frac.items() if f >= KEEP_FRACTION}


def _components(cells, nbrs):
    cells = set(cells)
    out = []
    while cells:
        start = min(cells, key=lambda c: (c[1], c[0]))
        cells.discard(start)
        part, todo = [start], [start]
        while todo:
            x, y = todo.pop()
            for dx, dy in nbrs:
                c = (x + dx, y + dy)
                if c in cells:
                    cells.discard(c)
                    part.append(c)
                    todo.append(c)
        out.append(sorted(part, key=lambda c: (c[1], c[0])))
    return out


def _connected(cells, nbrs):
    return len(_components(cells, nbrs)) <= 1


def _removable(cells, nbrs):
    """Cells of connected ``cells`` whose removal keeps the rest connected: every cell but
    the cut vertices (Tarjan's low-link, iteratively)."""
    cells = set(cells)
    if len(cells) <= 2:
        return sorted(cells)
    root = min(cells)
    disc, low, cut = {root: 0}, {root: 0}, set()
    root_children = 0
    stack = [(root, None, iter(nbrs))]
    counter = 1
    while stack:
        v, parent, it = stack[-1]
        for dx, dy in it:
            u = (v[0] + dx, v[1] + dy)
            if u not in cells or u == parent:
                continue
            if u in disc:
                low[v] = min(low[v], disc[u])
            else:
                disc[u] = low[u] = counter
                counter += 1
                if v == root:
                    root_children += 1
                stack.append((u, v, iter(nbrs)))
                break
        else:
            stack.pop()
            if parent is not None:
                low[parent] = min(low[parent], low[v])
                if parent != root and low[v] >= disc[parent]:
                    cut.add(parent)
    if root_children > 1:
        cut.add(root)
    return sorted(cells - cut)


def _outside_nbrs(cells, grid, taken):
    """Cells next to ``cells`` that the outline touches, not in ``taken``, not next to a
    cell of ``taken`` outside ``cells`` (adding them must not merge islands)."""
    cells = set(cells)
    out = set()
    for x, y in cells:
        for dx, dy in grid.nbrs:
            c = (x + dx, y + dy)
            if c in taken or grid.frac.get(c, 0) < ADD_FLOOR:
                continue
            if any((c[0] + ex, c[1] + ey) in taken and (c[0] + ex, c[1] + ey) not in cells
                   for ex, ey in grid.nbrs):
                continue
            out.add(c)
    return out


# ---------------------------------------------------------------------------- Berrymandering

def _tileable(cells):
    try:
        return Region(list(cells)).tileable(node_limit=MAP_CHECK_STEPS)
    except TooIntricate:
        return False


def _berry_fix_island(island, grid, taken):
    """The cheapest change that makes ``island`` (size not below 4) cut into groups of 4:
    ``(kept cells, removed, added)`` or None.  Cost: how much of the outline the removed
    cells covered, plus how much of the added cells lies outside it."""
    n = len(island)
    need_remove = n % 4
    options = []
    if need_remove == 0:
        if _tileable(island):
            return set(island), [], []
        need_remove = 4  # a multiple of 4 that will not cut: try one group fewer / more
    # remove need_remove cells, greedily from each of several first choices
    for first in sorted(_removable(island, grid.nbrs), key=lambda c: grid.frac[c])[:6]:
        cells = set(island) - {first}
        removed = [first]
        while len(removed) < need_remove:
            cand = _removable(cells, grid.nbrs)
            if not cand:
                break
            c = min(cand, key=lambda c: grid.frac[c])
            cells.discard(c)
            removed.append(c)
        if len(removed) == need_remove and len(cells) >= 4:
            options.append((sum(grid.frac[c] for c in removed), cells, removed, []))
    need_add = (4 - n % 4) % 4 or 4
    for first in sorted(_outside_nbrs(island, grid, taken), key=lambda c: -grid.frac[c])[:6]:
        cells = set(island) | {first}
        added = [first]
        while len(added) < need_add:
            cand = _outside_nbrs(cells, grid, taken | cells)
            if not cand:
                break
            c = max(cand, key=lambda c: grid.frac[c])
            cells.add(c)
            added.append(c)
        if len(added) == need_add:
            options.append((sum(1 - grid.frac[c] for c in added), cells, [], added))
    options.sort(key=lambda o: o[0])
    for _cost, cells, removed, added in options:
        if _tileable(cells):
            return cells, removed, added
    return None


def _berry_repair(grid):
    """``(cells, changes)`` or None when an island cannot be repaired at this grid."""
    taken = grid.kept()
    final, changes = set(), []
    for island in sorted(_components(taken, grid.nbrs), key=len, reverse=True):
        if len(island) < 4:
            changes.append(("dropped", island))
            taken -= set(island)
            continue
        fixed = _berry_fix_island(island, grid, taken)
        if fixed is None:
            if len(island) < 12:
                changes.append(("dropped", island))
                taken -= set(island)
                continue
            return None
        cells, removed, added = fixed
        taken = (taken - set(removed)) | set(added)
        final |= cells
        named = sorted(cells, key=lambda c: (c[1], c[0]))  # by its first cell in the end
        if removed:
            changes.append(("removed", named, removed))
        if added:
            changes.append(("added", named, added))
    if not final:
        return None
    return final, changes


def berry_tile_mix(n_cells):
    """The standard mix scaled to ``n_cells`` (a multiple of 4): Random tiles about a sixth
    (even, so the berry tiles split equally), each team's berry tiles in the standard
    proportions, Mystery tiles as many as the Random tiles, in the standard proportions."""
    std = BERRY_STANDARD
    std_cells = len(std["cells"])
    random_tiles = 2 * round(n_cells * std["tiles"]["random"] / std_cells / 2)
    random_tiles = max(2, min(random_tiles, n_cells - 2))
    per_team = (n_cells - random_tiles) // 2
    berries = _apportion(std["tiles"]["berries"][0], per_team)
    mystery = _apportion(std["mystery"][0], random_tiles // 2)
    return ({"random": random_tiles, "berries": [berries, list(berries)]},
            [mystery, list(mystery)])


def _apportion(weights, total):
    """``total`` split in proportion to ``weights`` (largest remainders)."""
    s = sum(weights)
    exact = [w * total / s for w in weights]
    out = [math.floor(e) for e in exact]
    order = sorted(range(len(weights)), key=lambda i: (-(exact[i] - out[i]), i))
    for i in order[: total - sum(out)]:
        out[i] += 1
    return out


# ---------------------------------------------------------------------------- Mapmaker

def _mapmaker_repair(grid, target):
    taken = grid.kept()
    if not taken:
        return None
    parts = _components(taken, grid.nbrs)
    main = max(parts, key=lambda p: (sum(grid.frac[c] for c in p), len(p)))
    changes = [("dropped", p) for p in parts if p is not main]
    cells = set(main)
    removed, added = [], []
    while len(cells) > target:
        cand = _removable(cells, grid.nbrs)
        c = min(cand, key=lambda c: (grid.frac[c], c[1], c[0]))
        cells.discard(c)
        removed.append(c)
    while len(cells) < target:
        cand = _outside_nbrs(cells, grid, cells)
        if not cand:
            return None
        c = max(cand, key=lambda c: (grid.frac[c], -c[1], -c[0]))
        cells.add(c)
        added.append(c)
    if removed:
        changes.append(("removed", main, removed))
    if added:
        changes.append(("added", main, added))
    return cells, changes


def _mapmaker_tiers(cells, grid):
    """``{cell: min_players}``: grown from the county nearest the board's middle, nearest
    first, so each tier is connected and the 2-player tier is central."""
    mx = sum(grid.centre[c][0] for c in cells) / len(cells)
    my = sum(grid.centre[c][1] for c in cells) / len(cells)

    def dist(c):
        x, y = grid.centre[c]
        return (x - mx) ** 2 + (y - my) ** 2

    seed = min(cells, key=lambda c: (dist(c), c))
    order, seen = [], {seed}
    heap = [(dist(seed), seed)]
    while heap:
        _, c = heapq.heappop(heap)
        order.append(c)
        for dq, dr in grid.nbrs:
            n = (c[0] + dq, c[1] + dr)
            if n in cells and n not in seen:
                seen.add(n)
                heapq.heappush(heap, (dist(n), n))
    tiers = {}
    for i, c in enumerate(order):
        tiers[c] = next(m for upto, m in MAPMAKER_TIERS if i < upto)
    return seed, tiers


# ---------------------------------------------------------------------------- the draft

def _words_cells(cells, fmt):
    names = [fmt(c) for c in cells]
    if len(names) > 6:
        names = names[:5] + [f"{len(names) - 5} more"]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _plural(n, word):
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def check_target(kind, target):
    if kind not in RASTER_KINDS:
        raise OutlineError("Outlines become Berrymandering or Mapmaker boards; First Past the "
                           "Post maps are uploaded as map data.", field="kind")
    if not isinstance(target, int) or isinstance(target, bool):
        raise OutlineError("The target size is a whole number of cells.", field="target")
    if kind == MAPMAKER and target not in MAPMAKER_TARGETS:
        raise OutlineError("A Mapmaker board has 37 counties (2 players), 55 (up to 3 players) "
                           "or 73 (up to 4 players): choose one of these.", field="target")
    if kind == BERRY and not BERRY_TARGET_MIN <= target <= BERRY_TARGET_MAX:
        raise OutlineError(f"A Berrymandering cake has {BERRY_TARGET_MIN} to "
                           f"{BERRY_TARGET_MAX} cells.", field="target")


SCALES = (0.88, 0.92, 0.96, 1.0, 1.04, 1.08, 1.12)
OFFSETS = ((0.0, 0.0), (0.5, 0.5), (0.25, 0.75), (0.75, 0.25))


def outline_draft(geom, *, kind, target, name="Map"):
    """A draft map from a lon/lat outline: ``{"kind", "name", "data", "changes" (words),
    "cells", "target", "fit" (0..1: how well the cells cover the outline), "inside" (per cell
    of the data, the share of it inside the outline), "outline" (the projected outline in the
    board's coordinates, for the preview), "added" and "dropped" (cells)}``.  OutlineError when no
    board can be made."""
    check_target(kind, target)
    proj = Projection(geom)
    flat = proj.forward(geom)
    area = flat.area
    shape = "square" if kind == BERRY else "hex"
    cell_area0 = area / target
    size0 = math.sqrt(cell_area0) if shape == "square" else math.sqrt(cell_area0 / (1.5 * SQ3))
    flat = flat.simplify(size0 / 25, preserve_topology=True)
    shapely.prepare(flat)
    best = None
    for scale in SCALES:
        for offset in OFFSETS:
            grid = _Grid(flat, shape, size0 * scale, offset)
            fixed = _berry_repair(grid) if kind == BERRY else _mapmaker_repair(grid, target)
            if fixed is None:
                continue
            cells, changes = fixed
            inside = sum(grid.frac.get(c, 0) for c in cells) * grid.cell_area
            fit = inside / (area + len(cells) * grid.cell_area - inside)
            off = abs(len(cells) - target) / target
            # nearest the target first (within 2% counts as equal), then the best fit
            key = (round(off / 0.02), -fit)
            if best is None or key < best[0]:
                best = (key, grid, cells, changes, fit)
    if best is None:
        raise OutlineError("This outline is too thin or broken up to make a board of that "
                           "size: try a larger target size.", field="outline")
    _key, grid, cells, changes, fit = best
    if kind == BERRY:
        data, words, offset = _berry_data(name, cells, changes, grid, proj)
    else:
        data, words, offset = _mapmaker_data(name, cells, changes, grid, proj, target)
    problems = get_rules(kind).map_check(data)
    if problems:  # pragma: no cover - the repairs above guarantee a playable map
        raise AssertionError(f"draft failed map_check: {problems}")
    rows = data["cells"] if kind == BERRY else data["counties"]
    return {
        "kind": kind, "name": data["name"], "data": data, "changes": words,
        "cells": len(cells), "target": target, "fit": round(fit, 3),
        # how much of each cell (in the data's order) lies inside the outline, 0 to 1
        "inside": [round(grid.frac.get((row[0] + offset[0], row[1] + offset[1]), 0.0), 4)
                   for row in rows],
        "outline": _outline_in_cells(flat, grid, offset),
        "added": [list(_shift(c, offset, grid)) for ch in changes if ch[0] == "added"
                  for c in ch[2]],
        "dropped": [list(_shift(c, offset, grid)) for ch in changes if ch[0] == "dropped"
                    for c in ch[1]],
    }


def _shift(cell, offset, grid):
    return (cell[0] - offset[0], cell[1] - offset[1])


def _where(cells, grid, proj):
    x = sum(grid.centre[c][0] for c in cells) / len(cells)
    y = sum(grid.centre[c][1] for c in cells) / len(cells)
    return lonlat_words(*proj.inverse_point(x, y))


def _berry_data(name, cells, changes, grid, proj):
    x0 = min(x for x, _ in cells)
    y0 = min(y for _, y in cells)
    offset = (x0, y0)

    def fmt(c):
        return f"({c[0] - x0},{c[1] - y0})"

    words = []
    for change in changes:
        what, island = change[0], change[1]
        if what == "dropped":
            words.append(f"Dropped an island of {_plural(len(island), 'cell')} off the coast "
                         f"at {fmt(island[0])} (near {_where(island, grid, proj)}): too small "
                         "for a group of 4.")
        elif what == "removed":
            words.append(f"Took {_plural(len(change[2]), 'cell')} off the island at "
                         f"{fmt(island[0])} so that it cuts into groups of 4: "
                         f"{_words_cells(change[2], fmt)}.")
        else:
            words.append(f"Added {_plural(len(change[2]), 'cell')} to the island at "
                         f"{fmt(island[0])} so that it cuts into groups of 4: "
                         f"{_words_cells(change[2], fmt)}.")
    tiles, mystery = berry_tile_mix(len(cells))
    ordered = sorted(cells, key=lambda c: (c[1], c[0]))
    data = {"name": name, "cells": [[x - x0, y - y0] for x, y in ordered], "tiles": tiles,
            "mystery": mystery}
    return data, words, offset


def _mapmaker_data(name, cells, changes, grid, proj, target):
    seed, tiers = _mapmaker_tiers(cells, grid)
    q0, r0 = seed
    offset = (q0, r0)

    def fmt(c):
        return f"({c[0] - q0},{c[1] - r0})"

    words = []
    for change in changes:
        what, island = change[0], change[1]
        if what == "dropped":
            words.append(f"Dropped an island of {_plural(len(island), 'county')} off the coast "
                         f"at {fmt(island[0])} (near {_where(island, grid, proj)}): the "
                         "board must be one piece.".replace("countys", "counties"))
        elif what == "removed":
            words.append(f"Took {_plural(len(change[2]), 'county')} off the edge to make "
                         f"{target}: {_words_cells(change[2], fmt)}."
                         .replace("countys", "counties"))
        else:
            words.append(f"Added {_plural(len(change[2]), 'county')} at the edge to make "
                         f"{target}: {_words_cells(change[2], fmt)}."
                         .replace("countys", "counties"))
    rows = sorted(([q - q0, r - r0, tiers[(q, r)]] for q, r in cells),
                  key=lambda row: (row[2], row[1], row[0]))
    return {"name": name, "counties": rows}, words, offset


def _outline_in_cells(flat, grid, offset):
    """The projected outline as rings of points in the board's drawing units (a square cell
    or a hex's circumradius is 1), relative to the board's cell (0, 0)."""
    ox, oy = offset
    s = grid.size
    if grid.shape == "square":
        gx, gy = grid.offset[0] * s + ox * s, grid.offset[1] * s + oy * s

        def to_units(x, y):
            return (x - gx) / s, (y - gy) / s
    else:
        cx = SQ3 * s * (ox + oy / 2) + grid.offset[0] * s
        cy = 1.5 * s * oy + grid.offset[1] * s

        def to_units(x, y):
            return (x - cx) / s, (y - cy) / s
    simple = flat.simplify(s / 8, preserve_topology=True)
    polys = simple.geoms if hasattr(simple, "geoms") else [simple]
    rings = []
    for poly in polys:
        for ring in (poly.exterior, *poly.interiors):
            rings.append([[round(v, 2) for v in to_units(x, y)] for x, y in ring.coords])
    return rings
