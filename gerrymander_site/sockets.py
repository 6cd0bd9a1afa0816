"""What every WebSocket consumer here shares.

- No per-message database hop.  Channels runs ``close_old_connections`` on its one
  thread-sensitive thread before *every* message a consumer handles - each frame from the
  browser and each channel-layer event - so each socket's share of every broadcast queued for
  that single thread.  Our consumers never touch the database on the event loop: every query
  runs through ``db_call``, which tidies its own thread's connections before and after.
- Refusals a browser can read: ``refuse(code)`` accepts and then closes with the code.  A
  socket closed before the handshake reaches a browser as a bare HTTP 403 (close code 1006),
  so the page could not tell "sign in again" from "the network dropped".
- One group per socket, left on disconnect; compact JSON frames.
- Sockets end with the session: each socket of a signed-in user also listens to that user's
  and that session's groups, and ``sockets_close`` closes them all at once (password changed,
  signed out, account switched off, classes changed) with a code the page explains.
"""

import asyncio
import hashlib
import json
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import async_to_sync
from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import get_channel_layer

# Close codes a page explains (static/games/js/socket.js): 4401 signed out (or the password
# changed), 4403 the account is switched off, 4409 the user's classes changed (the page
# reconnects and the server checks again what the user may see).
CLOSE_SIGNED_OUT = 4401
CLOSE_ACCOUNT_OFF = 4403
CLOSE_RESYNC = 4409


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
        for group in self.watched:
            await self.channel_layer.group_discard(group, self.channel_name)
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def send_frame(self, payload):
        await self.send(text_data=frame_dumps(payload))


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
