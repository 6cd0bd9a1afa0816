"""Bots for the test-only sealed-bid game: decided from the seat's view only."""

from games.bots.base import Bot, register_bot


class _SealedBidBot(Bot):
    share = 0.0  # of its coins it bids; random bids anything

    def _choose(self, view, seat, rng, deadline):
        coins = view["coins"][seat]
        if self.level == "random":
            return {"type": "bid", "amount": rng.randint(0, coins)}
        rounds_left = view["rounds"] - view["round"] + 1
        return {"type": "bid", "amount": min(coins, round(coins * self.share / rounds_left) + 1)}


for _level, _share in (("random", 0.0), ("easy", 0.5), ("medium", 1.0), ("hard", 1.2)):
    register_bot("sealedbid", _level, type(f"SealedBid{_level.title()}Bot", (_SealedBidBot,),
                                          {"share": _share}))
