"""First Past the Post maps: checking map data, its fixed geometry, and the gerrymander rules.

``check_map(data)`` lists what is wrong with map data in words a teacher understands (the
shape is in ``fptp_data``).  ``board_for(data)`` gives the geometry the rules need, cached:
hex index by coordinates, neighbours, hex types and nations, constituency names, colours,
nations and Cities.  ``gerrymander_problem`` applies the seven placement conditions of the
rulings (in their order) to one placement.
"""

from games.engine.fptp_data import COLOURS, HEX_TYPE_NAMES, HEX_TYPES, MAP_LIMITS, NEWS_DECK
from games.engine.hexgrid import connected as hex_connected

# axial neighbour directions (pointy-top hexes, r grows southwards)
DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def _is_int(x):
    return isinstance(x, int) and not isinstance(x, bool)


def _hex_words(q, r):
    return f"the hex at ({q}, {r})"


def _names(names):
    names = list(names)
    if len(names) <= 2:
        return " and ".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _region_problem(where, nations, outside, constituencies, title):
    """What the map lacks for a news card's region (None: the region exists)."""
    if "nation" in where:
        if where["nation"] not in nations:
            return (f"The news card {title} needs hexes in {where['nation']}, but no "
                    f"constituency is in {where['nation']}.")
    elif "not_nation" in where:
        if not outside.get(where["not_nation"]):
            return (f"The news card {title} needs some hexes outside {where['not_nation']}, "
                    "but every hex is in it.")
    elif "constituency" in where:
        if where["constituency"] not in constituencies:
            return (f"The news card {title} needs a constituency called "
                    f"{where['constituency']}.")
    return None


def check_map(data, deck=NEWS_DECK):
    """Everything wrong with map ``data`` (a list of sentences; empty: the map is playable)."""
    lim = MAP_LIMITS
    if not isinstance(data, dict):
        return ["A map must be an object with \"name\", \"hexes\", \"constituencies\" and "
                "\"gerrymander_hexes\"."]
    problems = []
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        problems.append("The map needs a name.")
    elif len(name) > lim["max_name"] * 2:
        problems.append(f"The map's name is too long (at most {lim['max_name'] * 2} letters).")

    consts = data.get("constituencies")
    if not isinstance(consts, dict) or not consts:
        problems.append("The map needs \"constituencies\": each constituency's name with its "
                        "nation and colour.")
        consts = {}
    good_consts = {}
    for cname, info in consts.items():
        if not isinstance(cname, str) or not cname.strip() or len(cname) > lim["max_name"]:
            problems.append(f"A constituency needs a name of 1 to {lim['max_name']} letters.")
            continue
        if not isinstance(info, dict):
            problems.append(f"{cname} needs a nation and a colour.")
            continue
        nation, colour = info.get("nation"), info.get("colour")
        if not isinstance(nation, str) or not nation.strip() or len(nation) > lim["max_name"]:
            problems.append(f"{cname} needs the name of its nation.")
            continue
        if colour not in COLOURS:
            problems.append(f"{cname} has the colour {colour!r}; a constituency is "
                            f"{_names(COLOURS[:-1])} or {COLOURS[-1]}.")
            continue
        good_consts[cname] = (nation, colour)
    if consts and not (lim["min_constituencies"] <= len(consts) <= lim["max_constituencies"]):
        problems.append(f"The map has {len(consts)} constituencies; it needs "
                        f"{lim['min_constituencies']} to {lim['max_constituencies']}.")

    hexes = data.get("hexes")
    if not isinstance(hexes, list) or not hexes:
        problems.append("The map needs \"hexes\": a list of hexes, each with q, r, "
                        "constituency and type.")
        hexes = []
    elif not lim["min_hexes"] <= len(hexes) <= lim["max_hexes"]:
        problems.append(f"The map has {len(hexes)} hexes; it needs {lim['min_hexes']} to "
                        f"{lim['max_hexes']}.")
        hexes = hexes[: lim["max_hexes"] * 2]
    cells = {}
    for h in hexes:
        if not isinstance(h, dict):
            problems.append("Each hex must be an object with q, r, constituency and type.")
            continue
        q, r = h.get("q"), h.get("r")
        if not _is_int(q) or not _is_int(r):
            problems.append("Each hex needs whole-number coordinates q and r.")
            continue
        if abs(q) > lim["max_coordinate"] or abs(r) > lim["max_coordinate"]:
            problems.append(f"{_hex_words(q, r).capitalize()} is too far from the centre "
                            f"(coordinates go from -{lim['max_coordinate']} to "
                            f"{lim['max_coordinate']}).")
            continue
        if (q, r) in cells:
            problems.append(f"{_hex_words(q, r).capitalize()} is listed twice.")
            continue
        t = h.get("type")
        if t not in HEX_TYPES:
            types = ", ".join(HEX_TYPES[:-1]) + " or " + HEX_TYPES[-1]
            problems.append(f"{_hex_words(q, r).capitalize()} has the type {t!r}; a hex is "
                            f"{types}.")
            continue
        c = h.get("constituency")
        if not isinstance(c, str) or c not in consts:
            problems.append(f"{_hex_words(q, r).capitalize()} belongs to {c!r}, which is not "
                            "one of the map's constituencies.")
            continue
        cells[(q, r)] = (c, t)

    members = {c: [] for c in consts if isinstance(c, str)}
    for coord, (c, _t) in cells.items():
        members[c].append(coord)
    for c, coords in members.items():
        if not coords:
            problems.append(f"{c} has no hexes.")
            continue
        if not hex_connected(coords):
            problems.append(f"{c} is in separate pieces: every constituency must be one "
                            "connected group of hexes.")
        cities = sum(1 for x in coords if cells[x][1] == "city")
        if cities != 1:
            problems.append(f"{c} has {cities} City hexes; every constituency needs exactly "
                            "one.")
    touching = set()
    for (q, r), (c, _t) in cells.items():
        for dq, dr in DIRECTIONS:
            other = cells.get((q + dq, r + dr))
            if other is None or other[0] == c:
                continue
            d = other[0]
            if c in good_consts and d in good_consts and good_consts[c][1] == good_consts[d][1]:
                pair = tuple(sorted((c, d)))
                if pair not in touching:
                    touching.add(pair)
                    problems.append(f"{pair[0]} and {pair[1]} are both "
                                    f"{good_consts[c][1]} and they touch: two constituencies "
                                    "of the same colour must not touch.")

    nations = {n for n, _ in good_consts.values()}
    outside = {}
    for c, _t in cells.values():
        if c in good_consts:
            for n in nations:
                if good_consts[c][0] != n:
                    outside[n] = True
    for card in deck:
        where = card["effect"].get("where")
        if where:
            problem = _region_problem(where, nations, outside, good_consts, card["title"])
            if problem and problem not in problems:
                problems.append(problem)

    gh = data.get("gerrymander_hexes")
    if not isinstance(gh, dict):
        problems.append("The map needs \"gerrymander_hexes\": how many Gerrymander Hexes of "
                        "each colour, e.g. {\"green\": 2, \"orange\": 2, \"yellow\": 2, "
                        "\"grey\": 2}.")
    else:
        for colour, k in gh.items():
            if colour not in COLOURS:
                problems.append(f"There are no {colour!r} Gerrymander Hexes; the colours are "
                                f"{_names(COLOURS)}.")
            elif not _is_int(k) or not 0 <= k <= lim["max_gerrymander_hexes"]:
                problems.append(f"The number of {colour} Gerrymander Hexes must be a whole "
                                f"number from 0 to {lim['max_gerrymander_hexes']}.")
    return problems


def _order(data):
    """The constituencies in the order their hexes first come in the map's list of hexes.
    Not the order of the "constituencies" object: PostgreSQL's jsonb reorders an object's keys,
    and a game's state numbers constituencies by this order, so it must survive a save (of the
    game and of the map it was made from)."""
    order = []
    for h in data["hexes"]:
        if h["constituency"] not in order:
            order.append(h["constituency"])
    return order + sorted(c for c in data["constituencies"] if c not in order)


def normalise_map(data):
    """A copy of (checked) map data holding only the keys the game uses."""
    return {
        "name": data["name"],
        "hexes": [{"q": h["q"], "r": h["r"], "constituency": h["constituency"],
                   "type": h["type"]} for h in data["hexes"]],
        "constituencies": {c: {"nation": v["nation"], "colour": v["colour"]}
                           for c, v in data["constituencies"].items()},
        "gerrymander_hexes": {c: data["gerrymander_hexes"].get(c, 0) for c in COLOURS},
    }


class Board:
    """The fixed geometry of one map (hexes never move; only their constituency can change,
    and that lives in the game state)."""

    def __init__(self, data):
        self.name = data["name"]
        self.coords = [(h["q"], h["r"]) for h in data["hexes"]]
        self.index = {c: i for i, c in enumerate(self.coords)}
        self.size = len(self.coords)
        self.nbrs = tuple(
            tuple(self.index[(q + dq, r + dr)] for dq, dr in DIRECTIONS
                  if (q + dq, r + dr) in self.index)
            for q, r in self.coords
        )
        self.types = [h["type"] for h in data["hexes"]]
        self.const_names = _order(data)
        self.const_index = {c: i for i, c in enumerate(self.const_names)}
        self.const_colour = [data["constituencies"][c]["colour"] for c in self.const_names]
        self.const_nation = [data["constituencies"][c]["nation"] for c in self.const_names]
        self.home = [self.const_index[h["constituency"]] for h in data["hexes"]]
        self.nation = [self.const_nation[k] for k in self.home]
        self.city = [None] * len(self.const_names)
        for i, k in enumerate(self.home):
            if self.types[i] == "city":
                self.city[k] = i
        self.gerrymander_hexes = dict(data["gerrymander_hexes"])
        self.type_names = [HEX_TYPE_NAMES[t] for t in self.types]


_BOARDS = {}


def board_for(data):
    """The ``Board`` of (normalised, checked) map ``data``, cached by the object and by its
    contents (states share one map object; a map read back from JSON is found by contents)."""
    key = id(data)
    hit = _BOARDS.get(key)
    if hit is not None and hit[0] is data:
        return hit[1]
    content = (data["name"], tuple((h["q"], h["r"], h["constituency"], h["type"])
                                   for h in data["hexes"]),
               # the numbering comes from the hexes (above), so any order of these will do
               tuple(sorted((c, v["nation"], v["colour"])
                            for c, v in data["constituencies"].items())),
               tuple(sorted(data["gerrymander_hexes"].items())))
    hit = _BOARDS.get(content)
    if hit is None:
        if len(_BOARDS) > 512:
            _BOARDS.clear()
        hit = (data, Board(data))
        _BOARDS[content] = hit
    _BOARDS[key] = (data, hit[1])
    return hit[1]


def constituency_connected_without(board, const_of, k, removed):
    """Hexes of constituency ``k`` cut off from its City if hex ``removed`` leaves it."""
    city = board.city[k]
    members = {i for i, c in enumerate(const_of) if c == k and i != removed}
    seen = {city}
    todo = [city]
    for v in todo:
        for u in board.nbrs[v]:
            if u in members and u not in seen:
                seen.add(u)
                todo.append(u)
    return len(members) - len(seen)


def gerrymander_problem(board, const_of, gerrymandered, i, colour):
    """``(code, message)`` of the first placement condition that putting a ``colour``
    Gerrymander Hex on hex ``i`` breaks, or ``(None, k)`` with ``k`` the constituency the hex
    would join.  The conditions, in the rulings' order:

    1. on a Rural hex; 2. next to a hex of the new colour; 3. not on a hex of that colour;
    4. not across a national border; 5. every hex left in the old constituency stays connected
    to its City; 6. it does not join two constituencies of the new colour; 7. the hex was not
    gerrymandered before.
    """
    q, r = board.coords[i]
    here = const_of[i]
    name = board.const_names[here]
    if board.types[i] != "rural":
        return ("not_rural", f"A Gerrymander Hex goes on a Rural hex; this hex is a "
                             f"{board.type_names[i]}.")
    touching = sorted({const_of[j] for j in board.nbrs[i]
                       if board.const_colour[const_of[j]] == colour and const_of[j] != here})
    if board.const_colour[here] != colour and not touching:
        return ("not_next_to_colour", f"A {colour} Gerrymander Hex must go next to a {colour} "
                                      f"hex; this hex does not touch one.")
    if board.const_colour[here] == colour:
        return ("same_colour", f"This hex is already {colour} (it is in {name}); a "
                               f"Gerrymander Hex must change its colour.")
    same_nation = [k for k in touching if board.const_nation[k] == board.nation[i]]
    if not same_nation:
        return ("across_border", f"You cannot gerrymander across a national border: this hex "
                                 f"is in {board.nation[i]} and "
                                 f"{_names(board.const_names[k] for k in touching)} "
                                 f"{'is' if len(touching) == 1 else 'are'} not.")
    cut = constituency_connected_without(board, const_of, here, i)
    if cut:
        hexes = "1 hex" if cut == 1 else f"{cut} hexes"
        return ("cuts_off_city", f"This would cut {hexes} of {name} off from its City.")
    if len(touching) > 1:
        return ("joins_two", f"This hex touches two {colour} constituencies "
                             f"({_names(board.const_names[k] for k in touching)}); "
                             f"it would join them.")
    if gerrymandered[i] is not None:
        return ("already_gerrymandered", "This hex has already been gerrymandered; it cannot "
                                         "be gerrymandered again.")
    return None, same_nation[0]
