"""Drawing a piece of a game's ensemble of random maps, for a worker process.

Pure (only the engines): a background process imports this module alone, so it starts
without Django or the server.
"""

from games.engine import get_rules


def draw_chunk(kind, state, seed, start, stop):
    """The seats per party of random maps ``start`` .. ``stop - 1`` of ``state``'s board."""
    return get_rules(kind).ensemble(state, seed=seed, start=start, stop=stop)
