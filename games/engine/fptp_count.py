"""First Past the Post: counting constituencies, by First Past the Post or Alternative Vote.

``count_constituencies(state, system)`` is a pure function of a game state: it counts the same
vote counters both ways, so the end screen can show what the other voting system would have
given for the very same campaign.  Every campaign records the full ranking of the players'
sway in its hex (the AV stack, top first) in both variants; First Past the Post looks only at
the top counter of each stack.

Draw-offs (a tie nothing else breaks) take budget cards from the top of the draw pile, as the
rulebook says; ``drawoff=False`` leaves such ties undecided instead (standings during a game
must not peek at the pile).
"""

import random

from games.engine.fptp_data import TIE_BREAK_TYPES
from games.engine.fptp_map import board_for

# hex type -> rank for the AV "fewest votes" tie-break (City beats Large Town beats ...)
_TYPE_RANK = {t: len(TIE_BREAK_TYPES) - k for k, t in enumerate(TIE_BREAK_TYPES)}


class Drawer:
    """Budget cards drawn one by one from a copy of a state's draw pile (top = last item);
    when it runs out, the discard pile is shuffled into a new one (seeded by the state)."""

    def __init__(self, pile, discard, key, salt):
        self.pile = list(pile)
        self.discard = list(discard)
        self.key = key
        self.salt = salt
        self.shuffles = 0
        self.drawn = []

    def draw(self):
        if not self.pile:
            if not self.discard:
                return None
            self.pile = self.discard
            self.discard = []
            random.Random(f"{self.key}|{self.salt}|{self.shuffles}").shuffle(self.pile)
            self.shuffles += 1
        card = self.pile.pop()
        self.drawn.append(card)
        return card


def rank_by_drawoff(group, draw, rounds, full=True):
    """Order ``group`` (seats, in their fallback order) by draw-offs: each draws a card, the
    highest goes first; players still tied draw again.  ``full``: order every tied subgroup
    (else only the first place is settled).  Each round ``[[seat, card], ...]`` is appended to
    ``rounds``.  With no card left to draw, the fallback order stands."""
    if len(group) <= 1:
        return list(group)
    drawn = []
    for s in group:
        card = draw()
        if card is None:
            if drawn:
                rounds.append([[x, c] for x, c in drawn])
            return list(group)
        drawn.append((s, card))
    rounds.append([[s, c] for s, c in drawn])
    out = []
    for value in sorted({c for _, c in drawn}, reverse=True):
        sub = [s for s, c in drawn if c == value]
        if full or not out:
            out.extend(rank_by_drawoff(sub, draw, rounds, full))
        else:
            out.extend(sub)
    return out


def _members(const_of, k):
    return [i for i, c in enumerate(const_of) if c == k]


def _fptp_one(board, stacks, hexes, n, draw):
    votes = [0] * n
    for i in hexes:
        if stacks[i]:
            votes[stacks[i][0]] += 1
    top = max(votes)
    out = {"votes": votes, "winner": None, "tied": [], "decided_by": None, "drawoff": [],
           "margin": 0}
    if top == 0:
        return out
    tied = [s for s in range(n) if votes[s] == top]
    if len(tied) == 1:
        out["margin"] = top - max((v for s, v in enumerate(votes) if s != tied[0]), default=0)
        out["winner"], out["decided_by"] = tied[0], "votes"
        return out
    for t in TIE_BREAK_TYPES:
        holders = [s for s in tied
                   if any(stacks[i] and stacks[i][0] == s and board.types[i] == t
                          for i in hexes)]
        if len(holders) == 1:
            out["winner"], out["decided_by"] = holders[0], t
            return out
        if holders:
            tied = holders
    if draw is None:
        out["tied"] = tied
        return out
    rounds = []
    order = rank_by_drawoff(tied, draw, rounds, full=False)
    out["winner"], out["decided_by"], out["drawoff"] = order[0], "drawoff", rounds
    return out


def _av_one(board, stacks, hexes, n, draw, city):
    eliminated = set()
    present = []
    for i in hexes:
        for s in stacks[i]:
            if s not in present:
                present.append(s)
    present.sort()
    rounds = []
    out = {"votes": None, "winner": None, "tied": [], "decided_by": None, "drawoff": [],
           "rounds": rounds, "margin": 0}
    city_stack = stacks[city] if city is not None and city in hexes else []
    while True:
        votes = [0] * n
        tops = {}
        for i in hexes:
            for s in stacks[i]:
                if s not in eliminated:
                    votes[s] += 1
                    tops[i] = s
                    break
        if out["votes"] is None:
            out["votes"] = list(votes)
        total = len(tops)
        live = [s for s in present if s not in eliminated]
        if total == 0 or not live:
            return out
        best = max(live, key=lambda s: votes[s])
        holds_city = city is not None and tops.get(city) == best
        if 2 * votes[best] > total or (2 * votes[best] == total and holds_city) \
                or len(live) == 1:
            out["winner"] = best
            out["decided_by"] = "majority" if not rounds else "elimination"
            rest = [votes[s] for s in live if s != best]
            out["margin"] = votes[best] - (max(rest) if rest else 0)
            rounds.append({"votes": votes, "eliminated": None})
            return out
        fewest = min(votes[s] for s in live)
        low = [s for s in live if votes[s] == fewest]
        if len(low) > 1:
            # "the player with the largest" City / Town hex has more votes; then the one
            # higher on the City's stack
            strength = {}
            for s in low:
                rank = max((_TYPE_RANK.get(board.types[i], 0) for i, t in tops.items()
                            if t == s), default=0)
                pos = city_stack.index(s) if s in city_stack else len(stacks) + n
                strength[s] = (rank, -pos)
            weakest = min(strength.values())
            low = [s for s in low if strength[s] == weakest]
        if len(low) > 1:
            if draw is None:
                out["tied"] = sorted(low)
                rounds.append({"votes": votes, "eliminated": None})
                return out
            dr = []
            order = rank_by_drawoff(low, draw, dr)
            out["drawoff"].extend(dr)
            low = [order[-1]]
        eliminated.add(low[0])
        rounds.append({"votes": votes, "eliminated": low[0]})


def count_constituencies(state, system, drawoff=True):
    """Count every constituency of ``state`` by ``system`` ("fptp" or "av").

    Returns ``{"system", "constituencies": [{"name", "winner" (seat or None), "tied" (seats
    of a tie left undecided), "votes" (top counters per seat), "margin", "decided_by",
    "drawoff" (rounds of [seat, card]), and for AV "rounds" ([{"votes", "eliminated"}])}],
    "per_seat" (constituencies won per seat), "hexes" (hexes whose top counter is the
    seat's)}``.  The state is not changed.
    """
    board = board_for(state["map"])
    n = state["players"]
    stacks = state["stacks"]
    const_of = state["const_of"]
    drawer = Drawer(state["budget_pile"], state["budget_discard"], state["shuffle_key"],
                    f"count-{system}") if drawoff else None
    draw = drawer.draw if drawer else None
    rows = []
    per_seat = [0] * n
    for k, name in enumerate(board.const_names):
        hexes = _members(const_of, k)
        if system == "av":
            row = _av_one(board, stacks, hexes, n, draw, board.city[k])
        else:
            row = _fptp_one(board, stacks, hexes, n, draw)
        row["name"] = name
        row["unclaimed"] = sum(1 for i in hexes if not stacks[i])
        row["hexes"] = len(hexes)
        if row["winner"] is not None:
            per_seat[row["winner"]] += 1
        rows.append(row)
    hexes_won = [0] * n
    for st in stacks:
        if st:
            hexes_won[st[0]] += 1
    return {"system": system, "constituencies": rows, "per_seat": per_seat,
            "hexes": hexes_won}


def decided_constituencies(state, system):
    """For each constituency: can its winner no longer change, whoever wins its empty hexes?

    First Past the Post: the leader is alone in front and no player still in could catch up
    even by winning every empty hex of it.  Alternative Vote: the leader already has an
    absolute majority of all its hexes (more than half, or half with the City).  News cards
    that could still move hexes or counters are not taken into account.
    """
    board = board_for(state["map"])
    n = state["players"]
    stacks, const_of, left = state["stacks"], state["const_of"], state["left"]
    out = []
    for k in range(len(board.const_names)):
        hexes = _members(const_of, k)
        votes = [0] * n
        empty = 0
        for i in hexes:
            if stacks[i]:
                votes[stacks[i][0]] += 1
            else:
                empty += 1
        if not empty:
            out.append(True)
            continue
        top = max(votes)
        leaders = [s for s in range(n) if votes[s] == top]
        if top == 0 or len(leaders) > 1:
            out.append(False)
            continue
        lead = leaders[0]
        if system == "av":
            city = board.city[k]
            holds = city is not None and stacks[city] and stacks[city][0] == lead
            out.append(2 * top > len(hexes) or (2 * top == len(hexes) and bool(holds)))
        else:
            out.append(all(votes[s] + empty < top for s in range(n)
                           if s != lead and not left[s]))
    return out
