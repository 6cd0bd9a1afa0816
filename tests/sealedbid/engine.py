"""Sealed bid: each round every player bids coins in secret at the same time; the highest
bid wins the round's point (a tie: nobody), and every bid is paid.  Most points after three
rounds wins; equal points, then more coins left, else a shared win.

Pure Python, like every engine (``games.engine.base`` is the contract).
"""

import random

from games.engine.base import IllegalMove, Mode, Rules, seat_ref

ROUNDS = 3
COINS = 10


def _is_int(x):
    return isinstance(x, int) and not isinstance(x, bool)


class SealedBidRules(Rules):
    name = "sealedbid"
    title = "Sealed Bid"
    players_min = players_max = 3
    imperfect_information = True
    simultaneous = True
    modes = (Mode("3", "3 players", {"players": 3}),)
    decided_by = {"points": "most points", "coins": "tie-break: coins left", "shared": "shared win"}

    def seat_count(self, options):
        if not isinstance(options, dict) or options.get("players") != 3 \
                or isinstance(options.get("players"), bool):
            raise IllegalMove("bad_options", "Sealed bid is played by 3 players.")
        return 3

    def setup(self, options, seed):
        n = self.seat_count(options)
        return {"players": n, "round": 1, "coins": [COINS] * n, "points": [0] * n,
                "bids": [None] * n, "revealed": None, "over": False,
                "first": random.Random(seed).randrange(n)}

    def to_move(self, state):
        if state["over"]:
            return []
        return [s for s in range(state["players"]) if state["bids"][s] is None]

    def legal_moves(self, state, seat):
        if seat not in self.to_move(state):
            return []
        return [{"type": "bid", "amount": a} for a in range(state["coins"][seat] + 1)]

    def apply(self, state, seat, move):
        if not _is_int(seat) or not 0 <= seat < state["players"]:
            raise IllegalMove("bad_seat", "That seat is not part of this game.")
        if not isinstance(move, dict) or move.get("type") != "bid":
            raise IllegalMove("bad_move", "A move is {\"type\": \"bid\", \"amount\": n}.")
        if state["over"]:
            raise IllegalMove("game_over", "The game is over.")
        if state["bids"][seat] is not None:
            raise IllegalMove("already_bid", "You have already bid this round.")
        amount = move.get("amount")
        if not _is_int(amount) or not 0 <= amount <= state["coins"][seat]:
            raise IllegalMove("bad_amount",
                              f"Bid a whole number of coins from 0 to {state['coins'][seat]}.")
        new = {**state, "bids": list(state["bids"]), "coins": list(state["coins"]),
               "points": list(state["points"])}
        new["bids"][seat] = amount
        if all(b is not None for b in new["bids"]):
            bids = new["bids"]
            top = max(bids)
            winners = [s for s, b in enumerate(bids) if b == top]
            if len(winners) == 1:
                new["points"][winners[0]] += 1
            new["coins"] = [c - b for c, b in zip(new["coins"], bids, strict=True)]
            new["revealed"] = {"round": new["round"], "bids": bids,
                               "winner": winners[0] if len(winners) == 1 else None}
            new["bids"] = [None] * new["players"]
            new["round"] += 1
            new["over"] = new["round"] > ROUNDS
        return new

    def view(self, state, seat):
        if seat is not None and (not _is_int(seat) or not 0 <= seat < state["players"]):
            raise IllegalMove("bad_seat", "That seat is not part of this game.")
        return {
            "round": min(state["round"], ROUNDS), "rounds": ROUNDS,
            "coins": list(state["coins"]), "points": list(state["points"]),
            "my_bid": state["bids"][seat] if seat is not None else None,
            "committed": [s for s, b in enumerate(state["bids"]) if b is not None],
            "revealed": state["revealed"], "first": state["first"],
            "to_move": self.to_move(state), "seat": seat,
            "legal_moves": self.legal_moves(state, seat) if seat is not None else [],
            "is_over": state["over"], "result": self.result(state) if state["over"] else None,
        }

    def is_over(self, state):
        return state["over"]

    def result(self, state):
        keys = [(-p, -c) for p, c in zip(state["points"], state["coins"], strict=True)]
        ranking = [{"seat": s, "place": 1 + sum(1 for k in keys if k < keys[s]),
                    "points": state["points"][s]} for s in range(state["players"])]
        winners = [r["seat"] for r in ranking if r["place"] == 1]
        top = [s for s in range(state["players"]) if state["points"][s] == max(state["points"])]
        decided = "points" if len(top) == 1 else ("coins" if len(winners) == 1 else "shared")
        return {"ranking": sorted(ranking, key=lambda r: (r["place"], r["seat"])),
                "winners": winners, "decided_by": decided}

    def summary(self, state, seat):
        return [{"key": "points", "label": "Points", "value": state["points"][seat]},
                {"key": "coins", "label": "Coins left", "value": state["coins"][seat]}]

    def describe(self, before, move, after, seat, viewer):
        if after["round"] == before["round"]:
            said = f" {move['amount']}" if viewer == seat else ""
            return [f"{seat_ref(seat)} bid{said}."]
        r = after["revealed"]
        bids = ", ".join(f"{seat_ref(s)} {b}" for s, b in enumerate(r["bids"]))
        who = f"{seat_ref(r['winner'])} wins the round" if r["winner"] is not None \
            else "a tie: nobody wins the round"
        return [f"{seat_ref(seat)} bid.", f"Bids revealed: {bids}; {who}."]

    def sample_state(self, view, seat, rng):
        # Hidden: the bids already made this round by other seats (any amount they can pay).
        n = len(view["coins"])
        bids = [None] * n
        for s in view["committed"]:
            bids[s] = view["my_bid"] if s == seat else rng.randint(0, view["coins"][s])
        return {"players": n, "round": view["round"] + (1 if view["is_over"] else 0),
                "coins": list(view["coins"]), "points": list(view["points"]), "bids": bids,
                "revealed": view["revealed"], "over": view["is_over"], "first": view["first"]}


SEALED_BID = SealedBidRules()
