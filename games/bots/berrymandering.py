"""Berrymandering bots: random, easy, medium and hard, for every role (cutter, chooser, the
three-player variant's Mystery keeper, and solo).

The game in one line: the cutter splits the cake into groups of 4, the chooser eats the group
that is best for them.  So a group's worth to the chooser, ``u(g)``, is the candle it brings
(won +1, lost -1, tied 0; with face-down Mystery tiles, the exact odds) plus what eating it
leaves for the rest of the game.  The cutter's best cut is the one whose best group (for the
chooser) is as poor as possible: min over cuts of max over groups of ``u``.  That min-max is
found exactly, without listing cuts: sort the possible groups by ``u`` and find the smallest
threshold ``t`` such that the cake can still be cut using only groups with ``u <= t`` (a
tiling search; see ``MinMax``).  What eating a group leaves is valued by:

* ``balance``: each remaining berry of the chooser's team counts ``KAPPA`` candles for them
  (a team that wastes berries in a landslide has fewer for later rounds), or
* ``lookahead``: the next round played out the same way (the best the other player can get
  as the next chooser, against a cut made the same way), or two rounds (``deep_values``), or
* ``exact``: near the end, the whole rest of the game searched to the last group (every cut
  and every choice, the Mystery tiles by their exact odds), for the chance of winning.

Face-down Mystery tiles: a bot sees only its view, which tells how many of each kind are still
face down (the set minus those revealed: the same set ``rules.sample_state`` deals from); it
uses the exact odds of every draw from that set, so it never depends on the real order.

Every bot is deterministic for (view, seat, seed): its searches are bounded by counts, and the
time budget only stops a search early on a slow machine (the hard bot then plays the medium
bot's move, which takes a few milliseconds).
"""

import math
import time
from bisect import bisect_right
from functools import lru_cache

from games.bots.base import Bot, register_bot
from games.engine.tetromino import ORIENTATIONS, region_for

GAME = "berrymandering"
TEAM_SIGN = (1, -1)  # Strawberry counts up, Blueberry down, in a "diff"

# Tuned with bench/berrymandering_bench.py --ladder.
KAPPA = 0.15  # candles per berry of balance left in the cake (the balance valuation)
SOFT = 6.0  # sharpness of the cutter's tie-break among equally good cuts (see cut_score)
# A tiling search may take this many steps per decision (a guard for big maps: on the
# standard cake the hard bot's longest decision takes a fraction of it).
MINMAX_STEPS = 3_000_000
BIG_CAKE_CELLS = 64  # above this many uneaten cells, cuts are sampled (see big_cake)


# --------------------------------------------------------------------------- board geometry

class Board:
    """A cake's cells (numbered in reading order, as in the view) and every group position."""

    def __init__(self, cells):
        self.cells = list(cells)
        self.n = len(cells)
        index = {c: i for i, c in enumerate(cells)}
        placements = set()
        for _, shape in ORIENTATIONS:
            fx, fy = shape[0]  # each group is found from its first cell (reading order)
            for ax, ay in cells:
                ids = [index.get((ax + x - fx, ay + y - fy)) for x, y in shape]
                if None not in ids:
                    m = 0
                    for i in ids:
                        m |= 1 << i
                    placements.add(m)
        self.placements = sorted(placements)
        # groups by their first cell (lowest number): a cut search always covers the first
        # uncut cell next, and only groups starting there can cover it
        self.by_low = [[] for _ in range(self.n)]
        for p in self.placements:
            self.by_low[(p & -p).bit_length() - 1].append(p)
        self.full = (1 << self.n) - 1
        self.nbrs = [sum(1 << index[n] for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1))
                         if n in index) for x, y in cells]

    def around(self, mask):
        """The cells next to ``mask`` (outside it)."""
        out = 0
        for i in self.ids(mask):
            out |= self.nbrs[i]
        return out & ~mask

    def ids(self, mask):
        out = []
        while mask:
            low = mask & -mask
            out.append(low.bit_length() - 1)
            mask ^= low
        return out


@lru_cache(maxsize=16)
def board_for(cells):
    return Board(cells)


# --------------------------------------------------------------------------- tiling searches

def tileable(board, free, allowed, memo):
    """Can ``free`` be cut using only groups for which ``allowed(p)`` holds?  ``memo`` keeps
    the answers for this ``allowed``."""
    if not free:
        return True
    hit = memo.get(free)
    if hit is not None:
        return hit
    low = (free & -free).bit_length() - 1
    ok = False
    for p in board.by_low[low]:
        if p & free == p and allowed(p) and tileable(board, free ^ p, allowed, memo):
            ok = True
            break
    memo[free] = ok
    return ok


def placements_in(board, free):
    """The groups lying inside ``free``."""
    out = []
    by_low = board.by_low
    m = free
    while m:
        low = m & -m
        out.extend(p for p in by_low[low.bit_length() - 1] if p & free == p)
        m ^= low
    return out


def _always(_p):
    return True


# --------------------------------------------------------------------------- what a seat knows

class Knowledge:
    """A view reduced to numbers: berries per cell per team (Mystery tiles known included),
    face-down Mystery tiles still to come, candles, teams, roles."""

    def __init__(self, view, seat):
        cells = tuple((c["x"], c["y"]) for c in view["cells"])
        self.board = board_for(cells)
        n = len(cells)
        self.sb = [0] * n
        self.bb = [0] * n
        self.unknown = 0  # mask of Random tiles whose Mystery tile is not known yet
        free = 0
        for i, c in enumerate(view["cells"]):
            tile = c["tile"]
            if tile["kind"] == "berries":
                (self.sb if tile["team"] == 0 else self.bb)[i] += tile["count"]
            extra = c.get("mystery")
            if extra is not None:
                (self.sb if extra["team"] == 0 else self.bb)[i] += extra["count"]
            elif tile["kind"] == "random":
                self.unknown |= 1 << i
            if not c["eaten"]:
                free |= 1 << i
        self.free = free
        self.view = view
        self.seat = seat
        self.mode = view["mode"]
        self.variant = view["variant"]
        self.team_of_seat = view["team_of_seat"]
        self.team = self.team_of_seat[seat] if seat < len(self.team_of_seat) else None
        self.candles = list(view["candles"])
        self.diff = self.candles[0] - self.candles[1]
        # the face-down (standard) or held (three players) Mystery tiles still to come
        if self.mode == "3":
            tiles = [(t["team"], t["count"]) for t in view["mystery_face_down"]]
        elif self.variant == "strategy":
            tiles = []
        else:
            tiles = []
            for team in (0, 1):
                for k, count in enumerate(view["mystery_mix"][team]):
                    tiles += [(team, k + 1)] * count
            for r in view["mystery_revealed"]:
                if (r["team"], r["count"]) in tiles:
                    tiles.remove((r["team"], r["count"]))
        kinds = sorted(set(tiles))
        self.pile_kinds = tuple(kinds)
        self.pile = tuple(tiles.count(k) for k in kinds)
        self.stats = {}

    def group(self, p):
        """(strawberries - blueberries known, unknown Random tiles, berries in all) of a
        group."""
        hit = self.stats.get(p)
        if hit is None:
            d = tot = 0
            m = p
            while m:
                low = m & -m
                i = low.bit_length() - 1
                d += self.sb[i] - self.bb[i]
                tot += self.sb[i] + self.bb[i]
                m ^= low
            hit = self.stats[p] = (d, (p & self.unknown).bit_count(), tot)
        return hit


@lru_cache(maxsize=4096)
def draws(kinds, pile, r):
    """Every way of drawing ``r`` tiles from a pile (counts per kind): a tuple of
    (probability, delta in berries Strawberry - Blueberry, the pile left)."""
    total = sum(pile)
    r = min(r, total)
    if r == 0:
        return ((1.0, 0, pile),)
    out = []
    denom = math.comb(total, r)
    for take in _splits(pile, r):
        ways = 1
        for c, k in zip(pile, take, strict=True):
            ways *= math.comb(c, k)
        delta = sum(k * cnt * TEAM_SIGN[team] for (team, cnt), k in zip(kinds, take,
                                                                        strict=True))
        left = tuple(c - k for c, k in zip(pile, take, strict=True))
        out.append((ways / denom, delta, left))
    return tuple(out)


def _splits(pile, r):
    """Every way to take ``r`` tiles from piles of these sizes: tuples of counts per pile."""
    if len(pile) == 1:
        if r <= pile[0]:
            yield (r,)
        return
    for k in range(min(pile[0], r) + 1):
        for rest in _splits(pile[1:], r - k):
            yield (k, *rest)


@lru_cache(maxsize=65536)
def outcome_odds(kinds, pile, r, d):
    """(P Strawberry wins, P tie, P Blueberry wins) of a group with known diff ``d`` and
    ``r`` face-down Mystery tiles to reveal."""
    ps = pt = pb = 0.0
    for prob, delta, _ in draws(kinds, pile, r):
        x = d + delta
        if x > 0:
            ps += prob
        elif x < 0:
            pb += prob
        else:
            pt += prob
    return ps, pt, pb


def mean_mystery(kinds, pile):
    """The expected berries diff (Strawberry - Blueberry) of one face-down tile."""
    total = sum(pile)
    if not total:
        return 0.0
    return sum(c * cnt * TEAM_SIGN[t] for (t, cnt), c in zip(kinds, pile, strict=True)) / total


# --------------------------------------------------------------------------- valuations

def keeper_outcome(kinds, hand, r, d, diff):
    """The candle (+1 Strawberry, -1 Blueberry, 0 none) the Mystery keeper makes of a group
    with known diff ``d`` and ``r`` Random tiles, when the candles stand at ``diff``: the
    keeper wants equal candles in the end, so it steers this candle toward evening them (a
    model of the third player, used by the teams' bots)."""
    best = None
    for _prob, delta, _left in draws(kinds, hand, r):
        x = d + delta
        o = (x > 0) - (x < 0)
        key = (abs(diff + o), abs(o))
        if best is None or key < best[0]:
            best = (key, o)
    return 0 if best is None else best[1]


class Valuer:
    """Worth of groups and of what remains, for a team, from one seat's knowledge."""

    def __init__(self, kn, kappa=KAPPA, exact_leaves=True):
        self.kn = kn
        self.kappa = kappa
        self.exact_leaves = exact_leaves
        self.mu = mean_mystery(kn.pile_kinds, kn.pile)
        self._candle = {}
        self._a = {}
        self._free_balance = None

    def candle(self, p, team):
        """Expected candles for ``team`` (won minus lost) if ``p`` is eaten now."""
        key = (p, team)
        hit = self._candle.get(key)
        if hit is None:
            kn = self.kn
            d, r, _ = kn.group(p)
            if kn.mode == "3" and r:
                o = keeper_outcome(kn.pile_kinds, kn.pile, r, d, kn.diff)
                hit = float(o * TEAM_SIGN[team])
            else:
                ps, _pt, pb = outcome_odds(kn.pile_kinds, kn.pile, r, d)
                if kn.mode == "solo":  # a candle only for the player's own majority
                    hit = ps if team == 0 else pb
                else:
                    hit = (ps - pb) * TEAM_SIGN[team]
            self._candle[key] = hit
        return hit

    def balance(self, mask, team):
        """``team``'s berries minus the other team's in ``mask`` (face-down tiles by their
        mean)."""
        kn = self.kn
        free = kn.free
        outside = (free ^ mask).bit_count()
        if mask != free and mask & free == mask and outside <= 8 and \
                outside < mask.bit_count():
            # most sets asked about are the cake minus a group or two: subtract those
            return self.balance(free, team) - self.balance(free ^ mask, team)
        if mask == free and self._free_balance is not None:
            d = self._free_balance
        else:
            d = 0
            m = mask
            while m:
                low = m & -m
                i = low.bit_length() - 1
                d += kn.sb[i] - kn.bb[i]
                m ^= low
            if mask == free:
                self._free_balance = d
        return TEAM_SIGN[team] * (d + (mask & kn.unknown).bit_count() * self.mu)

    def a(self, p, team):
        """A group's worth to the chooser ``team`` up to a constant of the position: its
        candle, minus the berry balance it takes out of the cake."""
        key = (p, team)
        hit = self._a.get(key)
        if hit is None:
            hit = self._a[key] = round(self.candle(p, team)
                                       - self.kappa * self.balance(p, team), 9)
        return hit

    def u1(self, team, g, free):
        """One round deep: the chooser ``team`` eats ``g`` of ``free``, then what is left."""
        return self.candle(g, team) + self.leaf(team, free ^ g)

    def leaf(self, team, rest):
        """What ``rest`` is worth to ``team``, who has just chosen and so cuts it next: the
        berry balance, or exactly when one or two groups are left (then every group left is
        eaten whoever chooses, so the cutter of the last two decides both candles)."""
        if not rest:
            return 0.0
        n = rest.bit_count() if self.exact_leaves else 0
        if n == 4:
            return self.candle(rest, team)
        if n == 8:
            board = self.kn.board
            low = (rest & -rest).bit_length() - 1
            best = None
            for p in board.by_low[low]:
                q = rest ^ p
                if p & rest == p and q in _placement_set(board):
                    v = self.candle(p, team) + self.candle(q, team)
                    best = v if best is None or v > best else best
            if best is not None:
                return best
        return self.kappa * self.balance(rest, team)


class MinMax:
    """min over cuts of ``free`` of max over their groups of fixed group values, for many
    ``free`` sets: the values' levels are shared, and so are the tiling searches per level."""

    def __init__(self, board, values, deadline=math.inf):
        self.board = board
        self.values = values
        self._budget = [MINMAX_STEPS, deadline]
        self.levels = sorted(set(values.values()))
        # the valued groups under their first cell, cheapest first
        buckets = {}
        for p, v in values.items():
            buckets.setdefault((p & -p).bit_length() - 1, []).append((v, p))
        self._buckets = [None] * board.n
        for i, items in buckets.items():
            items.sort()
            self._buckets[i] = ([v for v, _ in items], [p for _, p in items])
        self._lists = {}
        self._memos = {}
        self._last = len(self.levels) // 2

    def _by_low(self, k):
        lists = self._lists.get(k)
        if lists is None:
            t = self.levels[k]
            lists = self._lists[k] = [
                () if b is None else b[1][:bisect_right(b[0], t)] for b in self._buckets]
        return lists

    def feasible(self, free, k):
        memo = self._memos.setdefault(k, {})
        return _tileable_lists(self._by_low(k), free, memo, self._budget)

    def value(self, free):
        """The min-max level for ``free`` (None if ``free`` cannot be cut at all).

        Sets asked about one after another tend to have nearby levels, so the search gallops
        out from the last answer before it bisects."""
        if not self.levels:
            return None
        top = len(self.levels) - 1
        if not self.feasible(free, top):
            return None
        k = min(self._last, top)
        if self.feasible(free, k):  # the answer is k or below
            hi, step = k, 1
            lo = k - step
            while lo >= 0 and self.feasible(free, lo):
                hi, step = lo, step * 2
                lo = hi - step
            lo = max(lo + 1, 0)
        else:  # above k
            lo, step = k + 1, 1
            hi = min(lo, top)
            while hi < top and not self.feasible(free, hi):
                lo, step = hi + 1, step * 2
                hi = min(lo + step - 1, top)
        while lo < hi:
            mid = (lo + hi) // 2
            if self.feasible(free, mid):
                hi = mid
            else:
                lo = mid + 1
        self._last = lo
        return self.levels[lo]

    def cuts(self, free, level, rng, tries):
        """Up to ``tries`` different cuts of ``free`` using groups valued <= ``level``."""
        k = self.levels.index(level)
        lists = self._by_low(k)
        memo = self._memos.setdefault(k, {})
        out, seen = [], set()
        for n in range(tries):
            cut = _find_lists(lists, free, memo, rng if n else None, self._budget)
            if cut is None:
                break
            key = tuple(sorted(cut))
            if key not in seen:
                seen.add(key)
                out.append(cut)
        return out


def _tileable_lists(by_low, free, memo, budget=None):
    """Can ``free`` be cut with the groups listed in ``by_low`` (by their first cell)?
    ``budget`` ([steps left, deadline]) bounds the search on a big map (``_OverBudget``)."""
    if not free:
        return True
    hit = memo.get(free)
    if hit is not None:
        return hit
    if budget is not None:
        budget[0] -= 1
        if budget[0] & 1023 == 0 and (budget[0] < 0 or time.perf_counter() > budget[1]):
            raise _OverBudget
    ok = False
    for p in by_low[(free & -free).bit_length() - 1]:
        if p & free == p:
            rest = free ^ p
            if not rest:
                ok = True
                break
            got = memo.get(rest)
            if got is None:
                got = _tileable_lists(by_low, rest, memo, budget)
            if got:
                ok = True
                break
    memo[free] = ok
    return ok


def _find_lists(by_low, free, memo, rng, budget=None):
    out = []
    while free:
        cands = [p for p in by_low[(free & -free).bit_length() - 1]
                 if p & free == p and _tileable_lists(by_low, free ^ p, memo, budget)]
        if not cands:
            return None
        p = cands[0] if rng is None else rng.choice(cands)
        out.append(p)
        free ^= p
    return out


def cut_score(cut, value):
    """Among cuts with the same best group, prefer fewer good groups for the chooser."""
    return sum(math.exp(SOFT * value[p]) for p in cut)


# --------------------------------------------------------------------------- exact endgame

class _OverBudget(Exception):
    pass


def _terminal(diff):
    return 1.0 if diff > 0 else 0.5 if diff == 0 else 0.0


class Exact:
    """The rest of a two-player game searched to its end: every cut (through ``MinMax`` on
    the groups' exact values) and every choice, each Random tile by the exact odds of the
    face-down Mystery tiles.  Values are Strawberry's chance of winning (a draw counts 1/2).
    Raises ``_OverBudget`` past ``max_nodes`` positions or the deadline."""

    def __init__(self, kn, max_nodes, deadline, track_pile=True):
        self.kn = kn
        self.board = kn.board
        self.max_nodes = max_nodes
        self.deadline = deadline
        self.memo = {}
        self.valid = {}
        self.nodes = 0
        # With many face-down tiles still to come, the odds of each Random tile are taken
        # from the pile as it is now (draws treated as independent): far fewer positions.
        self.track_pile = track_pile

    def chooser_values(self, free, diff, pile, cutter):
        """{group: the chooser's chance of winning if they eat it} over the groups of
        ``free`` that some cut can hold."""
        chooser = 1 - cutter
        out = {}
        for g in placements_in(self.board, free):
            rest = free ^ g
            if rest and not tileable(self.board, rest, _always, self.valid):
                continue
            v = self.eat_value(free, g, diff, pile, chooser)
            out[g] = round(v if chooser == 0 else 1.0 - v, 12)
        return out

    def eat_value(self, free, g, diff, pile, chooser):
        kn = self.kn
        d, r, _ = kn.group(g)
        if not self.track_pile:
            ps, pt, pb = outcome_odds(kn.pile_kinds, pile, r, d)
            rest = free ^ g
            total = 0.0
            for prob, o in ((ps, 1), (pt, 0), (pb, -1)):
                if prob:
                    total += prob * self.cut_value(rest, diff + o, pile, chooser)
            return total
        total = 0.0
        for prob, delta, left in draws(kn.pile_kinds, pile, r):
            x = d + delta
            total += prob * self.cut_value(free ^ g, diff + (x > 0) - (x < 0), left, chooser)
        return total

    def cut_value(self, free, diff, pile, cutter):
        if not free:
            return _terminal(diff)
        key = (free, diff, pile, cutter)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        self.nodes += 1
        if self.nodes > self.max_nodes or (self.nodes & 31 == 0
                                            and time.perf_counter() > self.deadline):
            raise _OverBudget
        values = self.chooser_values(free, diff, pile, cutter)
        t = MinMax(self.board, values, self.deadline).value(free)
        v = t if cutter == 1 else 1.0 - t  # t is the chooser's chance
        self.memo[key] = v
        return v


# --------------------------------------------------------------------------- decisions

def chooser_team(kn):
    return kn.team_of_seat[kn.view["chooser"]]


def cut_move(board, cut):
    return {"type": "cut", "groups": [[list(board.cells[i]) for i in board.ids(p)]
                                      for p in sorted(cut)]}


def choose_move(board, g):
    return {"type": "choose", "cell": list(board.cells[board.ids(g)[0]])}


def current_groups(kn):
    index = {c: i for i, c in enumerate(kn.board.cells)}
    out = []
    for group in kn.view["cut"] or []:
        m = 0
        for x, y in group:
            m |= 1 << index[(x, y)]
        out.append(m)
    return out


SMALL_CAKE_CELLS = 36  # the rulebook's cake


def random_cut(kn, rng):
    """A random complete cut of the uneaten cells (group masks)."""
    board = kn.board
    if board.n <= SMALL_CAKE_CELLS:
        return _find_lists(board.by_low, kn.free, {}, rng)
    # A bigger map (a state's outline has awkward corners): the engine's search, which prunes
    # and restarts, never gets stuck; the plain search above can take seconds there.
    region = region_for(tuple(board.cells))
    mask = region.mask_of(board.cells[i] for i in board.ids(kn.free))
    index = {c: i for i, c in enumerate(board.cells)}
    out = []
    for piece in region.random_tiling(rng, mask):
        m = 0
        for c in region.cells_of(piece):
            m |= 1 << index[c]
        out.append(m)
    return out


def best_of(cuts, values):
    """The cut whose best group for the chooser is poorest (then ``cut_score``)."""
    return min(cuts, key=lambda c: (max(values[p] for p in c), cut_score(c, values)))


def min_max_move(kn, values, rng, tries, deadline=math.inf):
    """The cutter's move for exact group values: the min-max level, then the cut at that
    level (among ``tries`` found) with the poorest groups overall."""
    mm = MinMax(kn.board, values, deadline)
    level = mm.value(kn.free)
    cuts = mm.cuts(kn.free, level, rng, tries)
    return best_of(cuts, values)


def big_cake(kn):
    """More uneaten cells than an exact search over all cuts can handle within the budget:
    the bots sample cuts and improve them locally instead."""
    return kn.free.bit_count() > BIG_CAKE_CELLS


def sampled_min_max(kn, values, rng, samples, deadline):
    """A cut whose best group (by ``values``) is poor, without the exact search: the best of
    a few random cuts, then repeatedly re-cut its best group together with a neighbouring
    group while that lowers the better of the two."""
    board = kn.board
    cuts = [random_cut(kn, rng) for _ in range(samples)]
    cut = best_of(cuts, values)
    pieces = set(board.placements)
    improved = True
    while improved and time.perf_counter() < deadline:
        improved = False
        for g in sorted(cut, key=lambda p: -values[p])[:4]:
            ring = board.around(g)
            for h in [h for h in cut if h & ring]:
                union = g | h
                now = (max(values[g], values[h]), cut_score([g, h], values))
                low = (union & -union).bit_length() - 1
                for p in board.by_low[low]:
                    q = union ^ p
                    if p & union == p and q in pieces and p not in (g, h):
                        new = (max(values[p], values[q]), cut_score([p, q], values))
                        if new < now:
                            cut = [x for x in cut if x not in (g, h)] + [p, q]
                            improved = True
                            break
                if improved:
                    break
            if improved:
                break
    return cut


def balance_values(kn, val, team):
    """u1 for every group of the cake: the chooser ``team``'s candle plus the balance left."""
    return {g: round(val.u1(team, g, kn.free), 9) for g in placements_in(kn.board, kn.free)}


def lookahead_values(kn, val, team, groups, deadline):
    """u2 for ``groups``: the chooser ``team``'s candle minus what the other player, choosing
    next round, can be held to (their u1 min-max over cuts of what remains)."""
    other = 1 - team
    rest_all = kn.free
    a_other = {p: val.a(p, other) for p in placements_in(kn.board, rest_all)}
    mm = MinMax(kn.board, a_other, deadline)
    out = {}
    for n, g in enumerate(groups):
        if n & 3 == 3 and time.perf_counter() > deadline:
            raise _OverBudget
        rest = rest_all ^ g
        if not rest:
            out[g] = round(val.candle(g, team), 9)
            continue
        if rest.bit_count() == 4:
            w1 = val.candle(rest, other)
        else:
            level = mm.value(rest)
            if level is None:  # no cut holds g
                continue
            w1 = val.kappa * val.balance(rest, other) + level
        out[g] = round(val.candle(g, team) - w1, 9)
    return out


def deep_values(kn, val, team, groups, deadline):
    """u3 for ``groups``: the chooser ``team``'s candle minus what the other player can be held
    to next round when they value their groups by u2 (two rounds of lookahead).  What
    remains after two groups are eaten is valued once per remaining set."""
    other = 1 - team
    board = kn.board
    a_team = {p: val.a(p, team) for p in placements_in(board, kn.free)}
    mm_team = MinMax(board, a_team, deadline)
    w1_memo = {}

    def w1(rest):  # what ``team`` gets as the chooser after ``other`` eats: its u1 min-max
        hit = w1_memo.get(rest)
        if hit is None:
            if rest.bit_count() == 4:
                hit = val.candle(rest, team)
            else:
                level = mm_team.value(rest)
                hit = None if level is None else val.kappa * val.balance(rest, team) + level
            w1_memo[rest] = hit
        return hit

    out = {}
    for g in groups:
        if time.perf_counter() > deadline:
            raise _OverBudget
        rest = kn.free ^ g
        if rest.bit_count() <= 4:
            out[g] = round(val.candle(g, team) - (val.candle(rest, other) if rest else 0.0), 9)
            continue
        u2_other = {}
        for n, h in enumerate(placements_in(board, rest)):
            if n & 15 == 15 and time.perf_counter() > deadline:
                raise _OverBudget
            rest2 = rest ^ h
            if not rest2:
                continue
            w = w1(rest2)
            if w is not None:
                u2_other[h] = round(val.candle(h, other) - w, 9)
        level = MinMax(board, u2_other, deadline).value(rest)
        if level is not None:
            out[g] = round(val.candle(g, team) - level, 9)
    return out


# --------------------------------------------------------------------------- the keeper

def keeper_pick(kn, rng, careful):
    """The Mystery keeper's tile: the one that brings the candles closest to equal once this
    group is scored (the rest of the group's Random tiles played as well as possible).
    ``careful``: among equally good tiles, play the most common kind and the fewest berries,
    keeping a varied hand for later groups."""
    view = kn.view
    pending = view["pending"]
    index = {c: i for i, c in enumerate(kn.board.cells)}
    d = 0
    for x, y in pending["group"]:
        i = index[(x, y)]
        d += kn.sb[i] - kn.bb[i]
    left = len(pending["random"]) - 1
    options = {}
    for t in view["mystery_face_down"]:
        options.setdefault((t["team"], t["count"]), t["tile"])
    scored = []
    for kind, tile in options.items():
        k = kn.pile_kinds.index(kind)
        hand = tuple(c - (j == k) for j, c in enumerate(kn.pile))
        now = d + kind[1] * TEAM_SIGN[kind[0]]
        o = keeper_outcome(kn.pile_kinds, hand, left, now, kn.diff) if left else \
            (now > 0) - (now < 0)
        key = (abs(kn.diff + o), abs(o))
        if careful:
            key += (-kn.pile[k], kind[1])
        scored.append((key, rng.random(), tile))
    scored.sort()
    return {"type": "mystery", "tile": scored[0][2]}


# --------------------------------------------------------------------------- solo

def solo_values(kn, val, team, kappa):
    """A group's worth in solo: the chance of a candle, minus the own berries it uses up."""
    return {g: val.candle(g, team) - kappa * val.balance(g, team)
            for g in placements_in(kn.board, kn.free)}


def solo_score(cut, values, k):
    return sum(sorted((values[p] for p in cut), reverse=True)[:k])


def improve_pairs(board, cut, score):
    """Local search over cuts: re-cut two touching groups together in every other way while
    that raises ``score`` (a function of the cut)."""
    cut = list(cut)
    best = score(cut)
    improved = True
    while improved:
        improved = False
        for i in range(len(cut)):
            for j in range(i + 1, len(cut)):
                union = cut[i] | cut[j]
                low = (union & -union).bit_length() - 1
                for p in board.by_low[low]:
                    q = union ^ p
                    if p & union != p or p in (cut[i], cut[j]) or q not in _placement_set(board):
                        continue
                    trial = cut[:i] + cut[i + 1:j] + cut[j + 1:] + [p, q]
                    s = score(trial)
                    if s > best + 1e-12:
                        cut, best, improved = trial, s, True
                        break
                if improved:
                    break
            if improved:
                break
    return cut


@lru_cache(maxsize=16)
def _placement_set(board):
    return frozenset(board.placements)


def solo_move(kn, rng, samples, kappa, polish):
    val = Valuer(kn, kappa)
    team = kn.team
    values = solo_values(kn, val, team, kappa)
    if kn.view["phase"] == "choose":
        groups = current_groups(kn)
        return choose_move(kn.board, max(groups, key=lambda g: (values[g], -g)))
    k = min(3, kn.free.bit_count() // 4)
    cuts = [random_cut(kn, rng) for _ in range(samples)]
    best = max(cuts, key=lambda c: solo_score(c, values, k))
    if polish:
        best = improve_pairs(kn.board, best, lambda c: solo_score(c, values, k))
    return cut_move(kn.board, best)


# --------------------------------------------------------------------------- the bots

def plain_move(kn, rng):
    """A move without search: a random cut, or the group with the best candle odds."""
    if kn.view["phase"] == "cut":
        return cut_move(kn.board, random_cut(kn, rng))
    val = Valuer(kn)
    return choose_move(kn.board, max(current_groups(kn), key=lambda g: val.candle(g, kn.team)))


class BerryBot(Bot):
    game = GAME
    kappa = KAPPA
    exact_leaves = True

    def _choose(self, view, seat, rng, deadline):
        moves = view.get("legal_moves") or []
        if not moves:
            raise ValueError(f"seat {seat} has no move (not its turn, or the game is over)")
        kn = Knowledge(view, seat)
        # The long searches stop at 70% of the budget and the medium bot's quick search (the
        # fallback) at 90%; past that, a plain move is played (only ever on a big map or a
        # very busy machine).
        now = time.perf_counter()
        left = max(0.0, deadline - now)
        deadline = now + 0.7 * left
        kn.last_deadline = now + 0.9 * left
        phase = view["phase"]
        if phase != "cut" and len(moves) == 1 or phase == "cut" and kn.free.bit_count() == 4:
            return moves[0]
        try:
            if phase == "mystery":
                return self.keep(kn, rng)
            if kn.mode == "solo":
                return self.solo(kn, rng)
            if phase == "cut":
                return self.cut(kn, rng, deadline)
            return self.eat(kn, rng, deadline)
        except _OverBudget:
            return plain_move(kn, rng)

    def keep(self, kn, rng):
        return keeper_pick(kn, rng, careful=True)


@register_bot(GAME, "random")
class RandomBot(BerryBot):
    """Random: cuts the cake any way it can, chooses any group, and (as the third player)
    plays any Mystery tile, all by chance."""

    def cut(self, kn, rng, deadline):
        return cut_move(kn.board, random_cut(kn, rng))

    def eat(self, kn, rng, deadline):
        return rng.choice(kn.view["legal_moves"])

    def keep(self, kn, rng):
        return rng.choice(kn.view["legal_moves"])

    def solo(self, kn, rng):
        if kn.view["phase"] == "cut":
            return self.cut(kn, rng, None)
        return self.eat(kn, rng, None)


@register_bot(GAME, "easy")
class EasyBot(BerryBot):
    """Easy: thinks mostly about this round.  As the chooser it eats the group most likely to
    give its team a candle, caring only a little about the berries it uses up.  As the cutter
    it tries a few different cuts and keeps the one where the most groups favour its own team,
    as if the chooser might pick any group (a careful chooser finds the one group it left
    weak).  As the third player it plays the Mystery tile that brings the candles closest to
    equal."""

    samples = 4
    kappa = 0.06  # cares a little about the berries it leaves
    exact_leaves = False

    def cut(self, kn, rng, deadline):
        val = Valuer(kn, self.kappa, self.exact_leaves)
        cuts = [random_cut(kn, rng) for _ in range(self.samples)]
        return cut_move(kn.board, max(cuts, key=lambda c: sum(val.candle(p, kn.team)
                                                              for p in c)))

    def eat(self, kn, rng, deadline):
        val = Valuer(kn, self.kappa, self.exact_leaves)
        groups = current_groups(kn)
        return choose_move(kn.board, max(groups, key=lambda g: (val.u1(kn.team, g, kn.free),
                                                                rng.random())))

    def keep(self, kn, rng):
        return keeper_pick(kn, rng, careful=False)

    def solo(self, kn, rng):
        return solo_move(kn, rng, self.samples, 0.0, polish=False)


@register_bot(GAME, "medium")
class MediumBot(BerryBot):
    """Medium: values every possible group by the candle it brings the chooser (with the odds
    of the face-down Mystery tiles) plus the berries it leaves in the cake: a team that wastes
    many berries winning one group has fewer left to win later ones (and with only one or two
    groups left it counts their candles exactly).  As the chooser it eats the group worth most
    to it.  As the cutter it finds the cut whose best group for the chooser is worth as little
    as possible, searching all cuts at once (it asks "can the cake still be cut using only
    groups worth at most this much?" for ever smaller amounts)."""

    tries = 8
    solo_samples = 40

    def cut(self, kn, rng, deadline):
        val = Valuer(kn, self.kappa, self.exact_leaves)
        values = balance_values(kn, val, chooser_team(kn))
        if big_cake(kn):
            return cut_move(kn.board, sampled_min_max(kn, values, rng, 3, kn.last_deadline))
        return cut_move(kn.board, min_max_move(kn, values, rng, self.tries, kn.last_deadline))

    def eat(self, kn, rng, deadline):
        val = Valuer(kn, self.kappa, self.exact_leaves)
        groups = current_groups(kn)
        return choose_move(kn.board, max(groups, key=lambda g: (val.u1(kn.team, g, kn.free),
                                                                -g)))

    def solo(self, kn, rng):
        return solo_move(kn, rng, self.solo_samples, self.kappa, polish=True)


@register_bot(GAME, "hard")
class HardBot(MediumBot):
    """Hard: looks further ahead than the medium bot.  A group's worth to the chooser is its
    candle minus the best the other player can then get as the next chooser, after a cut made
    against them in the same way.  As the cutter it finds, among all cuts, the one whose best
    group is worth least by that deeper measure; as the chooser it looks one more round ahead
    still once the cake is down to eight groups.  In the last rounds (five groups left, or six
    when it has to cut them) it stops estimating: it plays out every possible cut, choice and
    Mystery tile to the end of the game and picks the move with the best chance of winning.
    If time runs short it plays like the medium bot."""

    tries = 12
    solo_samples = 150
    exact_groups = 5  # search to the end once this many groups (or fewer) are left to cut
    exact_cut_groups = 6  # ... and as the cutter with this many, if it fits in the nodes
    exact_nodes = 40000
    exact_cut_nodes = 5000
    exact_pile = 3  # follow each face-down draw exactly while at most this many are to come
    deep_groups = 8  # two rounds of lookahead for a chooser facing this many groups or fewer

    def cut(self, kn, rng, deadline):
        if big_cake(kn):
            return super().cut(kn, rng, deadline)
        groups_left = kn.free.bit_count() // 4
        if kn.mode == "2" and groups_left <= self.exact_cut_groups:
            try:
                nodes = self.exact_nodes if groups_left <= self.exact_groups else \
                    self.exact_cut_nodes
                ex = Exact(kn, nodes, deadline,
                           (kn.free & kn.unknown).bit_count() <= self.exact_pile)
                values = ex.chooser_values(kn.free, kn.diff, kn.pile, kn.team)
                return cut_move(kn.board, min_max_move(kn, values, rng, self.tries,
                                                       kn.last_deadline))
            except _OverBudget:
                pass
        val = Valuer(kn, self.kappa, self.exact_leaves)
        try:
            values = lookahead_values(kn, val, chooser_team(kn),
                                      placements_in(kn.board, kn.free), deadline)
        except _OverBudget:
            return super().cut(kn, rng, deadline)
        return cut_move(kn.board, min_max_move(kn, values, rng, self.tries, kn.last_deadline))

    def eat(self, kn, rng, deadline):
        if big_cake(kn):
            return super().eat(kn, rng, deadline)
        groups = current_groups(kn)
        if kn.mode == "2" and len(groups) - 1 <= self.exact_groups:
            try:
                ex = Exact(kn, self.exact_nodes, deadline,
                           (kn.free & kn.unknown).bit_count() <= self.exact_pile)
                best = max(groups, key=lambda g: (
                    ex.eat_value(kn.free, g, kn.diff, kn.pile, kn.team) * TEAM_SIGN[kn.team],
                    -g))
                return choose_move(kn.board, best)
            except _OverBudget:
                pass
        val = Valuer(kn, self.kappa, self.exact_leaves)
        try:
            if len(groups) <= self.deep_groups:
                values = deep_values(kn, val, kn.team, groups, deadline)
            else:
                values = lookahead_values(kn, val, kn.team, groups, deadline)
        except _OverBudget:
            return super().eat(kn, rng, deadline)
        return choose_move(kn.board, max(groups, key=lambda g: (values.get(g, -math.inf), -g)))
