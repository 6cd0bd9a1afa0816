"""Small builders shared by the spine tests."""

import json
import random

from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.test import Client

from games import services
from games.engine import get_rules
from gerrymander_site.asgi import application


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


def game_socket(game_id, user):
    """A game's socket (not yet connected) for ``user``, signed in."""
    client = Client()
    client.force_login(user)
    cookie = f"sessionid={client.cookies['sessionid'].value}".encode()
    return WebsocketCommunicator(application, f"/ws/games/{game_id}/",
                                 headers=[(b"origin", b"http://localhost"), (b"cookie", cookie)])


class Watcher:
    """One socket and every frame it received."""

    def __init__(self, comm, game_id, who=None):
        self.comm = comm
        self.game_id = game_id
        self.who = who
        self.frames = []

    async def until(self, pred, timeout=5):
        for frame in self.frames:
            if pred(frame):
                return frame
        while True:
            frame = json.loads(await self.comm.receive_from(timeout=timeout))
            self.frames.append(frame)
            if pred(frame):
                return frame

    async def drain(self, quiet=0.3):
        # (a receive that times out would stop the socket's application: wait for quiet)
        while not await self.comm.receive_nothing(quiet):
            self.frames.append(json.loads(await self.comm.receive_from()))

    def state_at(self, version):
        return next(f for f in reversed(self.frames)
                    if f["type"] == "state" and f["game"]["version"] == version)

    def comparable(self):
        """The frames as a game-independent list: acks left out, the game's id blanked, in
        a fixed order (frames from different sources, e.g. the lesson of the finished game
        against a state frame asked for, may come in either order)."""
        out = []
        for frame in self.frames:
            if frame["type"] == "ack":
                continue
            frame = json.loads(json.dumps(frame))
            if frame["type"] == "state":
                assert frame["game"]["id"] == self.game_id
                frame["game"]["id"] = None
            out.append(frame)
        return sorted(out, key=lambda f: json.dumps(f, sort_keys=True))
