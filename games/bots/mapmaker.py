"""Mapmaker bots: random, easy, medium and hard.

Every bot reads only ``rules.view(state, seat)`` and simulates with ``rules.apply``; the board
analysis below (open regions, votes, swing counties) is rebuilt from a view.
"""

import math
import time

from games.bots.base import Bot, register_bot

GAME = "mapmaker"
HEX_DIRS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))

# Heuristic weights (tuned with bench/bots_ladder.py).
SWING_WEIGHT = 0.3  # a swing county breaks ties in district counts: worth a fraction of a district
COUNTIES_PER_DISTRICT = 5.0  # how many districts an open region of n counties will likely yield
MARGIN_SCALE = 0.3  # steepness of the win chance on an open region's vote lead / sqrt(size)
WIN_BONUS = 50.0
REGION_WEIGHT = 0.15  # how much the guess about open regions counts against sure districts
# Districts one border could close (see ``threats``): how likely each side collects them.
THREAT_OWN_MOVE = 0.8  # mine, and I move next
THREAT_OWN_WAIT = 0.4  # mine, an opponent moves next
THREAT_OPP_MOVE = 0.9  # an opponent's, and they move next
THREAT_OPP_WAIT = 0.4  # an opponent's, I move next  # a finished game: won / lost


def _rules():
    from games.engine import get_rules

    return get_rules(GAME)


# --------------------------------------------------------------------------- board analysis

_NEIGHBOURS_CACHE = {}


def _neighbours(coords):
    key = tuple(coords)
    hit = _NEIGHBOURS_CACHE.get(key)
    if hit is None:
        index = {c: i for i, c in enumerate(coords)}
        hit = []
        for q, r in coords:
            hit.append(
                tuple(
                    index[(q + dq, r + dr)] for dq, dr in HEX_DIRS if (q + dq, r + dr) in index
                )
            )
        hit = (index, tuple(hit))
        if len(_NEIGHBOURS_CACHE) > 16:
            _NEIGHBOURS_CACHE.clear()
        _NEIGHBOURS_CACHE[key] = hit
    return hit


def _party_key(p):
    return None if p is None else int(p)


def _votes_of(d, n_parties):
    v = d.get("votes")
    out = [0] * n_parties
    if isinstance(v, dict):
        for k, x in v.items():
            try:
                k = int(k)
            except (TypeError, ValueError):
                continue
            if 0 <= k < n_parties:
                out[k] = x
    elif isinstance(v, list):
        for k, x in enumerate(v[:n_parties]):
            out[k] = x
    return out


class Position:
    """What a seat sees of a Mapmaker board, reduced to what the heuristics need."""

    __slots__ = (
        "view", "coords", "index", "nbrs", "party", "value", "swing", "district",
        "borders", "districts", "n_parties", "open_regions", "pending",
    )

    def __init__(self, view):
        self.view = view
        counties = view["counties"]
        self.coords = [(int(c["q"]), int(c["r"])) for c in counties]
        self.index, self.nbrs = _neighbours(self.coords)
        self.party = [_party_key(c.get("party")) for c in counties]
        self.value = [int(c.get("value") or 0) for c in counties]
        self.swing = [bool(c.get("swing", (c.get("value") or 0) <= 1)) for c in counties]
        self.district = [c.get("district") for c in counties]
        pos = view.get("party_of_seat")
        n = len(pos) if pos else 0
        n = max([n] + [p + 1 for p in self.party if p is not None])
        self.n_parties = n
        idx = self.index
        bs = set()
        for a, b in view.get("borders", ()):
            i, j = idx.get((a[0], a[1])), idx.get((b[0], b[1]))
            if i is not None and j is not None:
                bs.add((i, j) if i < j else (j, i))
        self.borders = bs
        self.districts = view.get("districts") or []
        self.pending = view.get("pending_choice")
        self.open_regions = self._regions()

    def _regions(self):
        seen = set()
        regions = []
        nbrs, bs, dist = self.nbrs, self.borders, self.district
        for s in range(len(self.coords)):
            if s in seen or dist[s] is not None:
                continue
            comp = [s]
            seen.add(s)
            k = 0
            while k < len(comp):
                u = comp[k]
                for w in nbrs[u]:
                    if w not in seen and dist[w] is None and ((u, w) if u < w else (w, u)) not in bs:
                        seen.add(w)
                        comp.append(w)
                k += 1
            regions.append(comp)
        return regions

    def closures(self, comp):
        """Districts one border could close in this open region: for each bridge (a border-free
        edge whose removal cuts the region in two), the sides of 4 to 7 counties, which would
        become districts.  Yields ``(edge, [(side_counties, votes), ...])``."""
        n = len(comp)
        if n < 8:
            return []
        nbrs, bs = self.nbrs, self.borders
        inside = set(comp)
        root = comp[0]
        pre = {root: 0}
        order = [root]
        low = {root: 0}
        size = {}
        parent = {root: None}
        stack = [(root, iter(nbrs[root]))]
        tree = []
        while stack:
            v, it = stack[-1]
            advanced = False
            for u in it:
                if u not in inside or ((u, v) if u < v else (v, u)) in bs:
                    continue
                if u not in pre:
                    pre[u] = low[u] = len(order)
                    order.append(u)
                    parent[u] = v
                    stack.append((u, iter(nbrs[u])))
                    advanced = True
                    break
                if u != parent[v] and pre[u] < low[v]:
                    low[v] = pre[u]
            if advanced:
                continue
            stack.pop()
            size[v] = 1 + sum(size[c] for c in _children(v, parent, nbrs, inside, bs, pre))
            p = parent[v]
            if p is not None:
                if low[v] < low[p]:
                    low[p] = low[v]
                tree.append((p, v))
        out = []
        for p, c in tree:
            if low[c] > pre[p]:
                a = size[c]
                if a < 4 or n - a < 4 or (a > 7 and n - a > 7):
                    continue
                sub = order[pre[c]: pre[c] + a]
                sides = []
                if a <= 7:
                    sides.append((sub, self.region_votes(sub)))
                if n - a <= 7:
                    rest = [x for x in comp if x not in set(sub)]
                    sides.append((rest, self.region_votes(rest)))
                out.append(((p, c), sides))
        return out

    def region_votes(self, comp):
        v = [0] * self.n_parties
        for i in comp:
            p = self.party[i]
            if p is not None:
                v[p] += self.value[i]
        return v


def _children(v, parent, nbrs, inside, bs, pre):
    for u in nbrs[v]:
        if u in inside and parent.get(u) == v and u in pre:
            yield u


def party_of(view, seat):
    pos = view.get("party_of_seat")
    if pos and 0 <= seat < len(pos) and pos[seat] is not None:
        return int(pos[seat])
    return seat


def _sigmoid(x):
    if x < -30:
        return 0.0
    if x > 30:
        return 1.0
    return 1.0 / (1.0 + math.exp(-x))


def standing(pos, chooser_party=None):
    """Per party: (districts won, swing counties won), counting open regions by expectation."""
    n = pos.n_parties
    dist = [0.0] * n
    swing = [0.0] * n
    winners = {}
    for k, d in enumerate(pos.districts):
        w = d.get("winner")
        if w is None:
            # a tie waiting for its closer: assume the closer keeps it if it can
            tied = [int(p) for p in (pos.pending or {}).get("parties", []) or []]
            if chooser_party is not None and chooser_party in tied:
                w = chooser_party
            elif tied:
                w = tied[0]
        if w is None:
            continue
        w = int(w)
        winners[k] = w
        dist[w] += 1
    for i, k in enumerate(pos.district):
        if k is not None and pos.swing[i] and k in winners:
            swing[winners[k]] += 1
    for comp in pos.open_regions:
        s = len(comp)
        votes = pos.region_votes(comp)
        expected = s / COUNTIES_PER_DISTRICT
        top = max(votes)
        root = math.sqrt(s)
        weights = [math.exp(MARGIN_SCALE * (v - top) / root) for v in votes]
        tot = sum(weights)
        shares = [w / tot for w in weights]
        n_swing = sum(1 for i in comp if pos.swing[i])
        for p in range(n):
            dist[p] += REGION_WEIGHT * expected * shares[p]
            swing[p] += REGION_WEIGHT * n_swing * shares[p]
    return dist, swing


def threats(pos, me, mover):
    """Value for ``me`` of the districts one border could close, given who moves next.

    The player about to move will likely take the closures that favour them; the others stay
    on the board for later.  A tied closure belongs to whoever closes it (the mover)."""
    total = 0.0
    for comp in pos.open_regions:
        for _edge, sides in pos.closures(comp):
            g = 0.0
            for _side, votes in sides:
                top = max(votes)
                leaders = [p for p, v in enumerate(votes) if v == top]
                if len(leaders) > 1:
                    w = mover if mover in leaders else leaders[0]
                else:
                    w = leaders[0]
                g += 1.0 if w == me else -1.0
                if any(pos.swing[i] for i in _side):
                    g += (0.3 if w == me else -0.3)
            if g > 0:
                total += g * (THREAT_OWN_MOVE if mover == me else THREAT_OWN_WAIT)
            elif g < 0:
                total += g * (THREAT_OPP_WAIT if mover == me else THREAT_OPP_MOVE)
    return total


def evaluate(view, me, chooser_party=None):
    """How good this view is for party ``me`` (higher is better); plain numbers, no search."""
    res = view.get("result")
    pos = Position(view)
    dist, swing = standing(pos, chooser_party)
    score = [dist[p] + SWING_WEIGHT * swing[p] for p in range(pos.n_parties)]
    others = [score[p] for p in range(pos.n_parties) if p != me]
    best_other = max(others) if others else 0.0
    val = score[me] - best_other
    tm = view.get("to_move") or []
    if tm and not pos.pending:
        val += threats(pos, me, party_of(view, tm[0]))
    if res and not pos.open_regions and not pos.pending:
        winners = [int(p) for p in res.get("winners", [])]
        parties = view.get("party_of_seat") or list(range(pos.n_parties))
        win_parties = {parties[w] if w < len(parties) else w for w in winners}
        if me in win_parties:
            val += WIN_BONUS / len(win_parties) if len(win_parties) > 1 else WIN_BONUS
        else:
            val -= WIN_BONUS
    return val


# --------------------------------------------------------------------------- helpers


def tie_choice_by_standing(view, me):
    """Pick the pending tie's winner: myself if I am tied, else the weakest tied rival."""
    pend = view.get("pending_choice") or {}
    parties = [int(p) for p in pend.get("parties", [])]
    if me in parties:
        return me
    counts = view.get("district_counts")
    if isinstance(counts, dict):
        counts = {int(k): v for k, v in counts.items()}
    elif isinstance(counts, list):
        counts = dict(enumerate(counts))
    else:
        counts = {}
    return min(parties, key=lambda p: (counts.get(p, 0), p))


def _is_choice(move):
    return move.get("type") == "choose_winner"


def _districts_total(view):
    return len(view.get("districts") or [])


class MapmakerBot(Bot):
    game = GAME

    def _choose(self, state, seat, rng, deadline):
        rules = _rules()
        moves = rules.legal_moves(state, seat)
        if not moves:
            raise ValueError(f"seat {seat} has no legal move (not its turn, or the game is over)")
        if len(moves) == 1:
            return moves[0]
        return self.pick(rules, state, seat, moves, rng, deadline)

    def pick(self, rules, state, seat, moves, rng, deadline):  # pragma: no cover - abstract
        raise NotImplementedError


@register_bot(GAME, "random")
class RandomBot(MapmakerBot):
    """Random: places any border it is allowed to, picked by chance, like rolling a die.
    When it must break a tie, it picks one of the tied parties by chance too."""

    def pick(self, rules, state, seat, moves, rng, deadline):
        return rng.choice(moves)


@register_bot(GAME, "easy")
class EasyBot(MapmakerBot):
    """Easy: looks one border ahead.  If a border closes off a district it would win, it places
    it; it avoids borders that close off a district an opponent would win.  Otherwise it places
    a random border.  When it must break a tie it picks itself, or else the weakest rival."""

    def pick(self, rules, state, seat, moves, rng, deadline):
        view = rules.view(state, seat)
        me = party_of(view, seat)
        if _is_choice(moves[0]):
            return {"type": "choose_winner", "party": tie_choice_by_standing(view, me)}
        before = _districts_total(view)
        order = list(moves)
        rng.shuffle(order)
        best, best_score = None, None
        for m in order:
            after = rules.view(rules.apply(state, seat, m), seat)
            score = 0
            for d in (after.get("districts") or [])[before:]:
                w = d.get("winner")
                if w is None:  # a tie I close: I will choose myself if I am tied
                    w = me if d.get("tied") and me in _tied_parties(after) else None
                if w is None:
                    continue
                score += 1 if int(w) == me else -1
            if best_score is None or score > best_score:
                best, best_score = m, score
        return best


def _tied_parties(view):
    pend = view.get("pending_choice") or {}
    return [int(p) for p in pend.get("parties", [])]


@register_bot(GAME, "medium")
class MediumBot(MapmakerBot):
    """Medium: for every border it could place, it imagines the board afterwards and scores it:
    districts already won or lost, plus a guess of how each open region will fall from the
    votes inside it (packing an opponent's voters into one region and cracking the rest across
    regions it leads), plus swing counties, which break ties.  It places the best-scoring border.
    A tie it must break goes to itself, or to the rival that helps its standing most."""

    def pick(self, rules, state, seat, moves, rng, deadline):
        view = rules.view(state, seat)
        me = party_of(view, seat)
        if _is_choice(moves[0]):
            return self.choose_tie(rules, state, seat, moves, me)
        scored = score_moves(rules, state, seat, me, moves, rng)
        return scored[0][1]

    def choose_tie(self, rules, state, seat, moves, me):
        for m in moves:
            if int(m["party"]) == me:
                return m
        best = None
        for m in moves:
            v = evaluate(rules.view(rules.apply(state, seat, m), seat), me)
            if best is None or v > best[0]:
                best = (v, m)
        return best[1]


def score_moves(rules, state, seat, me, moves, rng, deadline=None, jitter=1e-6):
    """[(score, move, next_state)] best first: one-border look-ahead with ``evaluate``.

    Without a deadline every move is scored (a few hundredths of a second on the 2-player
    board); with one, scoring stops when it passes."""
    order = list(moves)
    rng.shuffle(order)
    out = []
    for m in order:
        if deadline is not None and out and time.perf_counter() > deadline:
            break
        nxt = rules.apply(state, seat, m)
        v = evaluate(rules.view(nxt, seat), me, chooser_party=me)
        out.append((v + jitter * rng.random(), m, nxt))
    out.sort(key=lambda t: -t[0])
    return out


def _resolve_own_ties(rules, state, seat, me):
    """In a simulation, settle ties this seat must choose: itself if tied, else the weakest."""
    for _ in range(8):
        if seat not in rules.to_move(state):
            return state
        view = rules.view(state, seat)
        if not view.get("pending_choice"):
            return state
        state = rules.apply(state, seat, {"type": "choose_winner",
                                          "party": tie_choice_by_standing(view, me)})
    return state


def _borders_left(view):
    t = view.get("turn")
    if isinstance(t, dict):
        return int(t.get("borders_left") or 1)
    return int(view.get("borders_left") or 1)


@register_bot(GAME, "hard")
class HardBot(MediumBot):
    """Hard: plans its whole turn.  It tries many borders, keeps the few most promising, and for
    each of them tries the next borders it could add in the same turn, and so on (a "beam
    search").  It judges the board it would leave behind the way the medium bot does, but it
    also counts the districts its opponent could close with a single border on their next turn
    and avoids handing them over.  It grabs swing counties, because games often end with equal
    district counts and swing counties break the tie.  When time runs out it plays the best plan
    found so far."""

    beam_width = 4
    max_depth = 4

    def pick(self, rules, state, seat, moves, rng, deadline):
        view = rules.view(state, seat)
        me = party_of(view, seat)
        if _is_choice(moves[0]):
            return self.choose_tie(rules, state, seat, moves, me)
        left = _borders_left(view)
        first = score_moves(rules, state, seat, me, moves, rng)
        best_move = first[0][1]
        beam = [(v, m, _resolve_own_ties(rules, nxt, seat, me)) for v, m, nxt in first]
        depth = 1
        while depth < min(left, self.max_depth) and time.perf_counter() < deadline:
            depth += 1
            seen = set()
            expanded = []
            complete = True
            for v, m0, st in beam[: self.beam_width]:
                if seat not in rules.to_move(st) or rules.is_over(st):
                    expanded.append((v, m0, st))
                    continue
                nxt_moves = rules.legal_moves(st, seat)
                for v2, _m, st2 in score_moves(rules, st, seat, me, nxt_moves, rng, deadline):
                    key = tuple(sorted(map(_edge_key, rules.view(st2, None)["borders"])))
                    if key in seen:
                        continue
                    seen.add(key)
                    expanded.append((v2, m0, _resolve_own_ties(rules, st2, seat, me)))
                if time.perf_counter() > deadline:
                    complete = False
                    break
            if not expanded:
                break
            expanded.sort(key=lambda t: -t[0])
            if complete or expanded[0][0] > beam[0][0]:
                best_move = expanded[0][1]
            if not complete:
                break
            beam = expanded
        return best_move


def _edge_key(b):
    a, c = tuple(b[0]), tuple(b[1])
    return (a, c) if a < c else (c, a)
