"""Server-side SVG previews of map data: squares for Berrymandering, hexes for Mapmaker and
First Past the Post (pointy-top, drawn like the game boards: x = q + r/2, y = r, r southwards).

Only numbers and escaped text go into the markup, and colours are presentation attributes
(the site's Content-Security-Policy forbids inline styles).  ``map_svg(kind, data)`` draws
checked map data; ``draft_svg(draft)`` adds a draft's outline, the cells a repair added
(highlighted) and the islands it dropped (dashed).
"""

import math
from xml.sax.saxutils import escape, quoteattr

SQ3 = math.sqrt(3.0)
UNIT = 20  # pixels per square cell / per hex circumradius

CAKE = "#f6d3a8"
CAKE_EDGE = "#9a6a3a"
ADDED = "#ffd84d"
DROPPED = "#c0392b"
OUTLINE = "#2f6fd6"
TIER_FILL = {1: "#b9a5ee", 2: "#b9a5ee", 3: "#d9cff6", 4: "#efeafb"}
TIER_EDGE = "#5b3fb5"
FPTP_FILL = {"green": "#86c98a", "orange": "#f2a65a", "yellow": "#f3da5b", "grey": "#b8b8b8"}
HEX_DIRS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def _n(v):
    return f"{round(v, 2):g}"


def _hex_centre(q, r):
    return SQ3 * (q + r / 2) * UNIT, 1.5 * r * UNIT


def _hex_points(q, r, shrink=1.0):
    cx, cy = _hex_centre(q, r)
    pts = []
    for i in range(6):
        a = math.radians(60 * i - 30)
        pts.append(f"{_n(cx + UNIT * shrink * math.cos(a))},{_n(cy + UNIT * shrink * math.sin(a))}")
    return " ".join(pts)


def _hex_edge(q, r, d):
    """The segment hex (q, r) shares with its neighbour in direction ``HEX_DIRS[d]``."""
    cx, cy = _hex_centre(q, r)
    nq, nr = q + HEX_DIRS[d][0], r + HEX_DIRS[d][1]
    ox, oy = _hex_centre(nq, nr)
    mx, my = (cx + ox) / 2, (cy + oy) / 2
    dx, dy = (ox - cx) / 2, (oy - cy) / 2
    length = math.hypot(dx, dy)
    px, py = -dy / length * UNIT / 2, dx / length * UNIT / 2
    return (mx + px, my + py, mx - px, my - py)


def _frame(points, body, label, pad=UNIT):
    xs = [p[0] for p in points] or [0]
    ys = [p[1] for p in points] or [0]
    x0, y0 = min(xs) - pad, min(ys) - pad
    w, h = max(xs) - x0 + pad, max(ys) - y0 + pad
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{_n(x0)} {_n(y0)} {_n(w)} '
            f'{_n(h)}" width="{_n(w)}" height="{_n(h)}" role="img" '
            f'aria-label={quoteattr(label)}><title>{escape(label)}</title>{"".join(body)}</svg>')


def _outline_paths(rings, to_px):
    body, points = [], []
    for ring in rings or []:
        pts = [to_px(x, y) for x, y in ring]
        points += pts
        d = "M" + " L".join(f"{_n(x)},{_n(y)}" for x, y in pts) + " Z"
        body.append(f'<path d="{d}" fill="none" stroke="{OUTLINE}" stroke-width="2" '
                    'stroke-linejoin="round" opacity="0.8"/>')
    return body, points


def _berry(data, *, added=(), dropped=(), outline=None, label):
    added = {tuple(c) for c in added}
    body, points = [], []
    for x, y in data["cells"]:
        fill = ADDED if (x, y) in added else CAKE
        body.append(f'<rect x="{x * UNIT}" y="{y * UNIT}" width="{UNIT}" height="{UNIT}" '
                    f'fill="{fill}" stroke="{CAKE_EDGE}" stroke-width="1"/>')
        points += [(x * UNIT, y * UNIT), ((x + 1) * UNIT, (y + 1) * UNIT)]
    for x, y in dropped:
        body.append(f'<rect x="{x * UNIT + 2}" y="{y * UNIT + 2}" width="{UNIT - 4}" '
                    f'height="{UNIT - 4}" fill="none" stroke="{DROPPED}" stroke-width="1.5" '
                    'stroke-dasharray="3 2"/>')
        points += [(x * UNIT, y * UNIT), ((x + 1) * UNIT, (y + 1) * UNIT)]
    paths, more = _outline_paths(outline, lambda x, y: (x * UNIT, y * UNIT))
    return _frame(points + more, body + paths, label)


def _hexes(cells, *, fill_of, added=(), dropped=(), outline=None, label, extra=()):
    added = {tuple(c) for c in added}
    body, points = [], []
    for q, r, key in cells:
        fill = ADDED if (q, r) in added else fill_of(key)
        body.append(f'<polygon points="{_hex_points(q, r)}" fill="{fill}" '
                    f'stroke="{TIER_EDGE}" stroke-width="1"/>')
        cx, cy = _hex_centre(q, r)
        points += [(cx - UNIT, cy - UNIT), (cx + UNIT, cy + UNIT)]
    for q, r in dropped:
        body.append(f'<polygon points="{_hex_points(q, r, 0.85)}" fill="none" '
                    f'stroke="{DROPPED}" stroke-width="1.5" stroke-dasharray="3 2"/>')
        cx, cy = _hex_centre(q, r)
        points += [(cx - UNIT, cy - UNIT), (cx + UNIT, cy + UNIT)]
    paths, more = _outline_paths(outline, lambda x, y: (x * UNIT, y * UNIT))
    return _frame(points + more, body + list(extra) + paths, label)


def _mapmaker(data, **kw):
    cells = [(q, r, m) for q, r, m in data["counties"]]
    return _hexes(cells, fill_of=lambda m: TIER_FILL.get(m, TIER_FILL[4]), **kw)


def _fptp(data, **kw):
    consts = data.get("constituencies", {})
    hexes = data.get("hexes", [])
    cells = [(h["q"], h["r"], h["constituency"]) for h in hexes]
    const_at = {(q, r): c for q, r, c in cells}
    extra = []
    for q, r, c in cells:  # thick lines between constituencies
        for d, (dq, dr) in enumerate(HEX_DIRS[:3]):
            other = const_at.get((q + dq, r + dr))
            if other is not None and other != c:
                x1, y1, x2, y2 = _hex_edge(q, r, d)
                extra.append(f'<line x1="{_n(x1)}" y1="{_n(y1)}" x2="{_n(x2)}" y2="{_n(y2)}" '
                             'stroke="#222" stroke-width="3" stroke-linecap="round"/>')
    for h in hexes:
        if h.get("type") == "city":
            cx, cy = _hex_centre(h["q"], h["r"])
            extra.append(f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="{UNIT * 0.35:g}" '
                         'fill="#fff" stroke="#222" stroke-width="1.5"/>')
    return _hexes(cells, fill_of=lambda c: FPTP_FILL.get(consts.get(c, {}).get("colour"),
                                                         "#ddd"), extra=extra, **kw)


_DRAW = {"berrymandering": _berry, "mapmaker": _mapmaker, "fptp": _fptp}


def map_svg(kind, data, label=None):
    """The preview of checked map ``data`` of game ``kind`` as SVG markup."""
    label = label or str(data.get("name") or "Map")
    return _DRAW[kind](data, label=f"Preview of the map {label}")


def draft_svg(draft):
    """The preview of an outline draft (``games.maps_raster.outline_draft``)."""
    return _DRAW[draft["kind"]](
        draft["data"], added=draft.get("added", ()), dropped=draft.get("dropped", ()),
        outline=draft.get("outline"), label=f"Draft of the map {draft['name']}",
    )
