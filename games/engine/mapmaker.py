"""Mapmaker: The Gerrymandering Game - the rules engine.

Reads beside the published rulebook, as ``docs/rules/mapmaker.md`` puts it in our words with
every ruling:

=================================  ============================================================
Rulebook / ruling                  Code
=================================  ============================================================
Components, Set Up (board tiers,   ``mapmaker_data`` (boards, tokens, quotas as data);
  one token per county)              ``MapmakerRules.setup``, ``_Board``
Gameplay: quotas 1, 2, 3, then 4   ``TURN_QUOTAS``; ``_settle`` / ``_advance_turn``
"cannot place them on edges of     ``_parse_border`` (codes ``edge_of_board``, ``off_board``,
  the board"                         ``not_adjacent``)
"cannot close off fewer than 4"    ``unsafe`` bridges from ``graph.analyse_component``;
                                     code ``too_small``
"not a district if it can be       ``graph.analyse_component`` (exact, linear time; the proof is
  split into smaller districts"      in ``graph.py``); ``_place_border`` forms every new district
"most votes wins the district"     ``_new_district``
"tie: whoever closed it chooses"   ``pending`` list + ``choose_winner`` move
"cannot place borders inside a     code ``inside_district``
  completed district"
"entire board split: game ends"    ``_settle``
The Winner (districts, swing       ``_standings`` / ``result`` (``decided_by``)
  counties, Supreme Court, shared)
Solo easy / competitive            ``mode`` ``"solo-easy"`` / ``"solo-competitive"``; ``undo``
=================================  ============================================================

Moves
-----
``{"type": "border", "between": [[q1, r1], [q2, r2]]}``  (the two counties the edge separates)
``{"type": "choose_winner", "party": p}``                (the closer settles a tied district)
``{"type": "undo"}``                                      (solo only: take back the last border)

``legal_moves`` lists border and choose_winner moves; undo is never listed (the view's
``can_undo`` says whether it is available).  In solo easy the player can get stuck: every
border left would close a tied district.  Then ``legal_moves`` is [] although the game is not
over (the view says ``stuck``) and only undo helps.

Speed: after each border only the component around it is looked at.  Usually even that is
avoided (``_border_effect``'s fast case: a remembered split of the component is re-checked
locally); otherwise one linear-time DFS (``graph.analyse_component``) decides everything.

State (internal, JSON)
----------------------
Counties are numbered by their order in the board data (only the counties in play), edges by
``_Board``.  ``borders`` holds edge ids in placement order, ``legal`` the sorted ids of the edges
where a border may go (kept up to date incrementally), ``district_of`` a district index or -1
per county, ``party_at`` / ``value_at`` the tokens, ``turn`` the global turn number (0-based),
``seat`` whose turn it is, ``left`` the borders left in this turn, ``pending`` the districts
whose tie awaits the closer's choice.  The seed is not stored.

View
----
``game``, ``mode`` ("multiplayer" | "solo-easy" | "solo-competitive"), ``board``, ``players``
(number of seats), ``seat`` (the viewer or null), ``parties`` (in play), ``party_names``
(indexed by party), ``party_of_seat``,
``counties``: [{"q", "r", "party" (int | null for the neutral), "value", "swing", "district"
(index | null)}],
``borders``: [[[q, r], [q, r]], ...] in placement order,
``districts``: [{"counties": [[q, r], ...], "winner" (party | null), "tied" (votes were tied
for the lead), "tied_parties", "votes" (list indexed by party, length 4), "closed_by" (seat)}],
``district_counts`` (list indexed by party, length 4), ``to_move``,
``turn``: {"number" (1-based, null in solo), "seat", "quota", "borders_left"},
``pending_choice``: null | {"seat", "district", "parties"},
``legal_moves`` (the viewer's, [] when not to move), ``counties_left`` (not yet in a district),
``is_over``, ``result`` (null until over);
solo modes add ``score``, ``borders_used``, ``can_undo``, ``lost`` (competitive: an untied
district was made), ``stuck`` (easy: no border is allowed, undo is needed).

Result
------
{"ranking": [{"seat", "party", "place" (1-based; equal standings share a place), "districts",
"swing_counties", "own_votes"}], "winners": [seats], "decided_by": "districts" |
"swing_counties" | "supreme_court" | "shared" | "solo"}; solo adds "score", "won",
"borders_used" (and "lost").  Solo easy: districts = own party's, won = more than the other
party's, score = own minus other.  Solo competitive: districts = all (tied) districts, won =
game finished with every district tied, score = 10 per district minus 1 per border (while
playing: the running count; a lost attempt, one with an untied district, scores 0).
"""

import random
from bisect import bisect_left

from games.engine.base import IllegalMove, Mode, Option, Rules, SharedViews, seat_ref
from games.engine.base import is_int as _is_int
from games.engine.graph import MIN_SIDE, analyse_component
from games.engine.hexgrid import connected as hex_connected
from games.engine.mapmaker_data import (
    BOARDS,
    NEUTRAL_TOKEN_VALUES,
    PARTY_NAMES,
    PARTY_TOKEN_VALUES,
    SWING_VALUES,
    TURN_QUOTAS,
)

MULTIPLAYER = "multiplayer"
SOLO_EASY = "solo-easy"
SOLO_COMPETITIVE = "solo-competitive"
SOLO_MODES = (SOLO_EASY, SOLO_COMPETITIVE)
SOLO_PARTIES = [0, 1]

# axial neighbour directions; the first three reach every edge once
DIRECTIONS = [(1, 0), (0, 1), (1, -1), (-1, 0), (0, -1), (-1, 1)]


def _counties(k):
    return "1 county" if k == 1 else f"{k} counties"


class _Board:
    """Precomputed geometry of one board at one tier (cached per board and tier)."""

    def __init__(self, name, tier, data):
        self.name = name
        self.tier = tier
        self.coords = [(q, r) for q, r, m in data if m <= tier]
        self.all_coords = {(q, r) for q, r, _ in data}
        self.index = {c: i for i, c in enumerate(self.coords)}
        ends = []
        for i, (q, r) in enumerate(self.coords):
            for dq, dr in DIRECTIONS[:3]:
                j = self.index.get((q + dq, r + dr))
                if j is not None:
                    ends.append((i, j) if i < j else (j, i))
        ends.sort()
        self.ends = ends
        self.edge_of = {}
        nbrs = [[] for _ in self.coords]
        for e, (i, j) in enumerate(ends):
            self.edge_of[(i, j)] = e
            self.edge_of[(j, i)] = e
            nbrs[i].append((j, e))
            nbrs[j].append((i, e))
        self.nbrs = [tuple(sorted(n)) for n in nbrs]
        # tri[e]: for each county z touching both ends of e: (z, edge x-z, edge y-z)
        self.tri = []
        for x, y in ends:
            near_x = dict(self.nbrs[x])
            self.tri.append(tuple((z, near_x[z], f) for z, f in self.nbrs[y] if z in near_x))
        self.border_coords = [self.coords[x] + self.coords[y] for x, y in ends]
        self.size = len(self.coords)
        self.memo = {}  # brute-force cache for 8- and 9-county groups
        self.coord_lists = [[q, r] for q, r in self.coords]


_BOARD_CACHE = {}


def board_for(name, tier, counties=None):
    """The board called ``name`` at ``tier``; ``counties`` (map data rows ``[q, r,
    min_players]``) for a board that came with the game instead of ``BOARDS``."""
    key = (name, tier) if counties is None else (tier, tuple(map(tuple, counties)))
    board = _BOARD_CACHE.get(key)
    if board is None:
        if len(_BOARD_CACHE) > 256:
            _BOARD_CACHE.clear()
        data = BOARDS[name]["counties"] if counties is None else counties
        board = _BOARD_CACHE[key] = _Board(name, tier, data)
    return board


def _board(state):
    return board_for(state["board"], state["tier"], state.get("counties"))


def _copy(state):
    """A copy sharing no mutable container with ``state`` (cheaper than deepcopy)."""
    new = dict(state)
    for key in ("party_of_seat", "parties", "party_at", "value_at", "borders", "legal",
                "district_of", "side", "pending"):
        new[key] = list(state[key])
    new["districts"] = [
        {
            "counties": list(d["counties"]),
            "votes": list(d["votes"]),
            "winner": d["winner"],
            "tied_parties": list(d["tied_parties"]),
            "closed_by": d["closed_by"],
        }
        for d in state["districts"]
    ]
    return new


def _fresh_state(*, mode, players, tier, board, party_of_seat, parties, party_at, value_at,
                 first_seat, counties=None):
    """The state before any border, for a given token layout (``counties``: the rows of a
    board that came as map data, kept in the state so the game never depends on it again)."""
    b = board_for(board, tier, counties)
    state = {
        "game": "mapmaker",
        "version": 1,
        "mode": mode,
        "players": players,
        "board": board,
        "tier": tier,
        "party_of_seat": list(party_of_seat),
        "parties": list(parties),
        "first_seat": first_seat,
        "party_at": list(party_at),
        "value_at": list(value_at),
        "borders": [],
        "legal": [],
        "district_of": [-1] * b.size,
        "side": [-1] * b.size,
        "districts": [],
        "districted": 0,
        "turn": 0,
        "seat": first_seat,
        "left": TURN_QUOTAS[0] if mode == MULTIPLAYER else None,
        "pending": [],
        "over": False,
        "lost": False,
    }
    if counties is not None:
        state["counties"] = [list(row) for row in counties]
    # Every starting component (the board is normally one) is analysed like any later one.
    seen = set()
    legal = []
    for v in range(b.size):
        if v in seen:
            continue
        verts, free, split, unsafe, witness = analyse_component(v, b.nbrs, frozenset(), b.memo)
        seen.update(verts)
        if split:
            bad = set(unsafe)
            legal.extend(e for e in free if e not in bad)
            _mark_witness(state["side"], verts, witness)
        else:
            _new_district(state, verts, None)
    legal.sort()
    state["legal"] = legal
    _settle(state)
    return state


def _tally(state, verts):
    """Votes per party in ``verts`` (the token values), and the parties in the lead."""
    party_at = state["party_at"]
    value_at = state["value_at"]
    votes = [0, 0, 0, 0]
    for c in verts:
        p = party_at[c]
        if p is not None:
            votes[p] += value_at[c]
    top = max(votes[p] for p in state["parties"])
    return votes, [p for p in state["parties"] if votes[p] == top]


def _new_district(state, verts, closer):
    """Record a new district; returns its index and the parties tied for the lead."""
    votes, leaders = _tally(state, verts)
    index = len(state["districts"])
    district_of = state["district_of"]
    for c in verts:
        district_of[c] = index
    state["districted"] += len(verts)
    state["districts"].append(
        {
            "counties": sorted(verts),
            "votes": votes,
            "winner": leaders[0] if len(leaders) == 1 else None,
            "tied_parties": leaders if len(leaders) > 1 else [],
            "closed_by": closer,
        }
    )
    return index, leaders


def _mark_witness(side, verts, witness):
    """Remember a split of a component: 1 on one side, 0 on the other (-1: none known)."""
    if witness is None:
        for v in verts:
            side[v] = -1
    else:
        for v in verts:
            side[v] = 0
        for v in witness:
            side[v] = 1


def _border_effect(state, board, e):
    """What a border on legal edge ``e`` = (a, b) does to the component C around it.

    Returns ``(None, newly_unsafe)`` in the common fast case, proven without searching all of
    C: a short border-free path from a to b inside one side of the split of C remembered in
    ``side`` shows that C minus e stays connected and that this split still works (so C minus
    e is still splittable: no district forms); the edges that become unsafe are found
    locally by ``_newly_unsafe``.  Otherwise ``(comps, None)`` with the full analysis
    ``comps = [(verts, free_edges, splittable, unsafe_edges, witness), ...]`` of the one or two
    components around e.
    """
    bordered = set(state["borders"])
    bordered.add(e)
    a, b = board.ends[e]
    side = state["side"]
    sa = side[a]
    if sa >= 0 and _short_path(board, bordered, side, e):
        return None, _newly_unsafe(board, bordered, a) + _newly_unsafe(board, bordered, b)
    first = analyse_component(a, board.nbrs, bordered, board.memo)
    if b in first[0]:
        return [first], None
    return [first, analyse_component(b, board.nbrs, bordered, board.memo)], None


def _short_path(board, bordered, side, e, limit=24):
    """Is there a border-free path from a to b (a, b on the same side: within that side)?

    A bounded search: False also when no path was found among the first ``limit`` counties.
    """
    a, b = board.ends[e]
    sa = side[a]
    same = sa == side[b]
    for z, eaz, ebz in board.tri[e]:
        if eaz not in bordered and ebz not in bordered and (not same or side[z] == sa):
            return True
    nbrs = board.nbrs
    seen = {a}
    todo = [a]
    for v in todo:
        for u, f in nbrs[v]:
            if f in bordered or u in seen or (same and side[u] != sa):
                continue
            if u == b:
                return True
            seen.add(u)
            todo.append(u)
        if len(todo) >= limit:
            return False
    return False


def _newly_unsafe(board, bordered, a):
    """Edges f that cut off a group S of at most 3 counties containing ``a`` (after the
    border next to a).  A county of such a group keeps at most 3 border-free edges (at most 2
    inside S, plus f), so counties with 4 or more are skipped at once."""
    nbrs = board.nbrs
    fa = [(u, f) for u, f in nbrs[a] if f not in bordered]
    if len(fa) >= 4:
        return []
    free = {a: fa}

    def free_of(v):
        got = free.get(v)
        if got is None:
            got = free[v] = [(u, f) for u, f in nbrs[v] if f not in bordered]
        return got

    found = []
    groups = [frozenset([a])]
    seen = set(groups)
    for group in groups:
        out = [(u, f) for v in group for u, f in free_of(v) if u not in group]
        if len(out) == 1:
            found.append(out[0][1])
        if len(group) < 3:
            for u, _ in out:
                bigger = group | {u}
                if bigger not in seen and len(free_of(u)) <= 3:
                    seen.add(bigger)
                    groups.append(bigger)
    return found


def _place_border(state, board, e, seat, effect):
    """Put the border on ``e`` into ``state`` (already copied) with its computed effect."""
    state["borders"].append(e)
    mode = state["mode"]
    comps, extra = effect
    if comps is None:  # the fast case of _border_effect
        legal = state["legal"]
        for f in (e, *extra):
            i = bisect_left(legal, f)
            if i < len(legal) and legal[i] == f:
                del legal[i]
        if mode == MULTIPLAYER:
            state["left"] -= 1
        _settle(state)
        return
    legal = set(state["legal"])
    legal.discard(e)
    side = state["side"]
    for verts, free, split, unsafe, witness in comps:
        legal.difference_update(free)
        if split:
            legal.update(free)
            legal.difference_update(unsafe)
            _mark_witness(side, verts, witness)
        else:
            for v in verts:
                side[v] = -1
            index, leaders = _new_district(state, verts, seat)
            if len(leaders) > 1:
                if mode == MULTIPLAYER:
                    state["pending"].append(index)
            elif mode == SOLO_COMPETITIVE:
                state["lost"] = True
    state["legal"] = sorted(legal)
    if mode == MULTIPLAYER:
        state["left"] -= 1
    _settle(state)


def _settle(state):
    """End the game or the turn when due (not while a tie choice is pending)."""
    if state["pending"]:
        return
    if state["districted"] == len(state["district_of"]) or state["lost"]:
        state["over"] = True
        return
    if state["mode"] == MULTIPLAYER and state["left"] <= 0:
        _advance_turn(state)


def _advance_turn(state):
    state["turn"] += 1
    state["seat"] = (state["seat"] + 1) % state["players"]
    state["left"] = TURN_QUOTAS[min(state["turn"], len(TURN_QUOTAS) - 1)]


def _replay(state, borders):
    """The state reached from ``state``'s starting layout by placing ``borders`` (undo)."""
    new = _fresh_state(
        mode=state["mode"], players=state["players"], tier=state["tier"],
        board=state["board"], party_of_seat=state["party_of_seat"], parties=state["parties"],
        party_at=state["party_at"], value_at=state["value_at"], first_seat=state["first_seat"],
        counties=state.get("counties"),
    )
    board = _board(new)
    for e in borders:
        _place_border(new, board, e, 0, _border_effect(new, board, e))
    return new


def _map_counties(data):
    """The ``[q, r, min_players]`` rows of map data, or raise ``ValueError`` saying why not."""
    if not isinstance(data, dict):
        raise ValueError("A Mapmaker map must be an object with a list of \"counties\".")
    rows = data.get("counties")
    if not isinstance(rows, list) or not rows:
        raise ValueError("A Mapmaker map needs \"counties\": a list of [q, r, min_players].")
    out, seen = [], set()
    for row in rows:
        if (not isinstance(row, (list, tuple)) or len(row) != 3
                or not all(_is_int(x) for x in row)):
            raise ValueError(f"Each county is [q, r, min_players] in whole numbers, not {row!r}.")
        q, r, m = row
        if not 1 <= m <= 4:
            raise ValueError(f"The county at ({q},{r}) has min_players {m}; it must be 1 to 4.")
        if (q, r) in seen:
            raise ValueError(f"The county at ({q},{r}) is listed twice.")
        if abs(q) > 1000 or abs(r) > 1000:
            raise ValueError(f"The county at ({q},{r}) is too far from the centre.")
        seen.add((q, r))
        out.append([q, r, m])
    return out


def _map_tokens(data):
    """(party token values, neutral token values) of map data (default: the published mix)."""
    tokens = data.get("tokens") if isinstance(data, dict) else None
    if tokens is None:
        return list(PARTY_TOKEN_VALUES), list(NEUTRAL_TOKEN_VALUES)
    party, neutral = (tokens.get("party"), tokens.get("neutral", [])) \
        if isinstance(tokens, dict) else (None, None)
    for values in (party, neutral):
        if not isinstance(values, list) or not all(_is_int(v) and 0 <= v <= 99 for v in values):
            raise ValueError("The token mix is {\"party\": [values], \"neutral\": [values]} with "
                             "whole numbers from 0 to 99.")
    if not party:
        raise ValueError("Each party needs at least one voter token.")
    return party, neutral


def _tokens_needed(players, party, neutral):
    parties = 2 if players == 1 else players
    return parties * len(party) + len(neutral)



def map_players(data):
    """``(player counts the map can be played with, problems)``; solo is played like 2."""
    try:
        rows = _map_counties(data)
        party, neutral = _map_tokens(data)
    except ValueError as exc:
        return [], [str(exc)]
    problems, offered = [], []
    before = None
    for players in (2, 3, 4):
        coords = [(q, r) for q, r, m in rows if m <= players]
        if players > 2 and len(coords) == before:
            continue  # no counties join at this player count: not offered
        before = len(coords)
        need = _tokens_needed(players, party, neutral)
        ok = True
        if len(coords) != need:
            problems.append(f"With {players} players the board has {_counties(len(coords))} in "
                            f"play but there are {need} voter tokens: it needs exactly one "
                            "county per token.")
            ok = False
        if not hex_connected(coords):
            problems.append(f"With {players} players the counties in play are not all "
                            "connected: every county must touch the rest of the board.")
            ok = False
        if ok:
            offered.append(players)
    return offered, problems


def _border_turns(count):
    """The global turn of each of the first ``count`` borders of a multiplayer game."""
    turns = []
    turn = 0
    while len(turns) < count:
        turns.extend([turn] * TURN_QUOTAS[min(turn, len(TURN_QUOTAS) - 1)])
        turn += 1
    return turns[:count]


def _party_list(parties):
    names = [PARTY_NAMES[p] for p in parties]
    if len(names) <= 2:
        return " and ".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


SOLO_PARTY_OPTION = Option(
    "party", "Your party", ((1, "Blue Donkeys"), (0, "Red Elephants")), 1,
    modes=SOLO_MODES,
)


class MapmakerRules(SharedViews, Rules):
    name = "mapmaker"
    title = "Mapmaker: The Gerrymandering Game"
    players_min = 2
    players_max = 4
    imperfect_information = False
    simultaneous = False
    modes = (
        Mode("2", "2 players", {"players": 2}),
        Mode("3", "3 players", {"players": 3}),
        Mode("4", "4 players", {"players": 4}),
        Mode(SOLO_EASY, "Solo: easy (win as many districts as you can)", {"mode": SOLO_EASY},
             solo=True),
        Mode(SOLO_COMPETITIVE, "Solo: competitive districts (tie every district)",
             {"mode": SOLO_COMPETITIVE}, solo=True),
    )
    options = (SOLO_PARTY_OPTION,)
    decided_by = {
        "districts": "most districts",
        "swing_counties": "tie-break: swing counties",
        "supreme_court": "tie-break: Supreme Court",
        "shared": "shared win",
        "solo": "solo",
    }

    # ------------------------------------------------------------------ setup
    def _parse_options(self, options):
        """``(mode, players, board name, map rows or None, token mix)`` or IllegalMove."""
        if not isinstance(options, dict):
            raise IllegalMove("bad_options", "The game options must be a dictionary.")
        mode = options.get("mode", MULTIPLAYER)
        if mode is None:
            mode = MULTIPLAYER
        if mode not in (MULTIPLAYER, *SOLO_MODES):
            raise IllegalMove(
                "bad_options", "The mode must be solo-easy or solo-competitive (or left out)."
            )
        if mode == MULTIPLAYER:
            players = options.get("players")
            if not _is_int(players) or not 2 <= players <= 4:
                raise IllegalMove("bad_options", "Mapmaker needs 2, 3 or 4 players.")
        else:
            players = options.get("players", 1)
            if players != 1 or isinstance(players, bool):
                raise IllegalMove("bad_options", "A solo game has exactly one player.")
        data = options.get("map")
        if data is None:
            board = options.get("board", "standard")
            if not isinstance(board, str) or board not in BOARDS:
                raise IllegalMove("bad_options", f"There is no board called {board!r}.")
            return mode, players, board, None, (PARTY_TOKEN_VALUES, NEUTRAL_TOKEN_VALUES)
        offered, problems = map_players(data)
        if problems and not offered:
            raise IllegalMove("bad_options", f"This map cannot be played: {problems[0]}")
        if max(players, 2) not in offered:
            counts = " or ".join(str(p) for p in offered)
            raise IllegalMove("bad_options", f"This map is for {counts} players.")
        name = data.get("name") if isinstance(data.get("name"), str) else "map"
        return mode, players, name[:80] or "map", _map_counties(data), _map_tokens(data)

    def seat_count(self, options):
        return self._parse_options(options)[1]

    def map_check(self, data):
        offered, problems = map_players(data)
        if not offered and not problems:  # pragma: no cover - map_players always says why
            problems = ["This map offers no player count."]
        return problems

    def setup(self, options, seed):
        mode, players, board, rows, (party_values, neutral_values) = self._parse_options(options)
        rng = random.Random(seed)
        if mode == MULTIPLAYER:
            tier = players
            party_of_seat = list(range(players))
            parties = list(party_of_seat)
        else:
            party = options.get("party", 1)
            if not _is_int(party) or party not in SOLO_PARTIES:
                raise IllegalMove(
                    "bad_options",
                    "In a solo game you play the Red Elephants (0) or the Blue Donkeys (1).",
                )
            tier = 1
            party_of_seat = [party]
            parties = list(SOLO_PARTIES)
        first_seat = options.get("first_seat")
        if first_seat is None:
            first_seat = rng.randrange(players) if players > 1 else 0
        elif not _is_int(first_seat) or not 0 <= first_seat < players:
            raise IllegalMove("bad_options", f"The first seat must be between 0 and {players - 1}.")
        b = board_for(board, tier, rows)
        tokens = [(p, v) for p in parties for v in party_values]
        tokens += [(None, v) for v in neutral_values]
        if len(tokens) != b.size:
            raise IllegalMove(
                "bad_options",
                f"This board has {b.size} counties in play but there are {len(tokens)} "
                "voter tokens; there must be exactly one per county.",
            )
        rng.shuffle(tokens)
        return _fresh_state(
            mode=mode, players=players, tier=tier, board=board, party_of_seat=party_of_seat,
            parties=parties, party_at=[p for p, _ in tokens], value_at=[v for _, v in tokens],
            first_seat=first_seat, counties=rows,
        )

    # ------------------------------------------------------------------ queries
    def to_move(self, state):
        if state["over"]:
            return []
        if state["mode"] == MULTIPLAYER:
            return [state["seat"]]
        return [0]

    def is_over(self, state):
        return bool(state["over"])

    def legal_moves(self, state, seat):
        if not _is_int(seat) or seat not in self.to_move(state):
            return []
        if state["pending"]:
            d = state["districts"][state["pending"][0]]
            return [{"type": "choose_winner", "party": p} for p in d["tied_parties"]]
        moves = self._border_moves(state)
        if not moves and state["mode"] == SOLO_EASY:
            return [{"type": "undo"}]  # stuck: every border left would close a tied district
        return moves

    def _border_moves(self, state):
        board = _board(state)
        legal = state["legal"]
        if state["mode"] == SOLO_EASY:
            legal = [e for e in legal if not self._makes_tie(state, board, e)]
        return [
            {"type": "border", "between": [[qa, ra], [qb, rb]]}
            for qa, ra, qb, rb in map(board.border_coords.__getitem__, legal)
        ]

    def _makes_tie(self, state, board, e):
        return bool(self._tied_closures(state, board, _border_effect(state, board, e)))

    def _tied_closures(self, state, board, effect):
        """Leaders of each tied district a border's effect would form (solo easy check)."""
        ties = []
        for verts, _free, split, _unsafe, _witness in effect[0] or ():
            if split:
                continue
            votes, leaders = _tally(state, verts)
            if len(leaders) > 1:
                ties.append((leaders, votes[leaders[0]]))
        return ties

    # ------------------------------------------------------------------ apply
    def apply(self, state, seat, move):
        n_seats = state["players"]
        if not _is_int(seat) or not 0 <= seat < n_seats:
            raise IllegalMove("bad_seat", "That seat is not part of this game.")
        if not isinstance(move, dict):
            raise IllegalMove("bad_move", "A move must be a dictionary with a \"type\".")
        kind = move.get("type")
        if kind == "undo":
            return self._undo(state)
        if kind not in ("border", "choose_winner"):
            raise IllegalMove(
                "bad_move", "Unknown move: a move is a border, a winner choice or an undo."
            )
        if state["over"]:
            raise IllegalMove("game_over", "The game is over; no more moves can be made.")
        if seat not in self.to_move(state):
            raise IllegalMove("not_your_turn", "It is not your turn.")
        if kind == "choose_winner":
            return self._choose(state, seat, move)
        board = _board(state)
        e = self._parse_border(board, move)
        if state["pending"]:
            raise IllegalMove(
                "choice_pending",
                "First choose who wins the tied district you just closed.",
            )
        legal = state["legal"]
        i = bisect_left(legal, e)
        if i == len(legal) or legal[i] != e:
            self._explain_illegal(state, board, e)
        effect = _border_effect(state, board, e)
        if state["mode"] == SOLO_EASY:
            ties = self._tied_closures(state, board, effect)
            if ties:
                leaders, top = ties[0]
                raise IllegalMove(
                    "tie_not_allowed",
                    f"That border would close a district where {_party_list(leaders)} are "
                    f"tied with {top} votes each. In the easy solo game no district may be tied.",
                )
        new = _copy(state)
        _place_border(new, board, e, seat, effect)
        return new

    def _parse_border(self, board, move):
        between = move.get("between")
        shape_error = IllegalMove(
            "bad_move",
            "A border move needs \"between\": the two counties it separates, as [[q, r], [q, r]].",
        )
        if not isinstance(between, (list, tuple)) or len(between) != 2:
            raise shape_error
        cells = []
        for c in between:
            if (not isinstance(c, (list, tuple)) or len(c) != 2
                    or not _is_int(c[0]) or not _is_int(c[1])):
                raise shape_error
            cells.append((c[0], c[1]))
        (q1, r1), (q2, r2) = cells
        dq, dr = q2 - q1, r2 - r1
        if (dq, dr) not in DIRECTIONS:
            raise IllegalMove(
                "not_adjacent",
                "A border goes between two counties that touch; these two do not.",
            )
        a = board.index.get(cells[0])
        b = board.index.get(cells[1])
        if a is None and b is None:
            raise IllegalMove("off_board", "Those counties are not on the board in this game.")
        if a is None or b is None:
            raise IllegalMove(
                "edge_of_board",
                "That is the edge of the board; it already acts as a border.",
            )
        return board.edge_of[(a, b)]

    def _explain_illegal(self, state, board, e):
        if e in set(state["borders"]):
            raise IllegalMove("already_bordered", "There is already a border there.")
        a, b = board.ends[e]
        if state["district_of"][a] >= 0:
            raise IllegalMove(
                "inside_district",
                "That edge is inside a finished district; you cannot place borders there.",
            )
        bordered = set(state["borders"])
        bordered.add(e)
        side = analyse_component(a, board.nbrs, bordered)[0]
        other = analyse_component(b, board.nbrs, bordered)[0]
        k = min(len(side), len(other))
        raise IllegalMove(
            "too_small",
            f"That border would leave {_counties(k)} on their own; every district needs at "
            f"least {MIN_SIDE}.",
        )

    def _choose(self, state, seat, move):
        if not state["pending"]:
            raise IllegalMove("no_choice_pending", "There is no tied district to decide.")
        party = move.get("party")
        d = state["districts"][state["pending"][0]]
        if not _is_int(party) or party not in d["tied_parties"]:
            raise IllegalMove(
                "not_tied_party",
                f"Choose one of the tied parties: {_party_list(d['tied_parties'])}.",
            )
        new = _copy(state)
        index = new["pending"].pop(0)
        new["districts"][index]["winner"] = party
        _settle(new)
        return new

    def _undo(self, state):
        if state["mode"] == MULTIPLAYER:
            raise IllegalMove("undo_not_allowed", "Undo is only allowed in solo games.")
        if not state["borders"]:
            raise IllegalMove("nothing_to_undo", "There is no border to take back.")
        return _replay(state, state["borders"][:-1])

    # ------------------------------------------------------------------ view & result
    def _view_common(self, state):
        board = _board(state)
        coords = board.coords
        swing = set(SWING_VALUES)
        counties = []
        for i, (q, r) in enumerate(coords):
            d = state["district_of"][i]
            v = state["value_at"][i]
            counties.append({
                "q": q, "r": r, "party": state["party_at"][i], "value": v,
                "swing": v in swing, "district": None if d < 0 else d,
            })
        borders = []
        for e in state["borders"]:
            a, b = board.ends[e]
            borders.append([list(coords[a]), list(coords[b])])
        districts = []
        counts = [0, 0, 0, 0]
        for d in state["districts"]:
            if d["winner"] is not None:
                counts[d["winner"]] += 1
            districts.append({
                "counties": [list(coords[c]) for c in d["counties"]],
                "winner": d["winner"],
                "tied": bool(d["tied_parties"]),
                "tied_parties": list(d["tied_parties"]),
                "votes": list(d["votes"]),
                "closed_by": d["closed_by"],
            })
        pending = None
        if state["pending"] and not state["over"]:
            index = state["pending"][0]
            d = state["districts"][index]
            pending = {"seat": d["closed_by"], "district": index,
                       "parties": list(d["tied_parties"])}
        solo = state["mode"] != MULTIPLAYER
        if solo:
            turn = {"number": None, "seat": 0, "quota": None, "borders_left": None}
        else:
            k = state["turn"]
            turn = {"number": k + 1, "seat": state["seat"],
                    "quota": TURN_QUOTAS[min(k, len(TURN_QUOTAS) - 1)],
                    "borders_left": state["left"]}
        out = {
            "game": "mapmaker",
            "mode": state["mode"],
            "board": state["board"],
            "players": state["players"],
            "parties": list(state["parties"]),
            "party_names": list(PARTY_NAMES),
            "party_of_seat": list(state["party_of_seat"]),
            "first_seat": state["first_seat"],
            "counties": counties,
            "borders": borders,
            # the turn each border was placed in (multiplayer: turns never end early, so this
            # follows from the quotas); the board marks the last turn's borders
            "border_turns": None if solo else _border_turns(len(borders)),
            "districts": districts,
            "district_counts": counts,
            "counties_left": board.size - state["districted"],
            "to_move": self.to_move(state),
            "turn": turn,
            "pending_choice": pending,
            "is_over": self.is_over(state),
            "result": self.result(state) if state["over"] else None,
        }
        if solo:
            out["score"] = self._solo_score(state)
            out["borders_used"] = len(state["borders"])
            out["can_undo"] = bool(state["borders"])
            out["lost"] = bool(state["lost"])
            out["stuck"] = not state["over"] and not state["pending"] \
                and not self._border_moves(state)
        return out

    def _standings(self, state):
        swing = set(SWING_VALUES)
        rows = []
        for seat, party in enumerate(state["party_of_seat"]):
            districts = swing_count = own_votes = 0
            for d in state["districts"]:
                if d["winner"] != party:
                    continue
                districts += 1
                for c in d["counties"]:
                    if state["value_at"][c] in swing:
                        swing_count += 1
                    if state["party_at"][c] == party:
                        own_votes += state["value_at"][c]
            rows.append({"seat": seat, "party": party, "districts": districts,
                         "swing_counties": swing_count, "own_votes": own_votes})
        return rows

    def _solo_score(self, state):
        if state["mode"] == SOLO_EASY:
            own = state["party_of_seat"][0]
            mine = sum(1 for d in state["districts"] if d["winner"] == own)
            return mine - (len(state["districts"]) - mine)
        if state["lost"]:  # "You only win if every district is tied. You then score ..."
            return 0
        return 10 * len(state["districts"]) - len(state["borders"])

    def result(self, state):
        rows = self._standings(state)
        if state["mode"] != MULTIPLAYER:
            row = rows[0]
            own = row["party"]
            if state["mode"] == SOLO_EASY:
                mine = row["districts"]
                won = state["over"] and mine > len(state["districts"]) - mine
            else:
                row["districts"] = len(state["districts"])
                won = state["over"] and not state["lost"]
            row["place"] = 1
            return {
                "ranking": [row],
                "winners": [0] if won else [],
                "decided_by": "solo",
                "score": self._solo_score(state),
                "won": bool(won),
                "lost": bool(state["lost"]),
                "borders_used": len(state["borders"]),
                "party": own,
            }

        def key(row):  # most districts, most swing counties, fewest own votes (Supreme Court)
            return (-row["districts"], -row["swing_counties"], row["own_votes"])

        keys = [key(r) for r in rows]
        for r, k in zip(rows, keys, strict=True):
            r["place"] = 1 + sum(1 for other in keys if other < k)
        ranking = sorted(rows, key=lambda r: (r["place"], r["seat"]))
        top = rows
        decided_by = "shared"
        for rule, field, best in (("districts", "districts", max),
                                  ("swing_counties", "swing_counties", max),
                                  ("supreme_court", "own_votes", min)):
            target = best(r[field] for r in top)
            top = [r for r in top if r[field] == target]
            if len(top) == 1:
                decided_by = rule
                break
        return {
            "ranking": [{k: r[k] for k in ("seat", "party", "place", "districts",
                                           "swing_counties", "own_votes")} for r in ranking],
            "winners": sorted(r["seat"] for r in top),
            "decided_by": decided_by,
        }


    # ------------------------------------------------------------------ around the table
    def progress(self, state):
        """Counties districted, out of all counties (a lost solo game is over: 1)."""
        if state.get("over"):
            return 1.0
        return state["districted"] / max(1, len(state["district_of"]))

    def summary(self, state, seat):
        party = state["party_of_seat"][seat]
        items = [{"key": "party", "label": "Party", "value": PARTY_NAMES[party]}]
        if state["mode"] == MULTIPLAYER:
            row = self._standings(state)[seat]
            return items + [
                {"key": "districts", "label": "Districts", "value": row["districts"]},
                {"key": "swing_counties", "label": "Swing counties",
                 "value": row["swing_counties"]},
                {"key": "own_votes", "label": "Own votes in own districts",
                 "value": row["own_votes"]},
            ]
        mine = sum(1 for d in state["districts"] if d["winner"] == party)
        if state["mode"] == SOLO_EASY:
            districts = {"key": "districts", "label": "Districts", "value": mine}
        else:
            districts = {"key": "districts", "label": "Tied districts",
                         "value": sum(1 for d in state["districts"] if d["tied_parties"])}
        return items + [
            districts,
            {"key": "borders", "label": "Borders", "value": len(state["borders"])},
            {"key": "score", "label": "Score", "value": self._solo_score(state)},
        ]

    def describe(self, before, move, after, seat, viewer):
        who = seat_ref(seat)
        kind = move.get("type")
        if kind == "undo":
            return [f"{who} took back the last border."]
        if kind == "choose_winner":
            return [f"{who} gave the tied district to the {PARTY_NAMES[move['party']]}."]
        lines = [f"{who} placed a border."]
        for d in after["districts"][len(before["districts"]):]:
            votes = d["votes"]
            ranked = sorted(after["parties"], key=lambda p: -votes[p])
            if d["winner"] is not None and not d["tied_parties"]:
                runner = votes[ranked[1]] if len(ranked) > 1 else 0
                lines.append(f"The {PARTY_NAMES[d['winner']]} won a district "
                             f"{votes[d['winner']]} to {runner}.")
            elif after["mode"] == MULTIPLAYER:
                lines.append(f"A district is tied: {_party_list(d['tied_parties'])} have "
                             f"{votes[d['tied_parties'][0]]} votes each, so "
                             f"{seat_ref(d['closed_by'])} chooses who wins it.")
            else:
                lines.append(f"A tied district: {_party_list(d['tied_parties'])} have "
                             f"{votes[d['tied_parties'][0]]} votes each.")
        if after["over"] and not before["over"]:
            lines.append("Every county is in a district: the game is over.")
        return lines

    def sample_state(self, view, seat, rng):
        # Mapmaker hides nothing: the view holds the whole position, so it is rebuilt exactly
        # (``rng`` is not needed).
        mode, players = view["mode"], view["players"]
        tier = 1 if mode in SOLO_MODES else players
        rows = None
        if view["board"] not in BOARDS:  # a board that came as map data: the counties in play
            rows = [[c["q"], c["r"], 1] for c in view["counties"]]
        board = board_for(view["board"], tier, rows)
        index = board.index
        state = _fresh_state(
            mode=mode, players=players, tier=tier, board=view["board"],
            party_of_seat=view["party_of_seat"], parties=view["parties"],
            party_at=[c["party"] for c in view["counties"]],
            value_at=[c["value"] for c in view["counties"]],
            first_seat=view["first_seat"], counties=rows,
        )
        state["borders"] = [board.edge_of[(index[tuple(a)], index[tuple(b)])]
                            for a, b in view["borders"]]
        state["district_of"] = [-1 if c["district"] is None else c["district"]
                                for c in view["counties"]]
        state["districted"] = sum(1 for d in state["district_of"] if d >= 0)
        state["districts"] = [
            {"counties": sorted(index[tuple(c)] for c in d["counties"]),
             "votes": list(d["votes"]), "winner": d["winner"],
             "tied_parties": list(d["tied_parties"]), "closed_by": d["closed_by"]}
            for d in view["districts"]
        ]
        if mode == MULTIPLAYER:
            turn = view["turn"]
            state["turn"], state["seat"] = turn["number"] - 1, turn["seat"]
            state["left"] = turn["borders_left"]
            state["pending"] = [i for i, d in enumerate(view["districts"]) if d["winner"] is None]
        state["over"] = bool(view["is_over"])
        state["lost"] = bool(view.get("lost", False))
        state["side"] = [-1] * board.size
        bordered = set(state["borders"])
        legal, seen = [], set()
        for v in range(board.size):
            if v in seen or state["district_of"][v] >= 0:
                continue
            verts, free, split, unsafe, witness = analyse_component(v, board.nbrs, bordered,
                                                                    board.memo)
            seen.update(verts)
            bad = set(unsafe)
            legal.extend(e for e in free if e not in bad)
            _mark_witness(state["side"], verts, witness)
        state["legal"] = sorted(legal)
        return state

    # ------------------------------------------------------------------ the lesson after the game
    # (mapmaker_lesson imports this module, so it is imported when first needed)
    ensemble_maps = 1000

    def lesson(self, state):
        from games.engine import mapmaker_lesson

        return mapmaker_lesson.lesson(state)

    def ensemble(self, state, *, seed, start, stop):
        from games.engine import mapmaker_lesson

        return mapmaker_lesson.ensemble(state, seed=seed, start=start, stop=stop)

    def ensemble_summary(self, state, seats_lists):
        from games.engine import mapmaker_lesson

        return mapmaker_lesson.ensemble_summary(state, seats_lists)


MAPMAKER = MapmakerRules()
