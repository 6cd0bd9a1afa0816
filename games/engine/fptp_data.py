"""First Past the Post game data: budget cards, the news deck, the default map, seat colours.

Everything numeric the rulebook and its rulings fix lives here, not in the rules code
(``fptp.py``), so that a map or a deck can change without touching the rules.

News deck format: one entry per card *kind* with its ``count``, ``type`` ("permanent" or
"action"), ``title``, ``text`` (the card as players read it) and ``effect``:

* Permanent cards: ``{"sway": n, "where": region}``; the holder gets ``n`` sway (negative: less)
  when campaigning in a hex of that region.  A region is ``{"hex_type": t}``,
  ``{"nation": name}``, ``{"not_nation": name}`` or ``{"constituency": name}``.
* Action cards (all of them say "You may"): ``{"action": a, ...}`` with
  ``"gerrymander"`` (``cost``: the budget card to pay, ``colours``: the Gerrymander Hex colours
  it allows, null for any), ``"recampaign"`` (``hex_types``: which won hexes may be campaigned
  for again this turn, ``holder_bonus``: extra sway for the hex's holder there), ``"swap"``
  (``from_type`` / ``to_type``: the two hexes of one constituency whose vote counters swap),
  ``"clean_slate"`` (``cost``; every Permanent card of one player is discarded).

Map format (the map upload API stores the same shape)::

    {"name": "...",
     "hexes": [{"q": 0, "r": 0, "constituency": "Leeds", "type": "city"}, ...],
     "constituencies": {"Leeds": {"nation": "England", "colour": "grey"}, ...},
     "gerrymander_hexes": {"green": 2, "orange": 2, "yellow": 2, "grey": 2}}

Hexes use axial coordinates (q, r), pointy-top, r growing southwards: a hex (q, r) is drawn at
x = q + r / 2, y = r (in hex widths / rows), so the map is drawn north up.
"""

# The 50 budget cards, 1 to 50 (all different, so a draw-off between two cards always has a
# winner; the rules still repeat a draw-off while tied, for decks with repeated values).
BUDGET_CARDS = list(range(1, 51))

# Hand size: players still in the game plus this many.
HAND_EXTRA = 2

# A player holds at most this many Permanent news cards.
MAX_PERMANENTS = 2

HEX_TYPES = ("city", "large_town", "small_town", "rural")
HEX_TYPE_NAMES = {
    "city": "City",
    "large_town": "Large Town",
    "small_town": "Small Town",
    "rural": "Rural",
}
# Constituency ties go to the tied player holding the City, then a Large Town, then a Small
# Town (rulebook "Ending the Game"); the AV elimination ranks hexes the same way.
TIE_BREAK_TYPES = ("city", "large_town", "small_town")

COLOURS = ("green", "orange", "yellow", "grey")

# Eight Gerrymander Hexes: two in each constituency colour (a map may say otherwise).
GERRYMANDER_HEXES = {"green": 2, "orange": 2, "yellow": 2, "grey": 2}

# Vote counter colours and shapes of seats 0..4 (shapes tell players apart without colour;
# none of these colours is a constituency colour).
SEAT_COLOURS = ("Red", "Blue", "Purple", "Pink", "Black")
SEAT_SHAPES = ("circle", "square", "triangle", "diamond", "star")

# Sane sizes for uploaded maps.
MAP_LIMITS = {
    "min_hexes": 10,
    "max_hexes": 150,
    "min_constituencies": 2,
    "max_constituencies": 30,
    "max_coordinate": 60,
    "max_name": 40,
    "max_gerrymander_hexes": 6,
}

# The 32 news cards.
NEWS_DECK = [
    {"kind": "gerrymander_green", "count": 1, "type": "action", "title": "Gerrymander Green",
     "text": "You may pay 28 to gerrymander with a green Gerrymander Hex.",
     "effect": {"action": "gerrymander", "cost": 28, "colours": ["green"]}},
    {"kind": "gerrymander_orange", "count": 1, "type": "action", "title": "Gerrymander Orange",
     "text": "You may pay 28 to gerrymander with an orange Gerrymander Hex.",
     "effect": {"action": "gerrymander", "cost": 28, "colours": ["orange"]}},
    {"kind": "gerrymander_yellow", "count": 1, "type": "action", "title": "Gerrymander Yellow",
     "text": "You may pay 28 to gerrymander with a yellow Gerrymander Hex.",
     "effect": {"action": "gerrymander", "cost": 28, "colours": ["yellow"]}},
    {"kind": "gerrymander_grey", "count": 1, "type": "action", "title": "Gerrymander Grey",
     "text": "You may pay 28 to gerrymander with a grey Gerrymander Hex.",
     "effect": {"action": "gerrymander", "cost": 28, "colours": ["grey"]}},
    {"kind": "powermander", "count": 2, "type": "action", "title": "Powermander",
     "text": "You may pay 32 to gerrymander with any Gerrymander Hex that is left.",
     "effect": {"action": "gerrymander", "cost": 32, "colours": None}},
    {"kind": "floods", "count": 2, "type": "action", "title": "Floods",
     "text": "This turn you may campaign again for a Rural hex that is already won; "
             "its holder gets +5 sway there.",
     "effect": {"action": "recampaign", "hex_types": ["rural"], "holder_bonus": 5}},
    {"kind": "riots", "count": 2, "type": "action", "title": "Riots",
     "text": "This turn you may campaign again for a City hex that is already won; "
             "its holder gets +5 sway there.",
     "effect": {"action": "recampaign", "hex_types": ["city"], "holder_bonus": 5}},
    {"kind": "urbanisation", "count": 2, "type": "action", "title": "Urbanisation",
     "text": "You may swap the vote counters of one Rural hex and the City hex of the same "
             "constituency.",
     "effect": {"action": "swap", "from_type": "rural", "to_type": "city"}},
    {"kind": "clean_slate", "count": 2, "type": "action", "title": "Clean Slate",
     "text": "You may pay 30 to discard all the Permanent news cards of any one player.",
     "effect": {"action": "clean_slate", "cost": 30}},
    {"kind": "city_scandal", "count": 3, "type": "permanent", "title": "City Scandal",
     "text": "-4 sway in City hexes.",
     "effect": {"sway": -4, "where": {"hex_type": "city"}}},
    {"kind": "rural_gaffe", "count": 3, "type": "permanent", "title": "Rural Gaffe",
     "text": "-4 sway in Rural hexes.",
     "effect": {"sway": -4, "where": {"hex_type": "rural"}}},
    {"kind": "irish_glory", "count": 1, "type": "permanent", "title": "Irish Glory",
     "text": "+7 sway in Northern Ireland.",
     "effect": {"sway": 7, "where": {"nation": "Northern Ireland"}}},
    {"kind": "bad_friday", "count": 2, "type": "permanent", "title": "Bad Friday",
     "text": "-6 sway in Northern Ireland.",
     "effect": {"sway": -6, "where": {"nation": "Northern Ireland"}}},
    {"kind": "scottish_cheer", "count": 1, "type": "permanent", "title": "Scottish Cheer",
     "text": "+7 sway in Scotland.",
     "effect": {"sway": 7, "where": {"nation": "Scotland"}}},
    {"kind": "scottish_rage", "count": 1, "type": "permanent", "title": "Scottish Rage",
     "text": "-5 sway in Scotland.",
     "effect": {"sway": -5, "where": {"nation": "Scotland"}}},
    {"kind": "divided_kingdom", "count": 2, "type": "permanent", "title": "Divided Kingdom",
     "text": "+5 sway outside England.",
     "effect": {"sway": 5, "where": {"not_nation": "England"}}},
    {"kind": "up_the_english", "count": 2, "type": "permanent", "title": "Up the English",
     "text": "+5 sway in England.",
     "effect": {"sway": 5, "where": {"nation": "England"}}},
    {"kind": "down_the_english", "count": 1, "type": "permanent", "title": "Down the English",
     "text": "-4 sway in England.",
     "effect": {"sway": -4, "where": {"nation": "England"}}},
    {"kind": "central_power", "count": 2, "type": "permanent", "title": "Central Power",
     "text": "+8 sway in the London constituency.",
     "effect": {"sway": 8, "where": {"constituency": "London"}}},
]

NEWS = {card["kind"]: card for card in NEWS_DECK}

# The default map: eleven constituencies in four nations, drawn north up (Scotland at the top,
# Northern Ireland an island to the west, Wales west, London south-east, Plymouth south-west).
# (q, r, constituency, type)
_DEFAULT_HEXES = [
    (4, 0, "Glasgow", "rural"),
    (3, 1, "Glasgow", "rural"),
    (4, 1, "Glasgow", "small_town"),
    (2, 2, "Glasgow", "rural"),
    (3, 2, "Glasgow", "large_town"),
    (3, 3, "Glasgow", "city"),
    (5, 0, "Edinburgh", "rural"),
    (5, 1, "Edinburgh", "small_town"),
    (4, 2, "Edinburgh", "rural"),
    (5, 2, "Edinburgh", "large_town"),
    (4, 3, "Edinburgh", "rural"),
    (5, 3, "Edinburgh", "city"),
    (-1, 2, "Londonderry", "city"),
    (0, 2, "Londonderry", "rural"),
    (-1, 3, "Londonderry", "small_town"),
    (-2, 4, "Londonderry", "rural"),
    (0, 3, "Belfast", "rural"),
    (-1, 4, "Belfast", "city"),
    (-2, 5, "Belfast", "small_town"),
    (-1, 5, "Belfast", "large_town"),
    (3, 4, "Newcastle", "rural"),
    (4, 4, "Newcastle", "city"),
    (3, 5, "Newcastle", "small_town"),
    (4, 5, "Newcastle", "rural"),
    (3, 6, "Newcastle", "large_town"),
    (2, 5, "Leeds", "small_town"),
    (1, 6, "Leeds", "large_town"),
    (2, 6, "Leeds", "city"),
    (1, 7, "Leeds", "rural"),
    (2, 7, "Leeds", "small_town"),
    (3, 7, "Leeds", "rural"),
    (-1, 8, "Cardiff", "rural"),
    (-2, 9, "Cardiff", "small_town"),
    (-1, 9, "Cardiff", "rural"),
    (-3, 10, "Cardiff", "large_town"),
    (-2, 10, "Cardiff", "city"),
    (0, 8, "Birmingham", "rural"),
    (1, 8, "Birmingham", "large_town"),
    (2, 8, "Birmingham", "rural"),
    (0, 9, "Birmingham", "city"),
    (1, 9, "Birmingham", "small_town"),
    (-1, 10, "Bristol", "rural"),
    (-2, 11, "Bristol", "small_town"),
    (-1, 11, "Bristol", "city"),
    (-3, 12, "Bristol", "rural"),
    (-2, 12, "Bristol", "large_town"),
    (2, 9, "London", "small_town"),
    (0, 10, "London", "rural"),
    (1, 10, "London", "large_town"),
    (0, 11, "London", "city"),
    (1, 11, "London", "rural"),
    (-1, 12, "London", "small_town"),
    (-4, 12, "Plymouth", "small_town"),
    (-5, 13, "Plymouth", "large_town"),
    (-4, 13, "Plymouth", "city"),
    (-3, 13, "Plymouth", "rural"),
    (-6, 14, "Plymouth", "rural"),
]

DEFAULT_MAP = {
    "name": "United Kingdom",
    "hexes": [{"q": q, "r": r, "constituency": c, "type": t} for q, r, c, t in _DEFAULT_HEXES],
    "constituencies": {
        "Edinburgh": {"nation": "Scotland", "colour": "green"},
        "Glasgow": {"nation": "Scotland", "colour": "orange"},
        "Londonderry": {"nation": "Northern Ireland", "colour": "yellow"},
        "Belfast": {"nation": "Northern Ireland", "colour": "grey"},
        "Cardiff": {"nation": "Wales", "colour": "orange"},
        "Newcastle": {"nation": "England", "colour": "yellow"},
        "Leeds": {"nation": "England", "colour": "grey"},
        "Birmingham": {"nation": "England", "colour": "green"},
        "Bristol": {"nation": "England", "colour": "yellow"},
        "London": {"nation": "England", "colour": "grey"},
        "Plymouth": {"nation": "England", "colour": "orange"},
    },
    "gerrymander_hexes": dict(GERRYMANDER_HEXES),
}
