"""Mapmaker bots: random, easy, medium and hard.

- random: any legal border, by chance.
- easy: one border of look-ahead: closes districts it wins, else the best board heuristic
  (districts won and lost, who leads each open region); ignores the opponent's next move.
- medium: the easy bot's top 5-6 borders, each tried with a few dozen random games played to
  the end (flat Monte Carlo with UCB); the one that wins most often is placed.
- hard: the same with ~10x more random games (hundreds per decision in the endgame, where
  districts form) and more candidates, plus an exact search of the last borders.

Every bot is handed only its seat's view, rebuilds the position from it with
``rules.sample_state`` (exact here: Mapmaker hides nothing) and simulates with ``rules.apply`` /
``legal_moves`` / ``to_move`` / ``is_over`` / ``result``; the board analysis below (open
regions, votes, swing counties) is rebuilt from a view.  The Monte Carlo bots stop after a
fixed amount of simulated borders (``work``), so their answer depends only on (state, seat,
seed) unless the time budget cuts them first.
"""

import math
import time

from games.bots.base import Bot, register_bot
from games.engine.mapmaker import DIRECTIONS, SOLO_EASY

GAME = "mapmaker"

# Heuristic weights (tuned with bench/bots_ladder.py).
SWING_WEIGHT = 0.3  # a swing county breaks ties in district counts: worth a fraction of a district
COUNTIES_PER_DISTRICT = 5.0  # how many districts an open region of n counties will likely yield
MARGIN_SCALE = 0.3  # steepness of the win chance on an open region's vote lead / sqrt(size)
WIN_BONUS = 50.0
CLOSE_BONUS = 1.0  # extra for closing a district now (won) or against closing one (lost)
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
                    index[(q + dq, r + dr)] for dq, dr in DIRECTIONS if (q + dq, r + dr) in index
                )
            )
        hit = (index, tuple(hit))
        if len(_NEIGHBOURS_CACHE) > 16:
            _NEIGHBOURS_CACHE.clear()
        _NEIGHBOURS_CACHE[key] = hit
    return hit


def _party_key(p):
    return None if p is None else int(p)


class Position:
    """What a seat sees of a Mapmaker board, reduced to what the heuristics need."""

    __slots__ = (
        "coords", "index", "nbrs", "party", "value", "swing", "district",
        "borders", "districts", "n_parties", "open_regions", "pending",
    )

    def __init__(self, view):
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
                    in_sub = set(sub)
                    rest = [x for x in comp if x not in in_sub]
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
            tied = d.get("tied_parties") or []
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


def evaluate(view, me, chooser_party=None, threat_weight=1.0):
    """How good this view is for party ``me`` (higher is better); plain numbers, no search."""
    res = view.get("result")
    pos = Position(view)
    dist, swing = standing(pos, chooser_party)
    score = [dist[p] + SWING_WEIGHT * swing[p] for p in range(pos.n_parties)]
    others = [score[p] for p in range(pos.n_parties) if p != me]
    best_other = max(others) if others else 0.0
    val = score[me] - best_other
    tm = view.get("to_move") or []
    if threat_weight and tm and not pos.pending:
        val += threat_weight * threats(pos, me, party_of(view, tm[0]))
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


class MapmakerBot(Bot):
    game = GAME

    def _choose(self, view, seat, rng, deadline):
        rules = _rules()
        # Mapmaker hides nothing, so the drawn position is the real one.
        state = rules.sample_state(view, seat, rng)
        moves = rules.legal_moves(state, seat)
        if not moves:
            raise ValueError(f"seat {seat} has no legal move (not its turn, or the game is over)")
        move = moves[0] if len(moves) == 1 else self.pick(rules, state, seat, moves, rng, deadline)
        if state["mode"] == SOLO_EASY and move.get("type") == "border":
            move = _avoid_dead_end(rules, state, seat, move, moves, rng, deadline)
        return move

    def pick(self, rules, state, seat, moves, rng, deadline):  # pragma: no cover - abstract
        raise NotImplementedError

    def choose_tie(self, rules, state, seat, moves, me):
        """Itself if it is among the tied parties, else the rival that helps its standing most."""
        for m in moves:
            if int(m["party"]) == me:
                return m
        best = None
        for m in moves:
            v = evaluate(rules.view(rules.apply(state, seat, m), seat), me)
            if best is None or v > best[0]:
                best = (v, m)
        return best[1]


class _Unknown(Exception):
    pass


def _completable(rules, state, seat, seen, deadline):
    """Easy solo: can ``state`` still be played to the end without undo?  A depth-first
    search, remembering the sets of borders already found stuck (the order borders were
    placed in does not matter).  Raises ``_Unknown`` when the time budget runs out."""
    if rules.is_over(state):
        return True
    key = frozenset(state["borders"])
    if key in seen:
        return False
    if time.perf_counter() > deadline:
        raise _Unknown
    for m in rules.legal_moves(state, seat):
        if m.get("type") == "border" and \
                _completable(rules, rules.apply(state, seat, m), seat, seen, deadline):
            return True
    seen.add(key)
    return False


def _avoid_dead_end(rules, state, seat, move, moves, rng, deadline):
    """Easy solo: a border after which every way on closes a tied district leaves only undo,
    and a bot that then places it again goes round in circles.  So keep ``move`` unless a
    search shows it cannot be played to the end; else the first other border (by chance) that
    can; else take back the last border.  When the search runs out of time, the border tried
    is kept: a position that big has plenty of ways on."""
    seen = set()
    others = [m for m in moves if m is not move and m.get("type") == "border"]
    rng.shuffle(others)
    for m in [move, *others]:
        try:
            if _completable(rules, rules.apply(state, seat, m), seat, seen, deadline):
                return m
        except _Unknown:
            return m
    return {"type": "undo"} if state["borders"] else move


@register_bot(GAME, "random")
class RandomBot(MapmakerBot):
    """Random: places any border it is allowed to, picked by chance, like rolling a die.
    When it must break a tie, it picks one of the tied parties by chance too."""

    def pick(self, rules, state, seat, moves, rng, deadline):
        return rng.choice(moves)


@register_bot(GAME, "easy")
class EasyBot(MapmakerBot):
    """Easy: looks one border ahead.  If a border closes off a district it would win, it places
    it.  Otherwise, for every border it could place, it imagines the board right afterwards and
    gives it a score: districts already won count for it, districts lost count against it, and
    each open region counts a little for whoever has more votes in it.  It places the
    best-scoring border.  It does not think about what its opponent could do next.  When it
    must break a tie it picks itself, or else the rival that helps it most."""

    def pick(self, rules, state, seat, moves, rng, deadline):
        view = rules.view(state, seat)
        me = party_of(view, seat)
        if _is_choice(moves[0]):
            return self.choose_tie(rules, state, seat, moves, me)
        # closing a district it wins comes first, then the board score; it ignores what one
        # more border could close (threat_weight=0), which keeps it an easy opponent
        return score_moves(rules, state, seat, me, moves, rng, close_bonus=100.0,
                           threat_weight=0)[0][1]


def score_moves(rules, state, seat, me, moves, rng, deadline=None, jitter=1e-6,
                close_bonus=CLOSE_BONUS, threat_weight=1.0):
    """[(score, move, next_state)] best first: one-border look-ahead with ``evaluate``.

    Without a deadline every move is scored (a few hundredths of a second on the 2-player
    board); with one, scoring stops when it passes."""
    before = len(rules.view(state, seat).get("districts") or [])
    order = list(moves)
    rng.shuffle(order)
    out = []
    for m in order:
        if deadline is not None and out and time.perf_counter() > deadline:
            break
        nxt = rules.apply(state, seat, m)
        after = rules.view(nxt, seat)
        v = evaluate(after, me, chooser_party=me, threat_weight=threat_weight)
        for d in (after.get("districts") or [])[before:]:  # districts this border closes
            w = d.get("winner")
            if w is None and me in (d.get("tied_parties") or []):
                w = me  # a tie I close: I will choose myself
            if w is not None:
                v += close_bonus if int(w) == me else -close_bonus
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


# --------------------------------------------------------------------------- Monte Carlo


def _playout(rules, state, rng, party_of_seat, max_plies=400):
    """Play the game to its end with random borders (a tie goes to the closer if it is tied).

    Returns ``(final_state, plies played)``."""
    to_move, legal, apply, is_over = rules.to_move, rules.legal_moves, rules.apply, rules.is_over
    n = 0
    while not is_over(state) and n < max_plies:
        seat = to_move(state)[0]
        ms = legal(state, seat)
        if _is_choice(ms[0]):
            mine = party_of_seat[seat]
            m = next((x for x in ms if x["party"] == mine), None) or rng.choice(ms)
        else:
            m = ms[rng.randrange(len(ms))]
        state = apply(state, seat, m)
        n += 1
    return state, n


def _reward(rules, state, seat):
    """A finished game from ``seat``'s side: 1 for a win, 1/2 for a shared win, 0 for a loss
    (the engine's result applies districts, then swing counties, then the Supreme Court),
    plus a little for each district of lead, so that bigger wins count a bit more."""
    if not rules.is_over(state):
        return 0.5
    res = rules.result(state)
    winners = res.get("winners") or []
    if seat in winners:
        r = 1.0 if len(winners) == 1 else 0.5
    else:
        r = 0.0
    rows = {row["seat"]: row for row in res.get("ranking", [])}
    mine = rows.get(seat, {}).get("districts", 0)
    best = max((row["districts"] for s, row in rows.items() if s != seat), default=0)
    return r + 0.05 * (mine - best)


class MonteCarloBot(MapmakerBot):
    """Shared machinery of the medium and hard bots: score every border with the easy bot's
    judgement, keep the most promising ``candidates``, then play quick random games to the end
    from each of them and place the border whose games went best.  The number of random games
    is shared out with the UCB rule (more games for the borders that are doing well, some for
    the others).  It stops after ``work`` simulated borders in all (so the answer is the same
    for the same seed), or when the time budget runs out.  In the endgame (at most
    ``late_moves`` legal borders) it uses ``late_work`` and ``late_candidates`` instead, and
    with at most ``endgame_moves`` legal borders it first tries ``solve_endgame``."""

    candidates = 8
    work = 3000  # simulated borders per decision (~0.1 ms each)
    explore = 0.4
    late_moves = 0  # with this many legal borders or fewer (the endgame, where districts form)
    late_work = 0  # ... simulate this many borders instead
    late_candidates = 0  # ... from this many candidates
    endgame_moves = 0  # with this many legal borders or fewer, try an exact search first
    endgame_nodes = 0  # ... of at most this many positions (0: never)

    def pick(self, rules, state, seat, moves, rng, deadline):
        view = rules.view(state, seat)
        me = party_of(view, seat)
        if _is_choice(moves[0]):
            return self.choose_tie(rules, state, seat, moves, me)
        return self.search(rules, state, seat, me, view, moves, rng, deadline)

    def search(self, rules, state, seat, me, view, moves, rng, deadline):
        seats = view.get("party_of_seat") or []
        if self.endgame_nodes and len(moves) <= self.endgame_moves:
            now = time.perf_counter()
            exact = solve_endgame(rules, state, seat, moves, now + 0.5 * (deadline - now),
                                  self.endgame_nodes)
            if exact is not None:
                return exact
        late = len(moves) <= self.late_moves
        work = self.late_work if late else self.work
        first = score_moves(rules, state, seat, me, moves, rng)
        cands = [(m, _resolve_own_ties(rules, nxt, seat, me))
                 for _v, m, nxt in first[: self.late_candidates if late else self.candidates]]
        k_n = len(cands)
        n = [0] * k_n
        w = [0.0] * k_n
        total = spent = 0
        while spent < work and time.perf_counter() < deadline:
            if total < k_n:
                k = total
            else:
                lt = math.log(total)
                k = max(range(k_n), key=lambda i: w[i] / n[i] + self.explore * math.sqrt(lt / n[i]))
            end, plies = _playout(rules, cands[k][1], rng, seats)
            w[k] += _reward(rules, end, seat)
            n[k] += 1
            total += 1
            spent += plies + 1
        if total < k_n:
            return first[0][1]
        k = max(range(k_n), key=lambda i: (n[i], w[i] / n[i]))
        return cands[k][0]


class _OutOfBudget(Exception):
    pass


def _border_key(m):
    (a, b), (c, d) = m["between"]
    return (a, b, c, d) if (a, b) < (c, d) else (c, d, a, b)


def solve_endgame(rules, state, seat, moves, deadline, max_nodes):
    """Exact play of the last borders: every order of the remaining borders is tried (positions
    reached by the same set of borders are looked up, not searched twice), assuming the
    opponents play their best against this seat and a tie goes to the closer when it is tied.
    Returns the best move, or None if the search would take more than ``max_nodes`` positions
    or pass the deadline."""
    party_of_seat = rules.view(state, seat)["party_of_seat"]
    memo = {}
    count = [0]

    def value(st, key):
        if rules.is_over(st):
            return _reward(rules, st, seat)
        hit = memo.get(key)
        if hit is not None:
            return hit
        count[0] += 1
        if count[0] > max_nodes or (count[0] & 63 == 0 and time.perf_counter() > deadline):
            raise _OutOfBudget
        mover = rules.to_move(st)[0]
        ms = rules.legal_moves(st, mover)
        if _is_choice(ms[0]):
            mine = party_of_seat[mover]
            own = [m for m in ms if m["party"] == mine]
            if own:
                v = value(rules.apply(st, mover, own[0]), key)
            else:
                # The choice joins the key (borders placed so far tell which district it was).
                vals = [value(rules.apply(st, mover, m), key | {f"choice:{len(key)}:{m['party']}"})
                        for m in ms]
                v = max(vals) if mover == seat else min(vals)
        else:
            vals = (value(rules.apply(st, mover, m), key | {_border_key(m)}) for m in ms)
            v = max(vals) if mover == seat else min(vals)
        memo[key] = v
        return v

    try:
        best = None
        for m in moves:
            v = value(rules.apply(state, seat, m), frozenset([_border_key(m)]))
            if best is None or v > best[0]:
                best = (v, m)
        return best[1]
    except _OutOfBudget:
        return None


@register_bot(GAME, "medium")
class MediumBot(MonteCarloBot):
    """Medium: first it scores every border the way the easy bot does and keeps the five best.
    Then, for each of those five, it imagines quick games played to the very end with random
    borders, and counts how often it would win them (most districts, then swing counties, then
    the Supreme Court).  It places the border that won most often.  It imagines only a few
    games early on and a few dozen near the end, when districts are forming, so its guesses
    are rough.  When it must break a tie it picks itself, or else the rival that helps it
    most."""

    candidates = 5
    work = 400
    late_moves = 45
    late_work = 1500
    late_candidates = 6


@register_bot(GAME, "hard")
class HardBot(MonteCarloBot):
    """Hard: like the medium bot, it tries its most promising borders by imagining games played
    to the end and placing the border that wins most often, but it imagines many more of them
    (hundreds per border near the end of the game, where the districts form) and considers more
    borders, so its guesses are much better.  It spends more imagined games on the borders that
    look good, to tell the best ones apart.  Because these games are played all the way to the
    end, it sees how packing and cracking voters really turn out, and it counts swing counties
    and the Supreme Court, which break ties.  In the last few borders of the game it stops
    guessing: it tries every order of the remaining borders, for itself and its opponent, and
    plays the one that wins against the opponent's best answers.  When time runs out it plays
    the best border found so far."""

    candidates = 10
    work = 3000
    late_moves = 45
    late_work = 8000
    late_candidates = 14
    endgame_moves = 13
    endgame_nodes = 1500
