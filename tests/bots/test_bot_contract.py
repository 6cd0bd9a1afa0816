"""Every registered game's bots, every level: a legal move from a seat's view, deterministic,
and blind to what the seat cannot see (a state with the hidden parts drawn again gives the
same view, and so the same answer)."""

import random

import pytest

from games.bots import LEVELS, get_bot
from games.engine import get_rules, kinds

CASES = [(kind, mode.key) for kind in kinds() for mode in get_rules(kind).modes if not mode.solo]


def positions(rules, options, seed, count=5):
    """Positions along a random game, each with a seat to move."""
    rng = random.Random(seed)
    state = rules.setup(options, seed)
    seen = []
    while not rules.is_over(state) and len(seen) < 400:
        seen.append(state)
        seats = [s for s in rules.to_move(state) if rules.legal_moves(state, s)]
        seat = rng.choice(seats)
        state = rules.apply(state, seat, rng.choice(rules.legal_moves(state, seat)))
    return rng.sample(seen, min(count, len(seen)))


@pytest.mark.parametrize(("kind", "mode"), CASES)
@pytest.mark.parametrize("level", LEVELS)
def test_bots_move_legally_from_their_view_alone(kind, mode, level):
    rules = get_rules(kind)
    options = rules.mode_options(mode)
    bot = get_bot(kind, level)
    for n, state in enumerate(positions(rules, options, f"bots-{kind}-{mode}")):
        for seat in rules.to_move(state):
            view = rules.view(state, seat)
            move = bot.choose(view, seat, seed=n, budget_s=0.05)
            rules.apply(state, seat, move)  # legal in the real position
            # hidden parts drawn again: the same view, so the same answer
            other = rules.sample_state(view, seat, random.Random(n + 1))
            assert rules.view(other, seat) == view
            again = get_bot(kind, level).choose(rules.view(other, seat), seat, seed=n,
                                                budget_s=5)
            assert again == get_bot(kind, level).choose(view, seat, seed=n, budget_s=5)
