"""Small builders shared by the spine tests."""

import random

from django.contrib.auth import get_user_model

from games import services
from games.engine import get_rules


def make_user(username, **extra):
    return get_user_model().objects.create_user(username=username, password="pw-" + username, **extra)


def make_game(*users, options=None, bots=(), seed="test-seed"):
    options = options or {"players": 2, "first_seat": 0}
    seats = [services.SeatSpec(user=u) for u in users] + [
        services.SeatSpec(bot_level=level) for level in bots
    ]
    return services.game_create(kind="mapmaker", options=options, seats=seats, seed=seed,
                                created_by=users[0] if users else None)


def a_legal_move(game, seat, rng=None):
    moves = get_rules(game.kind).legal_moves(game.state, seat)
    return (rng or random.Random(0)).choice(moves)


def seat_to_move(game):
    return get_rules(game.kind).to_move(game.state)[0]
