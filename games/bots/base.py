"""The bot contract and the registry shared by every game's bots."""

import random
import time

_REGISTRY = {}


def register_bot(game, level, cls=None):
    """Register ``cls`` as the bot for ``(game, level)``; usable as a class decorator."""

    def deco(c):
        _REGISTRY.setdefault(game, {})[level] = c
        c.game = game
        c.level = level
        return c

    return deco(cls) if cls is not None else deco


def registered():
    return _REGISTRY


class Bot:
    """Base class: ``choose(view, seat, seed=..., budget_s=...)`` returns one legal move.

    ``view`` is what ``seat`` sees (``rules.view(state, seat)``) and nothing more: a bot that
    needs a full position to search draws one with ``rules.sample_state(view, seat, rng)``,
    so it can never use what its seat cannot see.
    """

    game = ""
    level = ""
    default_budget_s = 1.0

    def choose(self, view, seat, seed=0, budget_s=None):
        budget = self.default_budget_s if budget_s is None else float(budget_s)
        deadline = time.perf_counter() + max(0.0, budget)
        rng = random.Random(f"{self.game}|{self.level}|{seed}|{seat}")
        return self._choose(view, seat, rng, deadline)

    def _choose(self, view, seat, rng, deadline):  # pragma: no cover - abstract
        raise NotImplementedError
