"""Schedules bot turns; it never decides a move (that is ``games.bots``).

Two runners, picked by ``settings.BOT_RUNNER``:

* ``celery`` (production shape): a ``bot_move_play`` task on the ``bots`` queue, delayed by
  ``BOT_MOVE_DELAY_S`` so students see each border.  Any worker may run it; it is idempotent.
* ``off``: nothing is scheduled (tests that do not exercise bots).
* ``inprocess`` (embedded default, no Redis): the same service call, run in this process after
  the same delay.  Under the ASGI server it is scheduled on the server's event loop, so its
  broadcasts reach the in-memory channel layer from the loop that owns it; elsewhere (a
  management command, a test) it runs on a short-lived thread.
"""

import asyncio
import logging
import threading

from channels.db import database_sync_to_async
from django.conf import settings
from django.db import close_old_connections

logger = logging.getLogger(__name__)

_server_loop = None


def remember_server_loop(app):
    """ASGI wrapper that records the server's event loop for the in-process runner."""

    async def wrapper(scope, receive, send):
        global _server_loop
        if _server_loop is None or _server_loop.is_closed():
            _server_loop = asyncio.get_running_loop()
        return await app(scope, receive, send)

    return wrapper


def bot_turns_schedule(*, game, seats):
    """Schedule a move for every bot seat the game is waiting for; returns their indexes.

    Keyed by the step (``game.step_version``): in a simultaneous step each bot is scheduled
    once, not again when another seat commits."""
    from games.engine import get_rules
    from games.models import Game

    if game.status != Game.Status.ACTIVE:
        return []
    waiting = set(get_rules(game.kind).to_move(game.state))
    due = [seat.index for seat in seats if seat.is_bot and seat.index in waiting]
    for index in due:
        bot_move_enqueue(game_id=game.pk, step=game.step_version, seat_index=index)
    return due


def bot_move_enqueue(*, game_id, step, seat_index):
    delay = settings.BOT_MOVE_DELAY_S
    kwargs = {"game_id": game_id, "step": step, "seat_index": seat_index}
    if settings.BOT_RUNNER == "off":
        return
    if settings.BOT_RUNNER == "celery":
        from games.tasks import bot_move_play as task

        task.apply_async(kwargs=kwargs, countdown=delay)
        return
    loop = _server_loop
    if loop is not None and loop.is_running():
        loop.call_soon_threadsafe(lambda: loop.create_task(_play_later_async(delay, kwargs)))
    else:
        threading.Timer(delay, _play_in_thread, kwargs=kwargs).start()


async def _play_later_async(delay, kwargs):
    await asyncio.sleep(delay)
    await database_sync_to_async(_play_logged, thread_sensitive=False)(**kwargs)


def _play_in_thread(**kwargs):
    try:
        _play_logged(**kwargs)
    finally:
        close_old_connections()


def _play_logged(**kwargs):
    from games.services import bot_move_play

    try:
        return bot_move_play(**kwargs)
    except Exception:  # an in-process bot must never take the server down
        logger.exception("in-process bot move failed: %s", kwargs)
        return "error"
