"""Bot opponents: pure functions of (view, seat, seed, budget) -> one legal move.

    from games.bots import get_bot
    bot = get_bot("mapmaker", "hard")           # levels: see LEVELS
    move = bot.choose(rules.view(state, seat), seat, seed=7, budget_s=0.3)

Bots import nothing from Django, Channels or Celery.  They are handed only their own seat's
view; to search they draw full positions consistent with it (``rules.sample_state``) and
simulate with ``rules.apply``.  The answer is deterministic for a given (view, seat, seed) as
long as the time budget is not the limit; a bot that runs out of ``budget_s`` returns its
best move found so far.

A game's bots live in ``games/bots/<game>.py`` and register their levels there with
``register_bot(game, level, cls)``; ``get_bot`` imports that module the first time.
"""

import importlib

from games.bots.base import Bot, register_bot, registered

LEVELS = ("random", "easy", "medium", "hard")


def get_bot(game, level):
    """A bot object with ``choose(view, seat, seed=..., budget_s=...)``.

    Raises ``ValueError`` naming the known games or levels if either is unknown.
    """
    _load(game)
    table = registered()
    if game not in table:
        raise ValueError(f"no bots for game {game!r}; games with bots: {sorted(table)}")
    levels = table[game]
    if level not in levels:
        known = [lv for lv in LEVELS if lv in levels] + sorted(set(levels) - set(LEVELS))
        raise ValueError(f"unknown bot level {level!r} for {game!r}; levels: {known}")
    return levels[level]()


def _load(game):
    # Importing a game's bot module registers its levels (a game registered from elsewhere,
    # such as the tests' own, registers its bots itself).
    if game in registered() or not str(game).isidentifier():
        return
    try:
        importlib.import_module(f"games.bots.{game}")
    except ModuleNotFoundError as exc:
        if exc.name != f"games.bots.{game}":
            raise


__all__ = ["LEVELS", "Bot", "get_bot", "register_bot"]
