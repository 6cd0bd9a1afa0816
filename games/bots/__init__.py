"""Bot opponents: pure functions of (state, seat, seed, budget) -> one legal move.

    from games.bots import get_bot
    bot = get_bot("mapmaker", "hard")           # levels: see LEVELS
    move = bot.choose(state, seat, seed=7, budget_s=0.3)

Bots import nothing from Django, Channels or Celery.  They decide from what their own seat may
see (``rules.view(state, seat)``) and from simulating moves with ``rules.apply``; they never
read hidden parts of ``state`` directly, so the pattern carries to games with hidden cards.
The answer is deterministic for a given (state, seat, seed) as long as the time budget is not
the limit; a bot that runs out of ``budget_s`` returns its best move found so far.

New games register their bots with ``register_bot(game, level, cls)``.
"""

from games.bots.base import Bot, register_bot, registered

LEVELS = ("random", "easy", "medium", "hard")


def get_bot(game, level):
    """A bot object with ``choose(state, seat, seed=..., budget_s=...)``.

    Raises ``ValueError`` naming the known games or levels if either is unknown.
    """
    _load()
    table = registered()
    if game not in table:
        raise ValueError(f"no bots for game {game!r}; games with bots: {sorted(table)}")
    levels = table[game]
    if level not in levels:
        known = [lv for lv in LEVELS if lv in levels] + sorted(set(levels) - set(LEVELS))
        raise ValueError(f"unknown bot level {level!r} for {game!r}; levels: {known}")
    return levels[level]()


def _load():
    # Importing a game's bot module registers its levels.
    from games.bots import mapmaker  # noqa: F401


__all__ = ["LEVELS", "Bot", "get_bot", "register_bot"]
