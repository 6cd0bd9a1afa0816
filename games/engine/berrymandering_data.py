"""Berrymandering game data: the standard cake, the tile mixes, names and the solo ratings.

Everything numeric the rulebook and the rulings fix lives here, not in the rules code, so that
state maps (other cakes, other mixes) change data only.

Map format (the same shape the map upload API stores; ``STANDARD_MAP`` is one)::

    {"name": "...",
     "cells": [[x, y], ...],                   # x: column (left to right), y: row (top down)
     "tiles": {"random": 6,                    # Random tiles (a question mark)
               "berries": [[6, 4, 3, 2],       # Strawberry: six 1-berry, four 2-berry, ...
                           [6, 4, 3, 2]]},     # Blueberry, the same
     "mystery": [[2, 1, 0, 0], [2, 1, 0, 0]]}  # Mystery tiles, per team, by berries 1..4

``berries[t][k - 1]`` is how many k-berry tiles team t has; ``mystery`` likewise.
"""

TEAM_NAMES = ["Strawberry", "Blueberry"]
BERRY_WORDS = ["strawberries", "blueberries"]  # berries of each team, for counts
STRAWBERRY, BLUEBERRY = 0, 1

# "single", "double", ... for a tile with 1..4 berries
TILE_WORDS = {1: "single", 2: "double", 3: "triple", 4: "quadruple"}

GROUP_SIZE = 4  # cells per group (a tetromino)

# The published board: a 6 x 6 cake, 36 square cake tiles, shuffled face up.
STANDARD_MAP = {
    "name": "Cakeland (6 x 6)",
    "cells": [[x, y] for y in range(6) for x in range(6)],
    "tiles": {"random": 6, "berries": [[6, 4, 3, 2], [6, 4, 3, 2]]},
    "mystery": [[2, 1, 0, 0], [2, 1, 0, 0]],
}

# Limits for uploaded maps: enough for any state map, small enough that checking stays quick.
MAX_CELLS = 400
MAX_COORD = 1000  # |x| and |y| at most this
MAX_MYSTERY = 400  # Mystery tiles in all
# Steps the exact tileability search may take for one uploaded map (it is never guessed: a
# map that needs more is refused as too intricate to check).
MAP_CHECK_STEPS = 30_000

# Solo: the player chooses this many groups each round, and wins with more than
# SOLO_WIN_ABOVE candles (out of the standard cake's 9 groups).
SOLO_CHOICES_PER_ROUND = 3
SOLO_WIN_ABOVE = 4
SOLO_SCALE_GROUPS = 9  # the rating table is written for a cake of 9 groups

# The rulebook's solo score sheet: (fewest candles, rating words), out of 9 groups.
SOLO_RATINGS = [
    (0, "You won't be crowned ruler of Cakeland today."),
    (5, "You are allowed to sit on the throne for a day."),
    (6, "Not bad! You are allowed to rule for a week. A parade of cakes is held in your honor."),
    (7, "You proved yourself worthy to rule for a year. Under your guidance the lives of people "
        "in Cakeland will be sweet."),
    (8, "Your Berrymandering skills are legendary. Cakeland is yours to rule forever. The "
        "national flag is redrawn to show your favorite type of cake!"),
    (9, "You cheated! It's not possible to get 9 candles!"),
]

# How many random complete cuts legal_moves lists for the cutter (there are far too many to
# list them all; any valid cut is accepted); fewer when more than BIG_CAKE cells are uneaten
# (each cut of a big map takes longer to find).
CUT_SAMPLE = 12
CUT_SAMPLE_BIG = 4
BIG_CAKE = 64
