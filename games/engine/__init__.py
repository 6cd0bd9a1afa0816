"""Pure-Python game rules engines (no Django, Channels or Celery imports: a test checks it).

``get_rules(name)`` returns the rules object for a game; see ``base.Rules`` for the contract.
"""

from games.engine.base import IllegalMove, Rules
from games.engine.mapmaker import MAPMAKER

RULES = {
    "mapmaker": MAPMAKER,
}


def get_rules(name):
    """The rules object registered under ``name`` (KeyError names the known games)."""
    try:
        return RULES[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}; known: {sorted(RULES)}") from None


__all__ = ["RULES", "IllegalMove", "Rules", "get_rules"]
