"""First Past the Post bots: random, easy, medium and hard.

- random: any legal move by chance (it never leaves the game).
- easy: simple value rules.  It works out how much each empty hex matters to it (how much
  winning it changes its chances in that constituency), campaigns for the hex that matters
  most, and bids a card as high in its hand as the hex is important.  It keeps helpful news
  cards, hands harmful ones to the leader, and never pays for news cards.
- medium: bids by Monte Carlo: it draws many possible hands for the other players
  (``rules.sample_state``), assumes they bid like the easy bot, and picks the card that gives
  it the best expected result, counting what the card is still worth later.  It compares its
  best few hexes the same way before it campaigns.  Against one player it pays for a
  gerrymander or Clean Slate when the gain is worth the card; at a bigger table it never pays.
- hard: like medium, but it assumes the others think like medium (each one guessing hands
  as medium does and expecting everybody else to bid like the easy bot), so it predicts
  cleverer opponents and answers them.  It counts cards and expects the others to have kept
  high ones (strongly against one opponent, a little at a bigger table, where the others
  spend their top cards more often).  It compares every hex against one opponent, and only
  its two most important hexes at a bigger table.  It pays for a gerrymander or a Clean
  Slate when the gain is worth the card, at any table.

The position is read from the seat's view only.  ``Position`` turns it into per-constituency
vote counts; the chance of each player winning a constituency is counted exactly over every
way its empty hexes could still fall (each player equally likely to win each one), and a
player's standing is its expected constituencies minus the (softened) best of the others'.
"""

import bisect
import math
import random
import time
from functools import lru_cache

from games.bots.base import Bot, register_bot
from games.engine.fptp_data import NEWS
from games.engine.fptp_map import board_for, gerrymander_problem

GAME = "fptp"

# Tuning (bench/fptp_bench.py).
HEX_EPS = 0.02  # a won hex is worth this much on top of the constituency chances (tie-break)
SOFTMAX_T = 0.5  # how sharply "the best of the others" is taken in multi-player games
ALPHA = 1.0  # price of sway: an average card on an average hex is about break-even
MEAN_CARD = 25.5
MAX_COMPOSITIONS = 400  # beyond this many ways to share the empty hexes, sample them
TYPE_RANK = {"city": 3, "large_town": 2, "small_town": 1, "rural": 0}
PERM_WEIGHT = 0.5  # share of a Permanent card's sway that ends up counting


def _rules():
    from games.engine import get_rules

    return get_rules(GAME)


# --------------------------------------------------------------------------- constituency odds

@lru_cache(maxsize=256)
def _compositions(u, m):
    """Ways ``u`` empty hexes can fall among ``m`` players, each equally likely to win each:
    ((counts per player), probability) pairs (sampled when there are very many)."""
    if m == 0:
        return (((), 1.0),)
    count = math.comb(u + m - 1, m - 1)
    if count > MAX_COMPOSITIONS:
        rng = random.Random(f"compositions|{u}|{m}")
        tally = {}
        for _ in range(MAX_COMPOSITIONS):
            c = [0] * m
            for _ in range(u):
                c[rng.randrange(m)] += 1
            t = tuple(c)
            tally[t] = tally.get(t, 0) + 1
        return tuple((t, k / MAX_COMPOSITIONS) for t, k in sorted(tally.items()))
    out = []
    total = m ** u
    fact = math.factorial

    def rec(prefix, left, slots):
        if slots == 1:
            c = prefix + (left,)
            ways = fact(u)
            for x in c:
                ways //= fact(x)
            out.append((c, ways / total))
            return
        for k in range(left + 1):
            rec(prefix + (k,), left - k, slots - 1)

    rec((), u, m)
    return tuple(out)


_PROBS = {}


def const_probs(votes, empty, ins, tb):
    """P(each seat wins a constituency) with these top-counter ``votes``, ``empty`` hexes
    that the seats ``ins`` may still win, and ``tb`` the tie-break order (City holder, then
    Large Town, then Small Town holders); other ties are shared."""
    key = (votes, empty, ins, tb)
    hit = _PROBS.get(key)
    if hit is not None:
        return hit
    n = len(votes)
    out = [0.0] * n
    for counts, p in _compositions(empty, len(ins)):
        final = list(votes)
        for j, s in enumerate(ins):
            final[s] += counts[j]
        top = max(final)
        if top == 0:
            continue
        tied = [s for s in range(n) if final[s] == top]
        if len(tied) == 1:
            out[tied[0]] += p
            continue
        w = next((s for s in tb if s in tied), None)
        if w is not None:
            out[w] += p
        else:
            for s in tied:
                out[s] += p / len(tied)
    if len(_PROBS) > 200_000:
        _PROBS.clear()
    _PROBS[key] = out
    return out


def standing(E, o):
    """Seat ``o``'s standing: its expected constituencies minus the others' best (softened)."""
    others = [E[s] for s in range(len(E)) if s != o]
    if len(others) == 1:
        return E[o] - others[0]
    top = max(others)
    soft = top + SOFTMAX_T * math.log(sum(math.exp((x - top) / SOFTMAX_T) for x in others))
    return E[o] - soft


def future_value(hand, later):
    """What a hand is still worth: its ``later`` best cards (the rest will never be used)."""
    if later <= 0:
        return 0
    if later >= len(hand):
        return sum(hand)
    return sum(sorted(hand)[-later:])


# --------------------------------------------------------------------------- the position

class Group:
    """Hexes that are alike for a campaign: one constituency, one hex type, one holder (None:
    empty hexes; a seat: a won hex to campaign for again under Floods or Riots)."""

    __slots__ = ("k", "htype", "holder", "bonus", "hexes", "vm", "stake", "sway", "pct")

    def __init__(self, k, htype, holder, bonus):
        self.k, self.htype, self.holder, self.bonus = k, htype, holder, bonus
        self.hexes = []
        self.vm = None  # vm[o][w]: seat o's standing if seat w wins
        self.stake = None  # stake[o]: how much winning matters to o
        self.sway = None  # sway[s]: Permanent (and holder) bonus of each seat here
        self.pct = None  # how important the group is to each seat (easy bot)


class Position:
    """What a seat sees of a First Past the Post game, as the bots need it."""

    def __init__(self, view, seat, alpha=ALPHA):
        self.alpha = alpha
        self.view = view
        self.me = seat
        n = self.n = view["players"]
        board = self.board = board_for(view["map"])
        hexes = view["hexes"]
        self.const_of = [board.const_index[h["constituency"]] for h in hexes]
        self.owner = [h["owner"] for h in hexes]
        self.gerrymandered = [h["gerrymandered"] for h in hexes]
        seats = view["seats"]
        self.left = [row["left"] for row in seats]
        self.ins = tuple(s for s in range(n) if not self.left[s])
        self.perms = [list(row["permanents"]) for row in seats]
        self.hand_size = [row["hand_size"] for row in seats]
        self.hand = sorted(view["hand"] or [])
        if view.get("my_bid") is not None:
            self.hand = sorted(self.hand + [view["my_bid"]])
        self.active = view["active"]
        K = self.K = len(board.const_names)
        self.members = [[] for _ in range(K)]
        for i, k in enumerate(self.const_of):
            self.members[k].append(i)
        self.votes = []
        self.empty = []
        for k in range(K):
            v = [0] * n
            e = 0
            for i in self.members[k]:
                if self.owner[i] is None:
                    e += 1
                else:
                    v[self.owner[i]] += 1
            self.votes.append(v)
            self.empty.append(e)
        self.remaining = sum(self.empty)
        self.P = [self.probs(k, self.votes[k], self.empty[k], self.tiebreak(k))
                  for k in range(K)]
        self.won = [0] * n
        for o in self.owner:
            if o is not None:
                self.won[o] += 1
        self.E = [sum(self.P[k][s] for k in range(K)) + HEX_EPS * self.won[s] for s in range(n)]
        self._groups = None
        self._lam = None
        self._pct = None
        self.base_value = self.my_value(self.P, self.won)

    # odds ----------------------------------------------------------------
    def tiebreak(self, k, change=None):
        """Tie-break order in constituency k (``change``: {hex: new owner})."""
        change = change or {}
        order = []
        for t in ("city", "large_town", "small_town"):
            for i in self.members[k]:
                if self.board.types[i] == t:
                    o = change.get(i, self.owner[i])
                    if o is not None and o not in order:
                        order.append(o)
        return tuple(order)

    def probs(self, k, votes, empty, tb):
        return const_probs(tuple(votes), empty, self.ins, tb)

    def standing_after(self, changes):
        """Every seat's standing after ``changes`` = {k: (votes, empty, tb)} and hex
        ``won`` deltas; returns the E vector."""
        E = list(self.E)
        for k, (votes, empty, tb) in changes.items():
            new = self.probs(k, votes, empty, tb)
            old = self.P[k]
            for s in range(self.n):
                E[s] += new[s] - old[s]
        return E

    def rows_after(self, changes):
        """The constituency odds after ``changes`` = {k: (votes, empty, tb)}."""
        rows = list(self.P)
        for k, (votes, empty, tb) in changes.items():
            rows[k] = self.probs(k, votes, empty, tb)
        return rows

    def my_value(self, rows, won):
        """My standing with these constituency odds and hexes won."""
        E = [sum(r[s] for r in rows) + HEX_EPS * won[s] for s in range(self.n)]
        return standing(E, self.me)

    def bidders(self):
        return [s for s in self.ins if self.hand_size[s] > 0 or s == self.me and self.hand
                or s in self.view.get("committed", [])]

    # hex groups ------------------------------------------------------------
    def groups(self):
        """Every kind of campaign open now, with each seat's standing for each winner."""
        if self._groups is not None:
            return self._groups
        view = self.view
        rec = None
        card = view.get("news_card")
        if card and NEWS[card["kind"]]["type"] == "action" and \
                NEWS[card["kind"]]["effect"]["action"] == "recampaign":
            rec = NEWS[card["kind"]]["effect"]
        found = {}
        for i in range(self.board.size):
            htype = self.board.types[i]
            if self.owner[i] is None:
                key = (self.const_of[i], htype, None)
            elif rec is not None and htype in rec["hex_types"]:
                key = (self.const_of[i], htype, self.owner[i])
            else:
                continue
            g = found.get(key)
            if g is None:
                g = found[key] = Group(key[0], htype, key[2],
                                       rec["holder_bonus"] if key[2] is not None else 0)
            g.hexes.append(i)
        groups = list(found.values())
        bidders = self.bidders()
        for g in groups:
            self._evaluate(g, bidders)
        self._groups = groups
        return groups

    def group_of(self, i, holder_bonus=0):
        """The group of hex ``i`` for a campaign in progress (the bus hex)."""
        holder = self.owner[i]
        g = Group(self.const_of[i], self.board.types[i], holder,
                  holder_bonus if holder is not None else 0)
        g.hexes.append(i)
        self._evaluate(g, self.bidders())
        return g

    def _evaluate(self, g, bidders):
        n, k = self.n, g.k
        i = g.hexes[0]
        vm = [[0.0] * n for _ in range(n)]
        for w in bidders:
            votes = list(self.votes[k])
            empty = self.empty[k]
            if g.holder is None:
                empty -= 1
            else:
                votes[g.holder] -= 1
            votes[w] += 1
            change = {k: (votes, empty, self.tiebreak(k, {i: w}))}
            E = self.standing_after(change)
            E[w] += HEX_EPS
            if g.holder is not None:
                E[g.holder] -= HEX_EPS
            for o in range(n):
                vm[o][w] = standing(E, o)
        g.vm = vm
        g.stake = [0.0] * n
        for o in bidders:
            rest = [vm[o][w] for w in bidders if w != o]
            g.stake[o] = vm[o][o] - (sum(rest) / len(rest) if rest else vm[o][o])
        g.sway = [self.bonus(s, i) + (g.bonus if s == g.holder else 0) for s in range(n)]

    def bonus(self, s, i):
        total = 0
        for kind in self.perms[s]:
            eff = NEWS[kind]["effect"]
            if _in_region(self.board, self.const_of, i, eff["where"]):
                total += eff["sway"]
        return total

    # prices ------------------------------------------------------------------
    def price(self, o):
        """Standing per sway point for seat ``o`` (how dear a high card is)."""
        if self._lam is None:
            self._lam = {}
        if o not in self._lam:
            total = weight = 0.0
            for g in self.groups():
                if g.holder is None:
                    stake = g.stake[o]
                    total += max(stake, 0.0) * len(g.hexes)
                    weight += len(g.hexes)
            mean = total / weight if weight else 0.0
            self._lam[o] = self.alpha * mean / MEAN_CARD
        return self._lam[o]

    def percentiles(self, o):
        """Seat o's stakes over the empty hexes, sorted (for the easy bot's card choice)."""
        if self._pct is None:
            self._pct = {}
        if o not in self._pct:
            self._pct[o] = sorted(g.stake[o] for g in self.groups() if g.holder is None
                                  for _ in g.hexes)
        return self._pct[o]

    def importance(self, g, o):
        """How important group g is to seat o among the empty hexes (0 to 1)."""
        if g.pct is None:
            g.pct = {}
        if o not in g.pct:
            g.pct[o] = importance(self.percentiles(o), g.stake[o])
        return g.pct[o]


def _in_region(board, const_of, i, where):
    from games.engine.fptp import in_region

    return in_region(board, const_of, i, where)


def importance(stakes, x):
    """Where stake x ranks among the sorted ``stakes`` (0: the least, 1: the most)."""
    if not stakes:
        return 0.5
    lo = bisect.bisect_left(stakes, x - 1e-12)
    hi = bisect.bisect_right(stakes, x + 1e-12)
    return (lo + hi) / 2 / len(stakes)


def easy_bid(hand, pct):
    """The easy bot's card: as high in its (sorted) hand as the hex is important."""
    return hand[min(len(hand) - 1, max(0, round(pct * (len(hand) - 1))))]


# --------------------------------------------------------------------------- bid models

class Table:
    """What seat ``o`` expects the others' best sway to be in one campaign, from samples of
    the others' easy-bot bids: sorted tops, the seat that would win then, and whether the
    active player is among the tied tops."""

    def __init__(self, pos, g, o, samples):
        rows = []
        active = pos.active
        for sways in samples:
            top = None
            best = []
            for s, sw in sways:
                if s == o:
                    continue
                if top is None or sw > top:
                    top, best = sw, [s]
                elif sw == top:
                    best.append(s)
            if top is None:
                continue
            if active in best:
                w = active
            else:
                w = best[0]
            rows.append((top, w, active in best, len(best)))
        rows.sort(key=lambda r: r[0])
        self.tops = [r[0] for r in rows]
        self.rows = rows
        vm = g.vm[o]
        self.o = o
        self.vm = vm
        self.active = active
        prefix = [0.0]
        for r in rows:
            prefix.append(prefix[-1] + vm[r[1]])
        self.prefix = prefix

    def expected(self, sway):
        """o's expected standing if its sway is ``sway``."""
        m = len(self.tops)
        if m == 0:
            return self.vm[self.o]
        lo = bisect.bisect_left(self.tops, sway)
        hi = bisect.bisect_right(self.tops, sway)
        mine = self.vm[self.o]
        total = lo * mine + (self.prefix[m] - self.prefix[hi])
        for r in self.rows[lo:hi]:
            if self.o == self.active:
                total += mine
            elif r[2]:
                total += self.vm[r[1]]
            else:
                share = 1.0 / (r[3] + 1)
                total += share * mine + (1 - share) * self.vm[r[1]]
        return total / m


def smart_bid(pos, g, o, hand, table):
    """The medium bot's card for seat ``o`` with ``hand``: best expected standing against
    the others' easy-bot bids, plus what the cards left are still worth."""
    lam = pos.price(o)
    later = pos.remaining - 1
    best = None
    for b in sorted(set(hand)):
        rest = list(hand)
        rest.remove(b)
        u = table.expected(b + g.sway[o]) + lam * future_value(rest, later)
        if best is None or u > best[0] + 1e-12:
            best = (u, b)
    return best[1]


def sample_hands(rules, view, seat, rng, count, counting=True, keeps=0.0):
    """``count`` guesses of every seat's hand before this campaign's bid (committed bids go
    back into the hand they came from), drawn with ``rules.sample_state``.

    Without ``counting`` the hidden cards are dealt again at random, as by a player who does
    not remember which cards went into the pile at the last reshuffle.  ``keeps`` > 0 deals
    the cards the others drew since then with a lean towards high ones (a player who thinks
    ahead keeps its high cards and plays its low ones): card c weighs exp(keeps * c / 50).
    """
    pile_cards = view.get("budget_pile_cards") if counting else None
    in_pile = set(pile_cards) if pile_cards else None
    n = view["players"]
    out = []
    for _ in range(count):
        state = rules.sample_state(view, seat, rng)
        hands = []
        for s in range(n):
            h = list(state["hands"][s])
            if state["bids"][s] is not None:
                h.append(state["bids"][s])
            hands.append(h)
        pool = list(state["budget_pile"])
        need = {}
        for s in range(n):
            if s == seat:
                continue
            old = [c for c in hands[s] if in_pile is not None and c not in in_pile]
            pool += [c for c in hands[s] if in_pile is None or c in in_pile]
            need[s] = len(hands[s]) - len(old)
            hands[s] = old
        if keeps:
            # weighted sampling without replacement (Efraimidis-Spirakis keys)
            pool.sort(key=lambda c: -rng.random() ** (1.0 / math.exp(keeps * c / 50)))
            total = sum(need.values())
            held, pile = pool[:total], pool[total:]
            rng.shuffle(held)
        else:
            rng.shuffle(pool)
            total = sum(need.values())
            held, pile = pool[:total], pool[total:]
        for s, k in need.items():
            hands[s] += held[:k]
            del held[:k]
        out.append(([sorted(h) for h in hands], pile))
    return out


def easy_sways(pos, g, hands, exclude=None):
    """Every bidder's sway when all bid like the easy bot."""
    out = []
    for s in pos.bidders():
        if s == exclude or not hands[s]:
            continue
        out.append((s, easy_bid(hands[s], pos.importance(g, s)) + g.sway[s]))
    return out


def winner_value(pos, g, me, sways):
    """My standing once the sways are revealed (ties: the active player, else shared)."""
    mine = g.vm[me]
    top = max(sw for _, sw in sways)
    tied = [s for s, sw in sways if sw == top]
    if len(tied) == 1:
        return mine[tied[0]]
    if pos.active in tied:
        return mine[pos.active]
    return sum(mine[s] for s in tied) / len(tied)


def best_card(pos, g, me, hand, opponent_bids):
    """(utility, card) of my best card against sampled opponent sways (lists of (seat,
    sway) per sample)."""
    lam = pos.price(me)
    later = pos.remaining - 1
    best = None
    for b in sorted(set(hand)):
        sw = b + g.sway[me]
        total = 0.0
        for others in opponent_bids:
            total += winner_value(pos, g, me, others + [(me, sw)])
        ev = total / max(1, len(opponent_bids))
        rest = list(hand)
        rest.remove(b)
        u = ev + lam * future_value(rest, later)
        if best is None or u > best[0] + 1e-12:
            best = (u, b)
    return best


# --------------------------------------------------------------------------- news decisions

def perm_worth(pos, s, kinds):
    """Sway a seat's Permanent cards are still likely to bring it (bonus x empty hexes)."""
    total = 0.0
    for kind in kinds:
        eff = NEWS[kind]["effect"]
        hexes = sum(1 for i in range(pos.board.size) if pos.owner[i] is None
                    and _in_region(pos.board, pos.const_of, i, eff["where"]))
        total += eff["sway"] * hexes
    return total * PERM_WEIGHT / max(1, len(pos.ins))


def rivals_weights(pos):
    """How much each other seat's gain hurts me: the leader most."""
    me = pos.me
    others = [s for s in pos.ins if s != me]
    if not others:
        return {}
    if len(others) == 1:
        return {others[0]: 1.0}
    lead = max(others, key=lambda s: pos.E[s])
    return {s: (0.7 if s == lead else 0.3 / (len(others) - 1)) for s in others}


def perms_score(pos, perms):
    me = pos.me
    score = perm_worth(pos, me, perms[me]) * pos.price(me)
    for s, w in rivals_weights(pos).items():
        score -= w * perm_worth(pos, s, perms[s]) * pos.price(me)
    return score


def best_give(pos, moves, kind):
    best = None
    for m in moves:
        perms = [list(p) for p in pos.perms]
        if m.get("discard"):
            perms[m["seat"]].remove(m["discard"])
        perms[m["seat"]].append(kind)
        score = perms_score(pos, perms)
        if best is None or score > best[0] + 1e-12:
            best = (score, m)
    return best[1]


def gerrymander_options(pos, colours):
    """[(gain in my standing, move)] for every legal placement of the given colours."""
    out = []
    board = pos.board
    for colour in colours:
        for i in range(board.size):
            if board.types[i] != "rural":
                continue
            code, k_to = gerrymander_problem(board, pos.const_of, pos.gerrymandered, i, colour)
            if code is not None:
                continue
            k_from = pos.const_of[i]
            changes = {}
            for k in (k_from, k_to):
                changes[k] = [list(pos.votes[k]), pos.empty[k]]
            o = pos.owner[i]
            if o is None:
                changes[k_from][1] -= 1
                changes[k_to][1] += 1
            else:
                changes[k_from][0][o] -= 1
                changes[k_to][0][o] += 1
            rows = pos.rows_after({k: (v, e, pos.tiebreak(k)) for k, (v, e) in
                                   changes.items()})
            gain = pos.my_value(rows, pos.won) - pos.base_value
            q, r = board.coords[i]
            out.append((gain, {"type": "gerrymander", "hex": [q, r], "colour": colour}))
    out.sort(key=lambda t: -t[0])
    return out


def pay_cost(pos, card):
    rest = list(pos.hand)
    rest.remove(card)
    later = pos.remaining
    return pos.price(pos.me) * (future_value(pos.hand, later) - future_value(rest, later))


def urbanise_gain(pos, move):
    i = pos.board.index[tuple(move["rural"])]
    c = pos.board.index[tuple(move["city"])]
    k = pos.const_of[c]
    tb = pos.tiebreak(k, {c: pos.owner[i], i: pos.owner[c]})
    rows = pos.rows_after({k: (pos.votes[k], pos.empty[k], tb)})
    return pos.my_value(rows, pos.won) - pos.base_value


def end_answer(pos):
    """Agree when I lead (or share the lead), or when the news pile cannot change anything."""
    counts = [row["constituencies"] for row in pos.view["seats"]]
    if counts[pos.me] >= max(counts):
        return True
    return pos.view["news_pile"] == 0


# --------------------------------------------------------------------------- the bots

class FPTPBot(Bot):
    game = GAME

    def _choose(self, view, seat, rng, deadline):
        moves = [m for m in view["legal_moves"] if m["type"] != "leave"]
        if not moves:
            raise ValueError(f"seat {seat} has no legal move (not its turn, or the game is over)")
        if len(moves) == 1:
            return moves[0]
        return self.pick(view, seat, moves, rng, deadline)

    def pick(self, view, seat, moves, rng, deadline):  # pragma: no cover - abstract
        raise NotImplementedError


@register_bot(GAME, "random")
class RandomBot(FPTPBot):
    """Random: every decision is a lucky dip.  It campaigns for any empty hex, bids any card
    from its hand, and answers news cards by chance.  It never leaves the game."""

    def pick(self, view, seat, moves, rng, deadline):
        return rng.choice(moves)


class ThinkingBot(FPTPBot):
    """Shared decisions of the easy, medium and hard bots."""

    pays_for = ()  # the news actions ("gerrymander", "clean_slate") it pays for when worth it
    crowd_pays_for = None  # the same at a table of three or more (None: as against one)
    alpha = ALPHA

    @staticmethod
    def at_table(players, duel, crowd):
        """A setting for this table size: ``duel`` against one player, else ``crowd``."""
        return duel if players == 2 or crowd is None else crowd

    def position(self, view, seat):
        """The seat's view read as this bot reads it."""
        return Position(view, seat, self.alpha)

    def pick(self, view, seat, moves, rng, deadline):
        pos = self.position(view, seat)
        kind = moves[0]["type"]
        step = view["step"]
        if kind == "give":
            return best_give(pos, moves, view["news_card"]["kind"])
        if step == "news":
            return self.news(pos, view, moves)
        if kind == "gerrymander":
            return gerrymander_options(pos, sorted({m["colour"] for m in moves}))[0][1]
        if kind == "clean_slate":
            return self.clean_slate_target(pos, moves)[1]
        if kind == "end":
            return {"type": "end", "agree": end_answer(pos)}
        if kind == "campaign":
            return self.campaign(pos, view, seat, moves, rng, deadline)
        if kind == "bid":
            return self.bid(pos, view, seat, moves, rng, deadline)
        return moves[0]

    def news(self, pos, view, moves):
        decline = {"type": "news", "accept": False}
        urbanise = [m for m in moves if m["type"] == "urbanise"]
        if urbanise:
            gain, move = max(((urbanise_gain(pos, m), m) for m in urbanise),
                             key=lambda t: t[0])
            return move if gain > 1e-9 else decline
        pays = sorted(m["card"] for m in moves if m["type"] == "pay")
        if not pays:
            return decline
        action = NEWS[view["news_card"]["kind"]]["effect"]
        if action["action"] not in self.at_table(pos.n, self.pays_for, self.crowd_pays_for):
            return decline
        card = pays[0]
        if action["action"] == "gerrymander":
            colours = action["colours"] or ["green", "orange", "yellow", "grey"]
            colours = [c for c in colours if view["gerrymander_left"].get(c, 0) > 0]
            options = gerrymander_options(pos, colours)
            gain = options[0][0] if options else 0.0
        else:
            gain = self.clean_slate_target(pos, [{"type": "clean_slate", "seat": s}
                                                 for s in pos.ins if pos.perms[s]])[0]
        if gain > pay_cost(pos, card):
            return {"type": "pay", "card": card}
        return decline

    def clean_slate_target(self, pos, moves):
        base = perms_score(pos, pos.perms)
        best = None
        for m in moves:
            perms = [list(p) for p in pos.perms]
            perms[m["seat"]] = []
            gain = perms_score(pos, perms) - base
            if best is None or gain > best[0]:
                best = (gain, m)
        return best

    def hex_move(self, pos, g):
        q, r = pos.board.coords[g.hexes[0]]
        return {"type": "campaign", "hex": [q, r]}


@register_bot(GAME, "easy")
class EasyBot(ThinkingBot):
    """Easy: for every empty hex it works out how much winning it would help it win that
    constituency, and campaigns for the hex that matters most to it.  When bidding it plays
    a card as high in its hand as the hex is important to it: its best card for the hexes
    that matter most, its worst for the ones that hardly matter.  It keeps helpful news cards
    (or gives harmful ones to the leader), swaps counters with Urbanisation when that helps,
    and never pays for news cards."""

    def campaign(self, pos, view, seat, moves, rng, deadline):
        groups = [g for g in pos.groups() if g.holder is None]
        g = max(groups, key=lambda g: (g.stake[seat], TYPE_RANK[g.htype], -g.hexes[0]))
        return self.hex_move(pos, g)

    def bid(self, pos, view, seat, moves, rng, deadline):
        g = pos.group_of(pos.board.index[tuple(view["bus"])],
                         (view["recampaign"] or {}).get("bonus", 0))
        return {"type": "bid", "card": easy_bid(pos.hand, pos.importance(g, seat))}


class SearchBot(ThinkingBot):
    """Medium and hard: Monte Carlo over guesses of the other hands."""

    pays_for = ("gerrymander", "clean_slate")
    samples = 120  # guesses of the hidden hands per decision
    model_samples = 120  # samples behind each opponent's model (hard)
    hex_candidates = 4  # hexes compared by full search before campaigning (None: all)
    deep = False  # opponents modelled as medium (True) or easy (False)
    counting = False  # remembers which cards the last reshuffle put in the pile
    keeps = 0.0  # how strongly it expects the others to have kept high cards
    plain_model = False  # the deep model's others imagine hands as the medium bot does
    spend = 1.0  # share of the time left that the hex comparison may use
    # At a table of three or more (None: as against one player).
    crowd_candidates = None
    crowd_keeps = None

    def guesses(self, view, seat, rng):
        keeps = self.at_table(view["players"], self.keeps, self.crowd_keeps)
        return sample_hands(_rules(), view, seat, rng, self.samples, self.counting, keeps)

    def imagined(self, view, seat, rng, guesses):
        """The hands each other seat may imagine the rest to hold (for the deep model): my
        hand is unknown to them, so it is dealt at random from what I cannot have seen."""
        if not self.deep:
            return None
        if self.plain_model:
            # the medium bot neither counts cards nor expects kept high cards
            base = sample_hands(_rules(), view, seat, rng, self.model_samples, False, 0.0)
            out = []
            for hands, pile in base:
                pool = pile + hands[seat]
                rng.shuffle(pool)
                imagined = list(hands)
                imagined[seat] = sorted(pool[: len(hands[seat])])
                out.append(imagined)
            return out
        out = []
        for hands, pile in guesses[: self.model_samples]:
            imagined = list(hands)
            imagined[seat] = sorted(pile[: len(hands[seat])]) if len(pile) >= \
                len(hands[seat]) else hands[seat]
            out.append(imagined)
        return out

    def opponent_sways(self, pos, g, seat, guesses, imagined=None):
        """Per guess: the other bidders' (seat, sway) under this level's opponent model."""
        if not self.deep:
            return [easy_sways(pos, g, hands, exclude=seat) for hands, _pile in guesses]
        tables = {}
        for o in pos.bidders():
            if o == seat:
                continue
            samples = [easy_sways(pos, g, hands) for hands in imagined]
            tables[o] = Table(pos, g, o, samples)
        out = []
        for hands, _pile in guesses:
            row = []
            for o, table in tables.items():
                if hands[o]:
                    row.append((o, smart_bid(pos, g, o, hands[o], table) + g.sway[o]))
            out.append(row)
        return out

    def bid(self, pos, view, seat, moves, rng, deadline):
        g = pos.group_of(pos.board.index[tuple(view["bus"])],
                         (view["recampaign"] or {}).get("bonus", 0))
        guesses = self.guesses(view, seat, rng)
        opp = self.opponent_sways(pos, g, seat, guesses, self.imagined(view, seat, rng, guesses))
        return {"type": "bid", "card": best_card(pos, g, seat, pos.hand, opp)[1]}

    def campaign(self, pos, view, seat, moves, rng, deadline):
        groups = pos.groups()
        ranked = sorted(groups, key=lambda g: (-g.stake[seat], -TYPE_RANK[g.htype], g.hexes[0]))
        now = time.perf_counter()
        stop = now + self.spend * (deadline - now)
        guesses = self.guesses(view, seat, rng)
        imagined = self.imagined(view, seat, rng, guesses)
        best = None
        for g in ranked[:self.at_table(pos.n, self.hex_candidates, self.crowd_candidates)]:
            if best is not None and time.perf_counter() > stop:
                break
            opp = self.opponent_sways(pos, g, seat, guesses, imagined)
            u, _card = best_card(pos, g, seat, pos.hand, opp)
            if best is None or u > best[0] + 1e-12:
                best = (u, g)
        return self.hex_move(pos, best[1])


@register_bot(GAME, "medium")
class MediumBot(SearchBot):
    """Medium: before bidding it imagines many possible hands for the other players and
    assumes they bid like the easy bot (a card as high in their hand as the hex matters to
    them).  For each card in its own hand it works out how often it would win the hex and
    what that does to its chances in the constituency, and takes off what the card would
    still be worth later.  It bids the card with the best result, so it often wins hexes
    with just enough and throws away low cards on hexes it would lose anyway.  It picks its
    hex by comparing its four most important ones that way.  It keeps helpful news cards and
    gives harmful ones to the leader.  Against one player it pays for a gerrymander or a Clean
    Slate when the gain is worth more than the card; at a bigger table it never pays."""

    samples = 120
    hex_candidates = 4
    # Difficulty, not cleverness: at a big table, paid gerrymanders made the step from medium
    # to hard far smaller than the one from easy to medium; without them the two steps are
    # about even (bench/fptp_bench.py).  Against one player medium needs them to stay well
    # ahead of easy.
    crowd_pays_for = ()


@register_bot(GAME, "hard")
class HardBot(SearchBot):
    """Hard: like the medium bot it imagines many possible hands for the others, but it
    expects them to be clever too: each of them, in its imagination, weighs every card the
    way the medium bot does, guessing the other hands as the medium bot guesses them.  So it
    predicts when the others will save a card or fight for a hex, and answers that.  It also
    counts cards: it remembers which cards went into the draw pile when it was last
    shuffled, so it knows which older cards the others must still hold, and it expects them
    to have kept their high cards (only a little at a bigger table, where the others win
    more hexes with their top cards and so keep fewer of them).  Before campaigning it
    compares every hex it could choose against one other player, but only its two most
    important hexes at a bigger table (comparing them all there won no more games and costs
    time).  It keeps helpful news cards, gives harmful ones to the leader, and pays for a
    gerrymander or a Clean Slate when the gain is worth more than the card."""

    samples = 120
    model_samples = 80
    hex_candidates = None
    crowd_candidates = 2
    deep = True
    counting = True
    # With more players the others spend their top cards more often, so they keep fewer of
    # them: compare guesses with real hands by `bench/fptp_bench.py --hands`.
    keeps = 3.0
    crowd_keeps = 0.75
    plain_model = True
    spend = 0.5  # leaves room for a busy machine within the deadline
