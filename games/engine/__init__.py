"""Pure-Python game rules engines (no Django, Channels or Celery imports: import-linter checks it).

``get_rules(name)`` returns the rules object for a game; see ``base`` for the contract, and
``kinds()`` lists the registered games.  Adding a game is one line below.
"""

from games.engine.base import IllegalMove, Mode, Option, Rules, seat_ref
from games.engine.berrymandering import BERRYMANDERING
from games.engine.fptp import FPTP
from games.engine.mapmaker import MAPMAKER

RULES = {}


def register(rules):
    """Make ``rules`` playable everywhere (lobby, assignments, bots, sockets) as ``rules.name``."""
    RULES[rules.name] = rules
    return rules


register(MAPMAKER)
register(BERRYMANDERING)
register(FPTP)


def kinds():
    """The names of the registered games, in registration order."""
    return list(RULES)


def get_rules(name):
    """The rules object registered under ``name`` (KeyError names the known games)."""
    try:
        return RULES[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}; known: {sorted(RULES)}") from None


__all__ = ["RULES", "IllegalMove", "Mode", "Option", "Rules", "get_rules", "kinds", "register",
           "seat_ref"]
