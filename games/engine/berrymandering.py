"""Berrymandering - the rules engine.

Follows the published Berrymandering rulebook and the project's rulings for it (the rules as
implemented, in words: ``docs/rules/berrymandering.md``):

==================================  ===========================================================
Rulebook / ruling                   Code
==================================  ===========================================================
Contents (36 cake tiles, 6 Random,  ``berrymandering_data`` (``STANDARD_MAP``: board, tile mix,
  per team 6/4/3/2 berry tiles;       Mystery mix); ``_parse_map`` for state maps
  6 Mystery tiles)
Setup: who ate cake most recently   options ``team_chooser`` / ``team`` / ``first_cutter``
  picks a team, the other cuts        (drawn from the seed when absent); ``_seats``
  first; shuffle cake and Mystery   ``BerrymanderingRules.setup`` (derived seeds per part)
Cut: all cake in groups of four,    ``_parse_cut`` (codes ``group_size``, ``not_connected``,
  no orphans, the 7 shapes, never     ``overlap``, ``eaten``, ``uncut`` ...); ``tetromino``
  eaten pieces
Choose: reveal a Mystery tile per   ``_choose`` (reveals), ``_eat``: majority candle, tie
  Random tile, most berries gets      none; revealed tiles stay public (``revealed``)
  a candle, tie none
Reset / Switch / nine rounds        ``_eat`` (the cut is dropped, roles swap; rounds =
                                      cells / 4)
"the isolated group ... remains     a cut always covers every uneaten cell, so an isolated
  in play until it is eaten"          group is an ordinary group
End: most candles rules             ``result`` (``decided_by`` candles / draw)
Three Player Variant                mode "3": phase ``mystery``, move ``mystery``; the third
                                      player wins on equal candles (``third_player``)
Strategy Variant                    option ``variant`` = "strategy": ``mystery_at`` filled at
                                      setup, face up
Solo Player Variant + score sheet   mode "solo": ``_eat`` (3 choices per cut),
                                      ``_solo_rating`` (``SOLO_RATINGS``)
Play a State Variant                option ``map`` (``map_check``; exact tileability search
                                      in ``tetromino.Region``)
==================================  ===========================================================

Seats, teams, roles
-------------------
Two players: seats 0 and 1.  Three players: seats 0 and 1 are the teams, seat 2 keeps the
Mystery tiles.  Solo: seat 0.  Teams: 0 Strawberry, 1 Blueberry (``team_of_seat``; the third
player has None).  Options: ``team_chooser`` (the seat that ate cake most recently: it picks a
team), ``team`` (the team it picks), ``first_cutter`` (default: the other player); missing
ones are drawn from the seed.  Solo: ``team`` (default 0).

Moves
-----
``{"type": "cut", "groups": [[[x, y], [x, y], [x, y], [x, y]], ...]}``: the cutter's move, a
complete partition of the uneaten cells into connected groups of 4.  ``legal_moves`` lists
only a sample of them (``CUT_SAMPLE`` random complete cuts, the same for the same position):
there are far too many to list, and ``apply`` takes any valid one.
``{"type": "choose", "cell": [x, y]}``: eat the group of the current cut that holds this cell;
``legal_moves`` names each group by its first cell in reading order (row, then column).
``{"type": "mystery", "tile": i}``: three players only: the third player picks the face-up
Mystery tile ``i`` (index in ``mystery_face_down``) for the next Random tile of the group.

State (internal, JSON)
----------------------
``map`` (normalised map data; cells in reading order, which numbers them), ``tiles`` (per
cell ``[team, count]`` or None for a Random tile), ``eaten`` (per cell), ``cut`` (groups of
cell numbers, or None), ``mystery_at`` (per cell: the Mystery tile on it, ``[team, count]``,
once revealed; strategy: from the start), ``revealed`` (``[cell, team, count]`` in order),
``pile`` (the face-down Mystery tiles, top first: the only hidden part), ``hand`` (three
players: the keeper's tiles, None once played), ``pending`` (three players: the group waiting
for Mystery tiles), ``history`` (eaten groups), ``candles``, ``round``, ``rounds``,
``cutter``, ``chooser``, ``phase`` ("cut" | "choose" | "mystery" | "over").  No seed is kept.

View: see ``BerrymanderingRules.view``; result: see ``result``.
"""

import json
import math
import random
from functools import lru_cache

from games.engine.base import IllegalMove, Mode, Option, Rules, SharedViews, seat_ref
from games.engine.base import is_int as _is_int
from games.engine.berrymandering_data import (
    BERRY_WORDS,
    BIG_CAKE,
    CUT_SAMPLE,
    CUT_SAMPLE_BIG,
    GROUP_SIZE,
    MAP_CHECK_STEPS,
    MAX_CELLS,
    MAX_COORD,
    MAX_MYSTERY,
    SOLO_CHOICES_PER_ROUND,
    SOLO_RATINGS,
    SOLO_SCALE_GROUPS,
    SOLO_WIN_ABOVE,
    STANDARD_MAP,
    TEAM_NAMES,
    TILE_WORDS,
)
from games.engine.tetromino import Region, TooIntricate, connected, islands, reading_order

GAME = "berrymandering"
TWO, THREE, SOLO = "2", "3", "solo"
STANDARD, STRATEGY = "standard", "strategy"
KEEPER = 2  # the third player's seat
KEEPER_NAME = "Mystery keeper"
KEEPER_NO_CANDLES = "\u2014"  # an em dash in the keeper's candles column


def fmt_cell(cell):
    return f"({cell[0]},{cell[1]})"


def _cell_list(cells):
    """"(1,2)", "(1,2) and (3,4)", "(1,2), (3,4) and (5,6)" (at most 6 named)."""
    names = [fmt_cell(c) for c in cells]
    if len(names) > 6:
        names = names[:5] + [f"{len(names) - 5} more"]
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " and " + names[-1]


def tile_words(team, count):
    """'a double Strawberry'."""
    word = TILE_WORDS.get(count, f"{count}-berry")
    return f"{'an' if word[0] in 'aeiou' else 'a'} {word} {TEAM_NAMES[team]}"


# ---------------------------------------------------------------------------- map data

def _counts(value, what):
    """Four whole counts (tiles with 1, 2, 3, 4 berries) or ValueError."""
    if (not isinstance(value, list) or len(value) != 4
            or not all(_is_int(v) and 0 <= v <= MAX_CELLS for v in value)):
        raise ValueError(what)
    return list(value)


def _parse_mix(data, n_cells):
    """(tiles, mystery) of map data; the standard mix when left out (tiles: 36 cells only)."""
    problems = []
    tiles = data.get("tiles")
    if tiles is None:
        if n_cells == len(STANDARD_MAP["cells"]):
            tiles = STANDARD_MAP["tiles"]
        else:
            problems.append(
                f"The map has {n_cells} cells, so it must say its tile mix (\"tiles\": the "
                "Random tiles and each team's berry tiles); the standard mix fits 36 cells only.")
            tiles = None
    shape = ("\"tiles\" must be {\"random\": N, \"berries\": [[...], [...]]}, with each team's "
             "number of tiles with 1, 2, 3 and 4 berries, in whole numbers.")
    random_tiles = berries = None
    if tiles is not None:
        try:
            if not isinstance(tiles, dict):
                raise ValueError(shape)
            random_tiles = tiles.get("random")
            if not _is_int(random_tiles) or not 0 <= random_tiles <= MAX_CELLS:
                raise ValueError(shape)
            raw = tiles.get("berries")
            if not isinstance(raw, list) or len(raw) != 2:
                raise ValueError(shape)
            berries = [_counts(raw[0], shape), _counts(raw[1], shape)]
        except ValueError as exc:
            problems.append(str(exc))
            random_tiles = berries = None
    if berries is not None:
        total = random_tiles + sum(berries[0]) + sum(berries[1])
        if total != n_cells:
            problems.append(f"The tile mix has {total} tiles but the map has {n_cells} cells: "
                            "there must be exactly one tile per cell.")
        if berries[0] != berries[1]:
            problems.append("Strawberry and Blueberry must get the same berry tiles (the same "
                            "number of 1-, 2-, 3- and 4-berry tiles each).")
    mystery = data.get("mystery")
    mshape = ("\"mystery\" must be [[...], [...]]: each team's number of Mystery tiles with 1, "
              "2, 3 and 4 berries, in whole numbers.")
    if mystery is None:
        mystery = STANDARD_MAP["mystery"]
    try:
        if not isinstance(mystery, list) or len(mystery) != 2:
            raise ValueError(mshape)
        mystery = [_counts(mystery[0], mshape), _counts(mystery[1], mshape)]
    except ValueError as exc:
        problems.append(str(exc))
        mystery = None
    if mystery is not None:
        n_mystery = sum(mystery[0]) + sum(mystery[1])
        if mystery[0] != mystery[1]:
            problems.append("Strawberry and Blueberry must get the same Mystery tiles.")
        if n_mystery > MAX_MYSTERY:
            problems.append(f"There are {n_mystery} Mystery tiles; at most {MAX_MYSTERY} "
                            "are allowed.")
        if random_tiles is not None and n_mystery < random_tiles:
            problems.append(f"There are {n_mystery} Mystery tiles but {random_tiles} Random "
                            "tiles: every Random tile needs a Mystery tile to reveal.")
    mix = None
    if not problems:
        mix = ({"random": random_tiles, "berries": berries}, mystery)
    return mix, problems


def _parse_cells(data):
    """The cells of map data in reading order, or ValueError saying what is wrong."""
    if not isinstance(data, dict):
        raise ValueError("The map must be an object with \"cells\" (and \"tiles\" and "
                         "\"mystery\").")
    rows = data.get("cells")
    if not isinstance(rows, list) or not rows:
        raise ValueError("The map needs \"cells\": a list of [x, y] pairs.")
    if len(rows) > MAX_CELLS:
        raise ValueError(f"The map has {len(rows)} cells; at most {MAX_CELLS} are allowed.")
    seen = set()
    for row in rows:
        if (not isinstance(row, (list, tuple)) or len(row) != 2
                or not all(_is_int(v) for v in row)):
            raise ValueError(f"Each cell is [x, y] in whole numbers; {json.dumps(row)[:40]} "
                             "is not.")
        cell = (row[0], row[1])
        if abs(cell[0]) > MAX_COORD or abs(cell[1]) > MAX_COORD:
            raise ValueError(f"Cell {fmt_cell(cell)} is too far out: x and y must be between "
                             f"-{MAX_COORD} and {MAX_COORD}.")
        if cell in seen:
            raise ValueError(f"Cell {fmt_cell(cell)} is listed twice.")
        seen.add(cell)
    return reading_order(seen)


@lru_cache(maxsize=64)
def _island_problems(cells):
    """What is wrong with the islands of ``cells`` (a tuple in reading order)."""
    problems = []
    for part in islands(cells):
        where = fmt_cell(part[0])
        n = len(part)
        if n % GROUP_SIZE:
            problems.append(f"The island at {where} has {n} cell{'s' if n != 1 else ''}: every "
                            f"island needs a multiple of {GROUP_SIZE} cells.")
            continue
        try:
            ok = Region(part).tileable(node_limit=MAP_CHECK_STEPS)
        except TooIntricate:
            problems.append(f"The island at {where} is too intricate to check quickly whether "
                            "it can be cut into groups of 4: please smooth its outline.")
            continue
        if not ok:
            problems.append(f"The island at {where} cannot be cut into groups of 4 connected "
                            f"cells, although its {n} cells are a multiple of 4: change its "
                            "shape.")
    return problems


def _parse_map(data):
    """``(normalised map, problems)``; the map is None when there are problems."""
    try:
        cells = _parse_cells(data)
    except ValueError as exc:
        return None, [str(exc)]
    problems = []
    if len(cells) % GROUP_SIZE:
        problems.append(f"The map has {len(cells)} cells: the cake needs a multiple of "
                        f"{GROUP_SIZE} cells, as every group has {GROUP_SIZE}.")
    problems += _island_problems(tuple(cells))
    mix, mix_problems = _parse_mix(data, len(cells))
    problems += mix_problems
    if problems:
        return None, problems
    name = data.get("name")
    name = name.strip()[:80] if isinstance(name, str) and name.strip() else "Map"
    tiles, mystery = mix
    return {"name": name, "cells": [list(c) for c in cells], "tiles": tiles,
            "mystery": mystery}, []


def _expand(counts, team):
    return [[team, k + 1] for k, n in enumerate(counts) for _ in range(n)]


def mystery_set(mystery):
    """Every Mystery tile of a mix, in a fixed order (Strawberry first, fewest berries first)."""
    return _expand(mystery[0], 0) + _expand(mystery[1], 1)


# ---------------------------------------------------------------------------- geometry

class _Geometry:
    """A map's cells (numbered in reading order) with their tetromino search."""

    def __init__(self, cells):
        self.cells = [tuple(c) for c in cells]
        self.index = {c: i for i, c in enumerate(self.cells)}
        self.region = Region(self.cells)
        self.bits = [self.region.bit_of[c] for c in self.cells]
        self.index_of_bit = {b: i for i, b in enumerate(self.bits)}

    def mask(self, idxs):
        m = 0
        for i in idxs:
            m |= self.bits[i]
        return m

    def idxs(self, mask):
        out = []
        while mask:
            low = mask & -mask
            out.append(self.index_of_bit[low])
            mask ^= low
        return out


@lru_cache(maxsize=32)
def _geometry_for(cells):
    return _Geometry(cells)


def geometry(state):
    return _geometry_for(tuple(tuple(c) for c in state["map"]["cells"]))


_CUT_CACHE = {}


def random_cut(state, rng):
    """A random complete cut of the uneaten cells: groups of cell numbers, in reading order."""
    geo = geometry(state)
    mask = geo.mask(i for i, e in enumerate(state["eaten"]) if not e)
    pieces = geo.region.random_tiling(rng, mask)
    return [geo.idxs(p) for p in sorted(pieces)]


def _cut_sample(state):
    """Up to ``CUT_SAMPLE`` different random complete cuts (cell numbers), the same ones for
    the same position: the draw is seeded by what everyone sees (round and eaten cells)."""
    eaten = "".join("1" if e else "0" for e in state["eaten"])
    key = (json.dumps(state["map"]["cells"]), eaten, state["round"])
    hit = _CUT_CACHE.get(key)
    if hit is None:
        rng = random.Random(f"{GAME}|cuts|{state['round']}|{eaten}")
        seen, hit = set(), []
        size = CUT_SAMPLE if eaten.count("0") <= BIG_CAKE else CUT_SAMPLE_BIG
        for _ in range(2 * size):
            cut = random_cut(state, rng)
            sig = tuple(map(tuple, cut))
            if sig not in seen:
                seen.add(sig)
                hit.append(cut)
                if len(hit) == size:
                    break
        if len(_CUT_CACHE) > 512:
            _CUT_CACHE.clear()
        _CUT_CACHE[key] = hit
    return hit


# ---------------------------------------------------------------------------- state helpers

def _copy(state):
    new = dict(state)
    for key in ("team_of_seat", "tiles", "eaten", "mystery_at", "revealed", "pile", "hand",
                "history", "candles"):
        new[key] = list(state[key])
    new["cut"] = None if state["cut"] is None else [list(g) for g in state["cut"]]
    if state["pending"] is not None:
        new["pending"] = {**state["pending"], "random": list(state["pending"]["random"]),
                          "group": list(state["pending"]["group"])}
    return new


def group_berries(state, group):
    """Berries per team in a group of cell numbers, Mystery tiles on it included."""
    berries = [0, 0]
    for i in group:
        tile = state["tiles"][i]
        if tile is not None:
            berries[tile[0]] += tile[1]
        extra = state["mystery_at"][i]
        if extra is not None:
            berries[extra[0]] += extra[1]
    return berries


def majority(berries):
    """The team with more berries, or None on a tie."""
    if berries[0] == berries[1]:
        return None
    return 0 if berries[0] > berries[1] else 1


class BerrymanderingRules(SharedViews, Rules):
    name = GAME
    title = "Berrymandering"
    players_min = 2
    players_max = 3
    imperfect_information = True  # the order of the face-down Mystery tiles
    simultaneous = False
    modes = (
        Mode(TWO, "2 players", {"players": 2}),
        Mode(THREE, "3 players (the third keeps the Mystery tiles)", {"players": 3}),
        Mode(SOLO, "Solo", {"mode": SOLO}, solo=True),
    )
    options = (
        Option("variant", "Variant",
               ((STANDARD, "Standard"),
                (STRATEGY, "Strategy: Mystery tiles face up on the Random tiles")),
               STANDARD, modes=(TWO, SOLO),
               help="Strategy removes all luck: every Random tile shows its Mystery tile from "
                    "the start."),
    )
    decided_by = {
        "candles": "Most candles.",
        "draw": "Equal candles: a draw.",
        "third_player": "Equal candles: the Mystery keeper wins.",
        "solo": "Solo: candles against the score sheet.",
    }

    # ------------------------------------------------------------------ options
    def _parse_options(self, options):
        if not isinstance(options, dict):
            raise IllegalMove("bad_options", "The game options must be a dictionary.")
        mode = options.get("mode")
        if mode is not None and mode != SOLO:
            raise IllegalMove("bad_options", "The mode must be \"solo\" (or left out).")
        if mode == SOLO:
            players = options.get("players", 1)
            if players != 1 or isinstance(players, bool):
                raise IllegalMove("bad_options", "A solo game has exactly one player.")
            kind = SOLO
        else:
            players = options.get("players")
            if not _is_int(players) or players not in (2, 3):
                raise IllegalMove("bad_options", "Berrymandering is for 2 or 3 players (or "
                                                 "solo).")
            kind = TWO if players == 2 else THREE
        variant = options.get("variant", STANDARD)
        if variant is None:
            variant = STANDARD
        if variant not in (STANDARD, STRATEGY):
            raise IllegalMove("bad_options", "The variant must be \"standard\" or "
                                             "\"strategy\".")
        if variant == STRATEGY and kind == THREE:
            raise IllegalMove("bad_options", "The strategy variant is for 2 players or solo: "
                                             "with 3 players the third player holds every "
                                             "Mystery tile face up anyway.")
        data = options.get("map")
        if data is None:
            game_map = STANDARD_MAP
        else:
            game_map, problems = _parse_map(data)
            if problems:
                raise IllegalMove("bad_options", f"This map cannot be played: {problems[0]}")
        return kind, players, variant, game_map

    def seat_count(self, options):
        kind, players, _variant, _map = self._parse_options(options)
        self._seats(kind, options, 0)  # refuses what setup refuses
        return players

    def map_check(self, data):
        return _parse_map(data)[1]

    def _seats(self, kind, options, seed):
        """(team_of_seat, team_chooser, first_cutter)."""
        rng = random.Random(f"{GAME}|seats|{seed}")
        drawn_chooser, drawn_team = rng.randrange(2), rng.randrange(2)
        team = options.get("team")
        if team is not None and (not _is_int(team) or team not in (0, 1)):
            raise IllegalMove("bad_options", "The team is 0 (Strawberry) or 1 (Blueberry).")
        if kind == SOLO:
            return [0 if team is None else team], None, 0
        chooser = options.get("team_chooser")
        if chooser is None:
            chooser = drawn_chooser
        elif not _is_int(chooser) or chooser not in (0, 1):
            raise IllegalMove("bad_options", "The team chooser (who ate cake most recently) is "
                                             "seat 0 or seat 1.")
        team = drawn_team if team is None else team
        team_of_seat = [None, None]
        team_of_seat[chooser] = team
        team_of_seat[1 - chooser] = 1 - team
        if kind == THREE:
            team_of_seat.append(None)
        first = options.get("first_cutter")
        if first is None:
            first = 1 - chooser  # "The other player gets to Cut cake first."
        elif not _is_int(first) or first not in (0, 1):
            raise IllegalMove("bad_options", "The first cutter is seat 0 or seat 1.")
        return team_of_seat, chooser, first

    # ------------------------------------------------------------------ setup
    def setup(self, options, seed):
        kind, players, variant, game_map = self._parse_options(options)
        team_of_seat, team_chooser, first = self._seats(kind, options, seed)
        cells = game_map["cells"]
        tiles = [None] * game_map["tiles"]["random"]
        for team in (0, 1):
            tiles += _expand(game_map["tiles"]["berries"][team], team)
        random.Random(f"{GAME}|tiles|{seed}").shuffle(tiles)
        mystery = mystery_set(game_map["mystery"])
        pile = list(mystery)
        random.Random(f"{GAME}|mystery|{seed}").shuffle(pile)
        mystery_at = [None] * len(cells)
        hand = []
        if kind == THREE:
            hand, pile = [list(t) for t in mystery], []
        elif variant == STRATEGY:
            # "Place the Mystery tiles face up on the Random tiles during setup."  Tiles left
            # over (a map with more Mystery than Random tiles) are not used.
            randoms = [i for i, t in enumerate(tiles) if t is None]
            for i, tile in zip(randoms, pile, strict=False):
                mystery_at[i] = list(tile)
            pile = []
        groups = len(cells) // GROUP_SIZE
        rounds = math.ceil(groups / SOLO_CHOICES_PER_ROUND) if kind == SOLO else groups
        return {
            "game": GAME,
            "version": 1,
            "mode": kind,
            "variant": variant,
            "players": players,
            "map": json.loads(json.dumps(game_map)),
            "team_of_seat": team_of_seat,
            "team_chooser": team_chooser,
            "first_cutter": first,
            "tiles": tiles,
            "eaten": [False] * len(cells),
            "cut": None,
            "mystery_at": mystery_at,
            "revealed": [],
            "pile": pile,
            "hand": hand,
            "pending": None,
            "history": [],
            "candles": [0, 0],
            "round": 1,
            "rounds": rounds,
            "cutter": first,
            "chooser": 0 if kind == SOLO else 1 - first,
            "chosen_this_round": 0,
            "phase": "cut",
        }

    # ------------------------------------------------------------------ queries
    def to_move(self, state):
        phase = state["phase"]
        if phase == "cut":
            return [state["cutter"]]
        if phase == "choose":
            return [state["chooser"]]
        if phase == "mystery":
            return [KEEPER]
        return []

    def is_over(self, state):
        return state["phase"] == "over"

    def legal_moves(self, state, seat):
        if not _is_int(seat) or seat not in self.to_move(state):
            return []
        phase = state["phase"]
        if phase == "cut":
            geo = geometry(state)
            return [{"type": "cut", "groups": [[list(geo.cells[i]) for i in g] for g in cut]}
                    for cut in _cut_sample(state)]
        if phase == "choose":
            geo = geometry(state)
            return [{"type": "choose", "cell": list(geo.cells[g[0]])} for g in state["cut"]]
        return [{"type": "mystery", "tile": i} for i, t in enumerate(state["hand"])
                if t is not None]

    # ------------------------------------------------------------------ moves
    def apply(self, state, seat, move):
        if not isinstance(move, dict):
            raise IllegalMove("bad_move", "A move must be an object with a \"type\".")
        kind = move.get("type")
        if kind not in ("cut", "choose", "mystery"):
            raise IllegalMove("unknown_move", "A move's type is \"cut\", \"choose\" or "
                                              "\"mystery\".")
        if not _is_int(seat) or not 0 <= seat < state["players"]:
            raise IllegalMove("bad_seat", "That seat is not part of this game.")
        if state["phase"] == "over":
            raise IllegalMove("game_over", "The game is over: all the cake has been eaten.")
        if seat not in self.to_move(state):
            raise IllegalMove("not_your_turn", self._waiting_for(state))
        expected = {"cut": "cut", "choose": "choose", "mystery": "mystery"}[state["phase"]]
        if kind != expected:
            raise IllegalMove("wrong_move", self._waiting_for(state))
        if kind == "cut":
            return self._cut(state, move)
        if kind == "choose":
            return self._choose(state, seat, move)
        return self._mystery(state, move)

    def _waiting_for(self, state):
        phase = state["phase"]
        if phase == "cut":
            return f"Now {seat_ref(state['cutter'])} cuts the cake into groups of 4."
        if phase == "choose":
            return f"Now {seat_ref(state['chooser'])} chooses a group to eat."
        return f"Now {seat_ref(KEEPER)} picks a Mystery tile for the Random tile."

    def _parse_cell(self, state, raw, geo=None):
        geo = geometry(state) if geo is None else geo
        if (not isinstance(raw, (list, tuple)) or len(raw) != 2
                or not all(_is_int(v) for v in raw)):
            raise IllegalMove("bad_cell", "A cell is written [x, y] with whole numbers.")
        cell = (raw[0], raw[1])
        i = geo.index.get(cell)
        if i is None:
            raise IllegalMove("off_cake", f"Cell {fmt_cell(cell)} is not on the cake.")
        if state["eaten"][i]:
            raise IllegalMove("eaten", f"Cell {fmt_cell(cell)} has been eaten.")
        return i

    def _parse_cut(self, state, move):
        groups = move.get("groups")
        if not isinstance(groups, list) or not groups:
            raise IllegalMove("bad_move", "A cut lists its groups: {\"type\": \"cut\", "
                                          "\"groups\": [[[x, y], [x, y], [x, y], [x, y]], "
                                          "...]}.")
        geo = geometry(state)
        owner = set()
        out = []
        for group in groups:
            if not isinstance(group, list) or len(group) != GROUP_SIZE:
                raise IllegalMove("group_size", "A group must have exactly 4 cells.")
            idxs = []
            for raw in group:
                i = self._parse_cell(state, raw, geo)
                if i in idxs:
                    raise IllegalMove("repeated_cell", f"Cell {fmt_cell(geo.cells[i])} is "
                                                       "twice in the same group.")
                if i in owner:
                    raise IllegalMove("overlap", f"Cell {fmt_cell(geo.cells[i])} is in two "
                                                 "groups.")
                idxs.append(i)
            if not connected(geo.cells[i] for i in idxs):
                raise IllegalMove("not_connected", "These 4 cells are not connected.")
            owner.update(idxs)
            out.append(sorted(idxs))
        missing = [geo.cells[i] for i, e in enumerate(state["eaten"])
                   if not e and i not in owner]
        if missing:
            are = "is" if len(missing) == 1 else "are"
            word = "Cell" if len(missing) == 1 else "Cells"
            raise IllegalMove("uncut", f"{word} {_cell_list(missing)} {are} not in any group: "
                                       "every uneaten cell must be cut.")
        out.sort()
        return out

    def _cut(self, state, move):
        groups = self._parse_cut(state, move)
        new = _copy(state)
        new["cut"] = groups
        new["phase"] = "choose"
        return new

    def _choose(self, state, seat, move):
        i = self._parse_cell(state, move.get("cell"))
        group = next(g for g in state["cut"] if i in g)
        new = _copy(state)
        new["cut"] = [g for g in new["cut"] if g is not group and g != group]
        randoms = [c for c in group if new["tiles"][c] is None]
        if new["mode"] == THREE and randoms:
            new["pending"] = {"group": list(group), "random": randoms, "chooser": seat}
            new["phase"] = "mystery"
            return new
        for c in randoms:
            if new["variant"] == STRATEGY:
                tile = new["mystery_at"][c]
            else:
                tile = new["pile"].pop(0)
                new["mystery_at"][c] = list(tile)
            new["revealed"].append([c, tile[0], tile[1]])
        self._eat(new, group, seat)
        return new

    def _mystery(self, state, move):
        i = move.get("tile")
        hand = state["hand"]
        if not _is_int(i) or not 0 <= i < len(hand):
            raise IllegalMove("bad_tile", f"Pick one of your Mystery tiles: a number from 0 to "
                                          f"{len(hand) - 1}.")
        if hand[i] is None:
            raise IllegalMove("tile_used", "That Mystery tile has already been played.")
        new = _copy(state)
        tile = new["hand"][i]
        new["hand"][i] = None
        pending = new["pending"]
        c = pending["random"].pop(0)
        new["mystery_at"][c] = list(tile)
        new["revealed"].append([c, tile[0], tile[1]])
        if not pending["random"]:
            new["pending"] = None
            self._eat(new, pending["group"], pending["chooser"])
        return new

    def _eat(self, state, group, chooser):
        """Score the chosen group (candle to the majority; solo: to the player's team only),
        flip it over and go on (next choice, next round, or the end)."""
        geo = geometry(state)
        berries = group_berries(state, group)
        winner = majority(berries)
        solo = state["mode"] == SOLO
        if winner is not None and (not solo or winner == state["team_of_seat"][0]):
            state["candles"][winner] += 1
            candle = winner
        else:
            candle = None
        for c in group:
            state["eaten"][c] = True
        state["history"].append({
            "round": state["round"],
            "cutter": state["cutter"],
            "chooser": chooser,
            "cells": [list(geo.cells[c]) for c in group],
            "berries": berries,
            "candle": candle,
            "mystery": [{"team": state["mystery_at"][c][0], "count": state["mystery_at"][c][1]}
                        for c in group if state["tiles"][c] is None],
        })
        if all(state["eaten"]):
            state["cut"] = None
            state["phase"] = "over"
            return
        if solo:
            state["chosen_this_round"] += 1
            if state["chosen_this_round"] < SOLO_CHOICES_PER_ROUND:
                state["phase"] = "choose"
                return
            state["chosen_this_round"] = 0
        else:
            state["cutter"], state["chooser"] = state["chooser"], state["cutter"]
        state["cut"] = None
        state["round"] += 1
        state["phase"] = "cut"

    # ------------------------------------------------------------------ view
    def _view_common(self, state):
        # Every seat sees this: the only secret, the face-down Mystery order, is in no view.
        geo = geometry(state)
        cells = []
        for i, (x, y) in enumerate(geo.cells):
            tile = state["tiles"][i]
            extra = state["mystery_at"][i]
            cells.append({
                "x": x, "y": y,
                "tile": {"kind": "random"} if tile is None else
                {"kind": "berries", "team": tile[0], "count": tile[1]},
                "eaten": state["eaten"][i],
                "mystery": None if extra is None else {"team": extra[0], "count": extra[1]},
            })
        cut = None
        cut_berries = None
        if state["cut"] is not None:
            cut = [[list(geo.cells[i]) for i in g] for g in state["cut"]]
            cut_berries = [self._group_counts(state, g) for g in state["cut"]]
        if state["mode"] == THREE:
            face_down = [{"tile": i, "team": t[0], "count": t[1]}
                         for i, t in enumerate(state["hand"]) if t is not None]
            left = len(face_down)
        elif state["variant"] == STRATEGY:
            face_down = [{"cell": list(geo.cells[i]), "team": t[0], "count": t[1]}
                         for i, t in enumerate(state["mystery_at"])
                         if t is not None and not state["eaten"][i]]
            left = len(face_down)
        else:
            face_down = left = len(state["pile"])
        pending = None
        if state["pending"] is not None:
            p = state["pending"]
            pending = {"group": [list(geo.cells[i]) for i in p["group"]],
                       "random": [list(geo.cells[i]) for i in p["random"]],
                       "chooser": p["chooser"]}
        over = state["phase"] == "over"
        out = {
            "game": GAME,
            "mode": state["mode"],
            "variant": state["variant"],
            "players": state["players"],
            "map_name": state["map"]["name"],
            "tile_mix": json.loads(json.dumps(state["map"]["tiles"])),
            "mystery_mix": json.loads(json.dumps(state["map"]["mystery"])),
            "teams": list(TEAM_NAMES),
            "team_of_seat": list(state["team_of_seat"]),
            "team_chooser": state["team_chooser"],
            "first_cutter": state["first_cutter"],
            "cells": cells,
            "cut": cut,
            "cut_berries": cut_berries,
            "candles": list(state["candles"]),
            "round": state["round"],
            "rounds": state["rounds"],
            "cutter": state["cutter"],
            "chooser": state["chooser"],
            "phase": state["phase"],
            "pending": pending,
            "mystery_revealed": [{"cell": list(geo.cells[c]), "team": t, "count": k}
                                 for c, t, k in state["revealed"]],
            "mystery_face_down": face_down,
            "mystery_left": left,
            "history": json.loads(json.dumps(state["history"])),
            "to_move": self.to_move(state),
            "is_over": over,
            "result": self.result(state) if over else None,
        }
        if state["mode"] == SOLO:
            out["choices_left"] = 0 if over or state["phase"] == "cut" else \
                SOLO_CHOICES_PER_ROUND - state["chosen_this_round"]
            out["chosen_this_round"] = state["chosen_this_round"]
        return out

    def _group_counts(self, state, group):
        berries = group_berries(state, group)
        return {"strawberries": berries[0], "blueberries": berries[1],
                "random": sum(1 for i in group if state["tiles"][i] is None
                              and state["mystery_at"][i] is None)}

    # ------------------------------------------------------------------ result
    def _solo_rating(self, state):
        """(candles, scaled candles, won, rating words): on a cake of G groups the candles
        count as floor(candles * 9 / G) against the rulebook's 9-group score sheet."""
        candles = state["candles"][state["team_of_seat"][0]]
        groups = len(state["map"]["cells"]) // GROUP_SIZE
        scaled = candles * SOLO_SCALE_GROUPS // groups
        words = [w for least, w in SOLO_RATINGS if scaled >= least][-1]
        return candles, scaled, scaled > SOLO_WIN_ABOVE, words

    def result(self, state):
        candles = state["candles"]
        team_of_seat = state["team_of_seat"]
        if state["mode"] == SOLO:
            n, scaled, won, words = self._solo_rating(state)
            won = won and state["phase"] == "over"
            return {
                "ranking": [{"seat": 0, "place": 1, "team": team_of_seat[0], "candles": n}],
                "winners": [0] if won else [],
                "decided_by": "solo",
                "won": won,
                "score": n,
                "rating": words,
                "outcome": f"{n} candle{'s' if n != 1 else ''}: {words}",
            }
        rows = [{"seat": s, "team": t, "candles": None if t is None else candles[t]}
                for s, t in enumerate(team_of_seat)]
        a, b = candles
        if a == b:
            if state["mode"] == THREE:
                winners, decided_by = [KEEPER], "third_player"
                outcome = f"Equal candles ({a} each): the Mystery keeper wins."
            else:
                winners, decided_by = [], "draw"
                outcome = f"Equal candles ({a} each): a draw."
        else:
            top = 0 if a > b else 1
            winners = [team_of_seat.index(top)]
            decided_by = "candles"
            outcome = f"{TEAM_NAMES[top]} rules Cakeland, {max(a, b)} candles to {min(a, b)}."
        for row in rows:
            row["place"] = 1 if row["seat"] in winners or (decided_by == "draw") else 2
        return {"ranking": rows, "winners": winners, "decided_by": decided_by,
                "outcome": outcome}

    # ------------------------------------------------------------------ around the table
    def progress(self, state):
        """Groups eaten, out of all the groups of the cake: the rounds played out of the
        rounds with two or three players (solo: a third of a round for each choice)."""
        if state["phase"] == "over":
            return 1.0
        return sum(1 for e in state["eaten"] if e) / max(1, len(state["eaten"]))

    def summary(self, state, seat):
        if not _is_int(seat) or not 0 <= seat < state["players"]:
            raise IllegalMove("bad_seat", "That seat is not part of this game.")
        team = state["team_of_seat"][seat]
        eaten = [0, 0]
        for entry in state["history"]:
            eaten[0] += entry["berries"][0]
            eaten[1] += entry["berries"][1]
        return [
            {"key": "team", "label": "Team",
             "value": KEEPER_NAME if team is None else TEAM_NAMES[team]},
            # the keeper has no candles: a dash, so no page or CSV ever shows "None"
            {"key": "candles", "label": "Candles",
             "value": KEEPER_NO_CANDLES if team is None else state["candles"][team]},
            {"key": BERRY_WORDS[0], "label": "Strawberries eaten", "value": eaten[0]},
            {"key": BERRY_WORDS[1], "label": "Blueberries eaten", "value": eaten[1]},
        ]

    def describe(self, before, move, after, seat, viewer):
        # Every line is public: it names tiles only once they are face up.
        who = seat_ref(seat)
        kind = move.get("type") if isinstance(move, dict) else None
        lines = []
        if kind == "cut":
            n = len(after["cut"] or [])
            lines.append(f"{who} cut the cake into {n} group{'s' if n != 1 else ''}.")
            return lines
        for _cell, team, count in after["revealed"][len(before["revealed"]):]:
            if kind == "mystery":
                lines.append(f"{who} played {tile_words(team, count)} Mystery tile on a Random "
                             "tile.")
            elif after["variant"] == STRATEGY:
                lines.append(f"The Random tile's face-up Mystery tile counts: "
                             f"{tile_words(team, count)} tile.")
            else:
                lines.append(f"A Random tile revealed {tile_words(team, count)} Mystery tile.")
        if kind == "choose" and after["pending"] is not None:
            n = len(after["pending"]["random"])
            lines.append(f"{who} chose a group with {n} Random tile{'s' if n != 1 else ''}: "
                         f"{seat_ref(KEEPER)} picks {'its' if n == 1 else 'their'} Mystery "
                         f"tile{'s' if n != 1 else ''}.")
        for entry in after["history"][len(before["history"]):]:
            lines.append(self._eat_line(after, entry))
        if after["phase"] == "over" and before["phase"] != "over":
            lines.append(self._end_line(after))
        elif after["phase"] == "cut" and before["round"] != after["round"]:
            if after["mode"] == SOLO:
                lines.append(f"Round {after['round']} of {after['rounds']}: {seat_ref(0)} "
                             "cuts the rest of the cake.")
            else:
                lines.append(f"Round {after['round']} of {after['rounds']}: "
                             f"{seat_ref(after['cutter'])} cuts, {seat_ref(after['chooser'])} "
                             "chooses.")
        return lines or [f"{who} moved."]

    def _eat_line(self, state, entry):
        berries = entry["berries"]
        order = [1, 0] if berries[1] > berries[0] else [0, 1]
        counts = ", ".join(f"{TEAM_NAMES[t]} {berries[t]}" for t in order)
        win = majority(berries)
        if win is None:
            verdict = "a tie, no candle"
        elif entry["candle"] is None:
            verdict = f"more {BERRY_WORDS[win]}, so no candle"
        else:
            verdict = f"a candle for {TEAM_NAMES[win]}"
        return f"{seat_ref(entry['chooser'])} ate a group: {counts} - {verdict}."

    def _end_line(self, state):
        if state["mode"] == SOLO:
            return f"All the cake is eaten. {self.result(state)['outcome']}"
        a, b = state["candles"]
        if a == b:
            if state["mode"] == THREE:
                return (f"All the cake is eaten: {a} candles each, so {seat_ref(KEEPER)}, the "
                        "Mystery keeper, wins!")
            return f"All the cake is eaten: {a} candles each - a draw."
        top = 0 if a > b else 1
        seat = state["team_of_seat"].index(top)
        return (f"All the cake is eaten: {TEAM_NAMES[top]} {max(a, b)} candles, "
                f"{TEAM_NAMES[1 - top]} {min(a, b)}. {seat_ref(seat)} rules Cakeland!")

    # ------------------------------------------------------------------ the lesson after the game
    # (berrymandering_lesson imports this module, so it is imported when first needed)
    ensemble_maps = 1000

    def lesson(self, state):
        from games.engine import berrymandering_lesson

        return berrymandering_lesson.lesson(state)

    def ensemble(self, state, *, seed, start, stop):
        from games.engine import berrymandering_lesson

        return berrymandering_lesson.ensemble(state, seed=seed, start=start, stop=stop)

    def ensemble_summary(self, state, seats_lists):
        from games.engine import berrymandering_lesson

        return berrymandering_lesson.ensemble_summary(state, seats_lists)

    # ------------------------------------------------------------------ hidden information
    def sample_state(self, view, seat, rng):
        """The position ``view`` shows, with the face-down Mystery tiles (the only hidden
        part: those not yet revealed) in an order drawn with ``rng``."""
        cells = [[c["x"], c["y"]] for c in view["cells"]]
        index = {(c[0], c[1]): i for i, c in enumerate(cells)}
        game_map = {"name": view["map_name"], "cells": cells,
                    "tiles": json.loads(json.dumps(view["tile_mix"])),
                    "mystery": json.loads(json.dumps(view["mystery_mix"]))}
        tiles = [None if c["tile"]["kind"] == "random" else [c["tile"]["team"],
                                                             c["tile"]["count"]]
                 for c in view["cells"]]
        mystery_at = [None if c["mystery"] is None else [c["mystery"]["team"],
                                                         c["mystery"]["count"]]
                      for c in view["cells"]]
        revealed = [[index[tuple(r["cell"])], r["team"], r["count"]]
                    for r in view["mystery_revealed"]]
        pile, hand = [], []
        if view["mode"] == THREE:
            hand = [None] * len(mystery_set(game_map["mystery"]))
            for t in view["mystery_face_down"]:
                hand[t["tile"]] = [t["team"], t["count"]]
        elif view["variant"] != STRATEGY:
            left = [tuple(t) for t in mystery_set(game_map["mystery"])]
            for _, team, count in revealed:
                if (team, count) in left:
                    left.remove((team, count))
            pile = [list(t) for t in left]
            rng.shuffle(pile)
        pending = None
        if view["pending"] is not None:
            p = view["pending"]
            pending = {"group": [index[tuple(c)] for c in p["group"]],
                       "random": [index[tuple(c)] for c in p["random"]],
                       "chooser": p["chooser"]}
        cut = None
        if view["cut"] is not None:
            cut = sorted(sorted(index[tuple(c)] for c in g) for g in view["cut"])
        return {
            "game": GAME,
            "version": 1,
            "mode": view["mode"],
            "variant": view["variant"],
            "players": view["players"],
            "map": game_map,
            "team_of_seat": list(view["team_of_seat"]),
            "team_chooser": view["team_chooser"],
            "first_cutter": view["first_cutter"],
            "tiles": tiles,
            "eaten": [bool(c["eaten"]) for c in view["cells"]],
            "cut": cut,
            "mystery_at": mystery_at,
            "revealed": revealed,
            "pile": pile,
            "hand": hand,
            "pending": pending,
            "history": json.loads(json.dumps(view["history"])),
            "candles": list(view["candles"]),
            "round": view["round"],
            "rounds": view["rounds"],
            "cutter": view["cutter"],
            "chooser": view["chooser"],
            "chosen_this_round": view.get("chosen_this_round", 0),
            "phase": view["phase"],
        }


BERRYMANDERING = BerrymanderingRules()
