"""What every WebSocket consumer here shares.

- No per-message database hop.  Channels runs ``close_old_connections`` on its one
  thread-sensitive thread before *every* message a consumer handles - each frame from the
  browser and each channel-layer event - and again when a socket closes, so each socket's
  share of every broadcast queued for that single thread.  Our consumers never touch the database on the event loop: every query
  runs through ``db_call``, which tidies its own thread's connections before and after.
- Refusals a browser can read: ``refuse(code)`` accepts and then closes with the code.  A
  socket closed before the handshake reaches a browser as a bare HTTP 403 (close code 1006),
  so the page could not tell "sign in again" from "the network dropped".
- One group per socket, left on disconnect; compact JSON frames.
- Sockets end with the session: each socket of a signed-in user also listens to that user's
  and that session's groups, and ``sockets_close`` closes them all at once (password changed,
  signed out, account switched off, classes changed) with a code the page explains.
- Limits: a socket may send ``MESSAGE_RATE`` frames a second (bursts of ``MESSAGE_BURST``);
  beyond that frames are dropped with a "slow down" error, and a socket that keeps flooding
  is closed (4429).  A user may hold ``SOCKETS_PER_USER`` sockets at once.
"""

import asyncio
import hashlib
import json
import time
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import async_to_sync
from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import get_channel_layer
from django.core.cache import cache

# Close codes a page explains (static/games/js/socket.js): 4401 signed out (or the password
# changed), 4403 the account is switched off, 4409 the user's classes changed (the page
# reconnects and the server checks again what the user may see).
CLOSE_SIGNED_OUT = 4401
CLOSE_ACCOUNT_OFF = 4403
CLOSE_RESYNC = 4409
CLOSE_TOO_MUCH = 4429

MESSAGE_RATE = 10.0  # frames a second a socket may send, sustained
MESSAGE_BURST = 30
FLOOD_CLOSE_AFTER = 200  # frames dropped during one flood before the socket is closed
FLOOD_MEMORY_S = 10.0
SOCKETS_PER_USER = 30
SOCKET_SLOT_TTL_S = 6 * 3600  # a process that died without counting down is forgotten
SEEN_EVERY_S = 15  # a socket notes its user's last activity at most this often


def user_sockets_key(user_id):
    """Cache key: how many sockets the user has open (all processes)."""
    return f"sockets:user:{user_id}"


def user_seen_key(user_id):
    """Cache key: when (epoch seconds) the user last connected or sent a frame."""
    return f"sockets:seen:{user_id}"


def presence_of(user_ids):
    """``{user id: (open sockets, last active epoch seconds or None)}`` from the cache."""
    user_ids = list(user_ids)
    keys = {user_sockets_key(i): i for i in user_ids} | {user_seen_key(i): i for i in user_ids}
    found = cache.get_many(list(keys))
    return {i: (max(0, int(found.get(user_sockets_key(i)) or 0)), found.get(user_seen_key(i)))
            for i in user_ids}


def user_sockets_group(user_id):
    return f"sockets-user-{user_id}"


def session_sockets_group(session_key):
    return "sockets-session-" + hashlib.sha256(session_key.encode()).hexdigest()[:32]


def sockets_close(*, code, user_id=None, session_key=None):
    """Close every socket of ``user_id`` (or of one session) with ``code``, in every process."""
    event = {"type": "session.end", "code": code}
    groups = []
    if user_id is not None:
        groups.append(user_sockets_group(user_id))
    if session_key:
        groups.append(session_sockets_group(session_key))
    group_send_many([(group, event) for group in groups])


def db_call(func):
    """Run ``func`` on the shared thread pool (not the one thread-sensitive thread), so the
    database work of many sockets in one process overlaps; connections are tidied as usual."""
    return database_sync_to_async(func, thread_sensitive=False)


_ENCODER = json.JSONEncoder(separators=(",", ":"))  # json.dumps would build one per call


def frame_dumps(payload):
    """A frame's JSON text, as every socket sends it."""
    return _ENCODER.encode(payload)


class AsyncSocketConsumer(AsyncWebsocketConsumer):
    """``AsyncWebsocketConsumer`` without the per-message database hop.  Subclasses must do
    all database work through ``db_call``."""

    group = None
    watched = ()
    slot_user = None

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._tokens = MESSAGE_BURST
        self._refilled = time.monotonic()
        self._dropped = 0
        self._last_drop = 0.0
        self._warned = 0.0
        self._seen_at = -SEEN_EVERY_S

    async def websocket_receive(self, message):
        """Every frame from the browser passes the socket's rate limit first."""
        now = time.monotonic()
        self._tokens = min(MESSAGE_BURST, self._tokens + (now - self._refilled) * MESSAGE_RATE)
        self._refilled = now
        if self._tokens < 1:
            # drops add up while the flood goes on (ten quiet seconds forget them)
            self._dropped = 1 if now - self._last_drop > FLOOD_MEMORY_S else self._dropped + 1
            self._last_drop = now
            if self._dropped >= FLOOD_CLOSE_AFTER:
                await self.close(code=CLOSE_TOO_MUCH)
            elif now - self._warned >= 1:
                self._warned = now
                await self.send_frame({"type": "error", "code": "too_fast",
                                       "message": "Slow down: too many messages at once."})
            return
        self._tokens -= 1
        if self.slot_user is not None and now - self._seen_at >= SEEN_EVERY_S:
            await self._seen(now)
        await super().websocket_receive(message)

    async def _seen(self, now):
        """Note that this socket's user is active (for a teacher's "online / idle")."""
        self._seen_at = now
        try:
            await cache.aset(user_seen_key(self.slot_user), int(time.time()),
                             timeout=SOCKET_SLOT_TTL_S)
        except Exception:  # presence is a nicety: never break a socket for it
            pass

    async def websocket_disconnect(self, message):
        # As Channels' own, minus its hop to tidy the thread-sensitive thread's database
        # connection: our consumers never use that thread (db_call tidies its own).
        await self.disconnect(message["code"])
        raise StopConsumer()

    async def socket_slot_take(self, user):
        """Count this socket against ``user``'s limit; False when they hold too many."""
        key = user_sockets_key(user.pk)
        await cache.aadd(key, 0, timeout=SOCKET_SLOT_TTL_S)
        held = await cache.aincr(key)
        if held > SOCKETS_PER_USER:
            await cache.adecr(key)
            return False
        self.slot_user = user.pk
        await self._seen(time.monotonic())
        return True

    async def dispatch(self, message):
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def refuse(self, code):
        """Turn the socket away with ``code``: 4401 not signed in, 4404 no such thing (or not
        one this user may see: the same answer, so ids cannot be probed)."""
        await self.accept()
        await self.close(code=code)

    async def group_join(self, group):
        """Listen to ``group`` (instead of the one joined before, if any)."""
        if group == self.group:
            return
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)
        await self.channel_layer.group_add(group, self.channel_name)
        self.group = group

    async def session_watch(self):
        """Listen for the end of this user's session (see ``sockets_close``)."""
        user = self.scope.get("user")
        session = self.scope.get("session")
        groups = [user_sockets_group(user.pk)]
        if session is not None and session.session_key:
            groups.append(session_sockets_group(session.session_key))
        for group in groups:
            await self.channel_layer.group_add(group, self.channel_name)
        self.watched = tuple(groups)

    async def session_end(self, event):
        await self.close(code=event["code"])

    async def disconnect(self, code):
        if self.slot_user is not None:
            try:
                await cache.adecr(user_sockets_key(self.slot_user))
            except ValueError:  # expired meanwhile
                pass
            self.slot_user = None
        for group in self.watched:
            await self.channel_layer.group_discard(group, self.channel_name)
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def send_frame(self, payload):
        await self.send(text_data=frame_dumps(payload))


class NotFoundConsumer(AsyncSocketConsumer):
    """A socket to a path nothing serves: told so with 4404 like a game it may not see."""

    async def connect(self):
        await self.refuse(4404)


def group_send_many(events):
    """Send ``[(group, event), ...]`` from sync code in one hop to the event loop, the sends
    overlapping on the wire.  Use this (not one async_to_sync per group) on hot paths."""
    layer = get_channel_layer()
    if layer is None or not events:
        return
    _run_async(_send_all, layer, list(events))


def _run_async(func, *args):
    """Run ``func(*args)`` from sync code.  Sync code called inside a running event loop (a
    tool or test driving its own loop) cannot use async_to_sync there: use a helper thread."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return async_to_sync(func)(*args)
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(async_to_sync(func), *args).result()


async def _send_all(layer, events):
    # One hop to the event loop; the production layer sends the batch in one round trip
    # (gerrymander_site.layers), others overlap their group sends on the wire.
    batch = getattr(layer, "group_send_many", None)
    if batch is not None:
        await batch(events)
    else:
        await asyncio.gather(*(layer.group_send(group, event) for group, event in events))
