"""Mapmaker game data: boards, voter tokens, turn quotas, party names.

Everything numeric that the rulings (``docs/rules/mapmaker.md``) fix lives here, not in the
rules code, so that other boards (or token mixes) can be added later without touching
``mapmaker.py``.

Board format: ``BOARDS[name]["counties"]`` is a list of ``[q, r, min_players]``: the axial
coordinates of a county and the smallest player count from which it is in play (1 means every
game, solo included).  The standard board (``docs/rules/mapmaker.md``, "Components and set-up"):

* tier 1 (min 1): the 37 counties within hex distance 3 of the centre (2 players and solo);
* tier 2 (min 3): the 18 counties of ring 4 that are not ring corners (55 counties, 3 players);
* tier 3 (min 4): the 6 corners of ring 4 and, on each side of ring 5, the two middle counties
  of that side's four non-corner counties (73 counties, 4 players).
"""

PARTY_NAMES = ["Red Elephants", "Blue Donkeys", "Yellow Porcupines", "Green Leaves"]

# docs/rules/mapmaker.md, "Components and set-up": per party one 1, one 10 and two each of
# 2..9 (18 tokens, 99 votes) plus one neutral token valued 0.  Swing counties hold a token
# valued 0 or 1.
PARTY_TOKEN_VALUES = [1, 10, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9]
NEUTRAL_TOKEN_VALUES = [0]
SWING_VALUES = [0, 1]

# docs/rules/mapmaker.md, "Turns": global turn k places TURN_QUOTAS[min(k, len - 1)] borders.
TURN_QUOTAS = [1, 2, 3, 4]

# Smallest district (rulebook: "Each district must contain at least four counties").
MIN_DISTRICT = 4

BOARDS = {
    "standard": {
        "counties": [
            [0, 0, 1], [0, -1, 1], [1, -1, 1], [-1, 0, 1], [1, 0, 1], [-1, 1, 1], [0, 1, 1],
            [0, -2, 1], [1, -2, 1], [2, -2, 1], [-1, -1, 1], [2, -1, 1], [-2, 0, 1], [2, 0, 1],
            [-2, 1, 1], [1, 1, 1], [-2, 2, 1], [-1, 2, 1], [0, 2, 1], [0, -3, 1], [1, -3, 1],
            [2, -3, 1], [3, -3, 1], [-1, -2, 1], [3, -2, 1], [-2, -1, 1], [3, -1, 1], [-3, 0, 1],
            [3, 0, 1], [-3, 1, 1], [2, 1, 1], [-3, 2, 1], [1, 2, 1], [-3, 3, 1], [-2, 3, 1],
            [-1, 3, 1], [0, 3, 1],
            # tier 2: ring 4 without its corners
            [-3, 4, 3], [-2, 4, 3], [-1, 4, 3], [1, 3, 3], [2, 2, 3], [3, 1, 3], [4, -1, 3],
            [4, -2, 3], [4, -3, 3], [3, -4, 3], [2, -4, 3], [1, -4, 3], [-1, -3, 3], [-2, -2, 3],
            [-3, -1, 3], [-4, 1, 3], [-4, 2, 3], [-4, 3, 3],
            # tier 3: the corners of ring 4 ...
            [-4, 4, 4], [0, 4, 4], [4, 0, 4], [4, -4, 4], [0, -4, 4], [-4, 0, 4],
            # ... and the two middle counties of each side of ring 5
            [-3, 5, 4], [-2, 5, 4], [2, 3, 4], [3, 2, 4], [5, -2, 4], [5, -3, 4], [3, -5, 4],
            [2, -5, 4], [-2, -3, 4], [-3, -2, 4], [-5, 2, 4], [-5, 3, 4],
        ],
    },
}
