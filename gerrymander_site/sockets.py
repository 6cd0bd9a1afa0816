"""The base of every WebSocket consumer here.

Channels runs ``close_old_connections`` on its one thread-sensitive thread before *every*
message a consumer handles - each frame from the browser and each channel-layer event, so
each socket's share of every broadcast queues for that single thread.  Our consumers never
touch the database on that thread: every query runs through ``database_sync_to_async``,
which tidies its own thread's connections before and after.  So the per-message hop buys
nothing and, under load, was the queue every move's views waited in
(``make bench-latency``).
"""

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer


class AsyncSocketConsumer(AsyncWebsocketConsumer):
    """``AsyncWebsocketConsumer`` without the per-message database hop.  Subclasses must do
    all database work through ``channels.db.database_sync_to_async``."""

    async def dispatch(self, message):
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)
