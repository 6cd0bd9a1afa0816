"""The game socket: parse a frame, call a service, reply.  No game logic here.

Protocol (JSON text frames):
  client -> server  {"type": "move", "move": {...}, "version": N, "ref": "..."}
                    {"type": "sync"}                        a fresh state frame, please
                    {"type": "log"}                         the whole game log, please
  server -> client  {"type": "state", "game": {...}}        on connect and after every change
                    {"type": "log", "entries": [...]}       after the first state, and on request
                    {"type": "lesson", "status", "lesson", "drawn", "maps", "summary"}
                                                            a finished game's lesson, on
                                                            connect and as its ensemble grows
                    {"type": "ack", "ref": "...", "version": N}
                    {"type": "error", "code": "...", "message": "...", "ref": "..."}
  A mover's new state frame usually arrives before its ack; a state frame is never older
  than the one before it.  "server_error": the server failed and the move may or may not
  have been taken (a fresh state frame follows when it can); "busy": too many moves at once;
  any other code is the game's or the engine's refusal.
Close codes: 4401 not signed in (or signed out meanwhile: a move checks the session's password
hash and the account), 4403 account switched off, 4409 the user's classes changed (reconnect),
4410 a player lost their seat and may not watch, 4404 no such game (or not one this user may watch: the same answer, so ids cannot be probed).
"""

import asyncio
import logging

from django.contrib.auth import HASH_SESSION_KEY
from django.db import connection, transaction
from django.utils.crypto import constant_time_compare

from games import services
from games.access import game_can_watch, session_keys
from games.broadcast import group_for, state_frame
from games.models import Game
from games.selectors import game_frame, game_log
from gerrymander_site import jsonsafe
from gerrymander_site.sockets import (
    CLOSE_SIGNED_OUT,
    CLOSE_TOO_MUCH,
    AsyncSocketConsumer,
    db_call,
)

MAX_FRAME_BYTES = 16 * 1024
CLOSE_SEAT_LOST = 4410  # a player's seat went to someone else, and the game is not theirs to watch

logger = logging.getLogger(__name__)


class FrameError(Exception):
    def __init__(self, message, ref=None):
        super().__init__(message)
        self.message = message
        self.ref = ref


def parse_frame(text):
    """Validate a client frame; return (type, fields) or raise FrameError with a clear message."""
    if text is None:
        raise FrameError("Send JSON text frames, not binary ones.")
    if len(text.encode()) > MAX_FRAME_BYTES:
        raise FrameError("That message is too large.")
    try:
        frame = jsonsafe.loads(text)
    except ValueError as exc:
        raise FrameError(f"That message is not valid JSON: {exc}") from None
    if not isinstance(frame, dict):
        raise FrameError("A message must be a JSON object with a \"type\".")
    ref = frame.get("ref")
    if ref is not None and not (isinstance(ref, str) and len(ref) <= 64):
        raise FrameError("\"ref\" must be a short string.")
    kind = frame.get("type")
    if kind in ("sync", "log"):
        return kind, {"ref": ref}
    if kind == "move":
        version = frame.get("version")
        if not isinstance(version, int) or isinstance(version, bool) or version < 0:
            raise FrameError("A move needs the \"version\" of the board it was made on.", ref)
        move = frame.get("move")
        if not isinstance(move, dict):
            raise FrameError("A move needs a \"move\" object.", ref)
        return "move", {"ref": ref, "version": version, "move": move}
    raise FrameError("Unknown message type; expected \"move\", \"sync\" or \"log\".", ref)


@db_call
def _frame(game_id, user, keys):
    """This user's state frame, or None for a game that is gone or not theirs to watch
    (``keys``: the share keys of the socket's session)."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None or not game_can_watch(game=game, user=user, keys=keys):
        return None
    return game_frame(game=game, user=user)


@db_call
def _joined(game_id):
    """Once a new socket hears its game's broadcasts: pick up a bot turn lost in a restart
    (someone is looking) and return the game's version now (None: the game is gone)."""
    services.game_bots_resume_stalled(game_ids=[game_id])
    return Game.objects.filter(pk=game_id).values_list("version", flat=True).first()


@db_call
def _log(game_id, seat_index):
    game = Game.objects.filter(pk=game_id).first()
    return [] if game is None else game_log(game=game, seat_index=seat_index)


@db_call
def _lesson(game_id):
    """The lesson of a finished game (started if it is not yet), as its frame; else None."""
    from games.lessons import lesson_ensure, lesson_event

    game = Game.objects.filter(pk=game_id).first()
    lesson = lesson_ensure(game=game) if game is not None else None
    return None if lesson is None else lesson_event(lesson)


@db_call
def _submit(**kwargs):
    return services.move_submit(**kwargs).version


def session_check(session_hash):
    """A move's ``auth_check``: the mover's account is active and still has the password this
    socket's session was signed with (a password change or reset ends the session)."""

    def check(user):
        return (user is not None and user.is_active and session_hash is not None
                and constant_time_compare(user.get_session_auth_hash(), session_hash))

    return check


MAX_MOVES_IN_FLIGHT = 4


class GameConsumer(AsyncSocketConsumer):
    """State frames are sent only from the consumer's own message loop, one message at a
    time, and never older than the last one sent; moves run beside it (see ``receive``)."""

    seat = None

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._moves = set()
        self._move_lock = asyncio.Lock()
        self._version_sent = -1

    async def connect(self):
        self.user = self.scope.get("user")
        if not getattr(self.user, "is_authenticated", False):
            await self.refuse(4401)
            return
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        self.keys = session_keys(self.scope.get("session"))
        frame = await _frame(self.game_id, self.user, self.keys)
        if frame is None:
            await self.refuse(4404)
            return
        session = self.scope.get("session")
        self.auth_check = session_check(session.get(HASH_SESSION_KEY) if session else None)
        if not await self.socket_slot_take(self.user):
            await self.refuse(CLOSE_TOO_MUCH)
            return
        await self.session_watch()
        await self.accept()
        await self._send_state(frame)
        await self._send_log()
        # The first frame was read before the socket joined its group, so a move made in
        # between was broadcast without it; a resumed bot's move comes only after the join.
        if await _joined(self.game_id) != frame["version"]:
            await self._resync_soon()
        if frame["status"] == Game.Status.FINISHED:
            lesson = await _lesson(self.game_id)
            if lesson is not None:
                await self.send_frame({"type": "lesson", **lesson})

    async def _send_log(self):
        await self.send_frame({"type": "log", "entries": await _log(self.game_id, self.seat)})

    async def _send_fresh_state(self):
        frame = await _frame(self.game_id, self.user, self.keys)
        if frame is None:  # the game was deleted, or this user may no longer watch it
            await self.close(code=CLOSE_SEAT_LOST if self.seat is not None else 4404)
            return
        await self._send_state(frame)

    async def _send_state(self, frame):
        if frame["version"] < self._version_sent:  # a newer board already went out
            return
        await self.group_join(group_for(self.game_id, frame["seat"]))
        self.seat = frame["seat"]
        self._version_sent = frame["version"]
        await self.send(text_data=state_frame(frame))

    async def _resync_soon(self):
        """Send a fresh state frame from the message loop, in order with the broadcasts."""
        await self.channel_layer.send(self.channel_name, {"type": "game.resync"})

    async def game_resync(self, event):
        await self._send_fresh_state()

    async def receive(self, text_data=None, bytes_data=None):
        try:
            kind, fields = parse_frame(text_data)
        except FrameError as exc:
            await self.send_frame({"type": "error", "code": "bad_frame", "message": exc.message,
                                   "ref": exc.ref})
            return
        if kind == "sync":
            await self._send_fresh_state()
            return
        if kind == "log":
            await self._send_log()
            return
        if self.seat is None:
            await self.send_frame({"type": "error", "code": "spectator",
                                   "message": "You are watching this game; only players can move.",
                                   "ref": fields["ref"]})
            return
        # The move runs beside this socket's message loop: a consumer handles one message at a
        # time, so awaiting the service here would hold back the new view on this very socket
        # until the service's after-commit work (dashboards, bots) was done.  Moves from one
        # socket still go one at a time, in the order they came.
        if len(self._moves) >= MAX_MOVES_IN_FLIGHT:
            await self.send_frame({"type": "error", "code": "busy", "ref": fields["ref"],
                                   "message": "Wait a moment: your last moves are still on their way."})
            return
        task = asyncio.create_task(self._move(fields))
        self._moves.add(task)
        task.add_done_callback(self._moves.discard)

    async def _move(self, fields):
        async with self._move_lock:
            try:
                version = await _submit(
                    game_id=self.game_id, seat_index=self.seat, move=fields["move"],
                    expected_version=fields["version"], user=self.user,
                    auth_check=self.auth_check,
                )
            except services.GameError as exc:
                await self.send_frame({"type": "error", "code": exc.code, "message": exc.message,
                                       "ref": fields["ref"]})
                if exc.code == "signed_out":
                    await self.close(code=CLOSE_SIGNED_OUT)
                elif isinstance(exc, (services.StaleVersion, services.SeatError)):
                    await self._resync_soon()
                return
            except Exception:  # the database is down, say, or its answer was lost
                logger.exception("move on game %s failed", self.game_id)
                await self.send_frame({
                    "type": "error", "code": "server_error", "ref": fields["ref"],
                    "message": "The server had a problem and may not have taken your move; "
                               "check the board and try again.",
                })
                await self._resync_soon()
                return
            await self.send_frame({"type": "ack", "ref": fields["ref"], "version": version})

    async def disconnect(self, code):
        # A move in flight still commits; let it finish before the consumer goes.
        if self._moves:
            await asyncio.gather(*self._moves, return_exceptions=True)
        await super().disconnect(code)

    async def game_lesson(self, event):
        await self.send_frame({"type": "lesson", **event["lesson"]})

    async def game_state(self, event):
        user_ids = event["user_ids"]
        mine = next((i for i, uid in enumerate(user_ids) if uid == self.user.pk), None)
        if mine != self.seat:  # the user was seated, moved or replaced by a bot
            await self._send_fresh_state()
            return
        if event["version"] < self._version_sent:  # sent by a slower process, overtaken
            return
        self._version_sent = event["version"]
        await self.send(text_data=event["frame"])  # already encoded once for the whole group


@db_call
def _database_round_trip():
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SELECT 1")


class EchoConsumer(AsyncSocketConsumer):
    """The live-play latency benchmark's baselines (routed only with ENABLE_ECHO_SOCKET).

    ``/ws/echo/``: a bare echo to the sender.  ``/ws/echo/<room>/``: every frame goes through
    the channel layer to every socket in the room - the fan-out a move's views take, without
    the game, the database or the authentication.  ``/ws/echo-db/<room>/``
    (``through_database``): the same after one database round trip made the way a move makes
    its own (a transaction through ``db_call``) - less than any move that is saved before it
    is shown can cost.
    """

    def __init__(self, *args, through_database=False, **kwargs):
        super().__init__(*args, **kwargs)  # (Channels passes as_asgi()'s keywords here)
        self.through_database = through_database

    async def connect(self):
        room = self.scope["url_route"]["kwargs"].get("room")
        if room:
            await self.group_join(f"echo-{room}")
        await self.accept()

    async def receive(self, text_data=None, bytes_data=None):
        if self.through_database:
            await _database_round_trip()
        if self.group and text_data is not None:
            await self.channel_layer.group_send(self.group, {"type": "echo.frame", "text": text_data})
        else:
            await self.send(text_data=text_data, bytes_data=bytes_data)

    async def echo_frame(self, event):
        await self.send(text_data=event["text"])
