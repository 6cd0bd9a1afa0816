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
"""

import json

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer


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

    async def disconnect(self, code):
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def send_frame(self, payload):
        await self.send(text_data=frame_dumps(payload))
