"""Schedules bot turns; it never decides a move (that is ``games.bots``).

Two runners, picked by ``settings.BOT_RUNNER``:

* ``celery`` (production shape): a ``bot_move_play`` task, delayed by ``BOT_MOVE_DELAY_S`` so
  students see each border.  Classroom tables go to the ``bots`` queue, lobby games to
  ``bots_lobby``: a worker serves its queues in turn, so a flood of lobby games cannot
  starve a class.  Any worker may run a task; it is idempotent.
* ``off``: nothing is scheduled (tests that do not exercise bots).
* ``inprocess`` (embedded default, no Redis): the same service call, run in this process after
  the same delay.  Under the ASGI server it is scheduled on the server's event loop, so its
  broadcasts reach the in-memory channel layer from the loop that owns it; elsewhere (a
  management command, a test) it runs on a short-lived thread.

Fairness: every bot decision has an owner (who made the game: a class's teacher, or the
student who opened a lobby game).  In process, at most ``BOT_SLOTS`` decisions think at once
(bots are pure Python: more threads only share one interpreter lock) and waiting ones are
served round robin by owner, classroom tables first; on Celery a lobby owner holds at most
``BOT_LOBBY_OWNER_SLOTS`` workers at once (the others' tasks go first).  With the caps on games per
user (``games.services``), one student's bot games cannot slow another class's bots.
"""

import asyncio
import logging
import threading
from collections import OrderedDict, deque
from contextlib import contextmanager

from channels.db import database_sync_to_async
from django.conf import settings
from django.core.cache import cache
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


def server_loop():
    """The ASGI server's running event loop in this process, or None (a worker, a command)."""
    loop = _server_loop
    return loop if loop is not None and loop.is_running() else None


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
        bot_move_enqueue(game_id=game.pk, step=game.step_version, seat_index=index,
                         owner=bot_owner(game))
    return due


def bot_owner(game):
    """Whose bot work this is, for fair scheduling: the game's maker (a class's tables share
    their teacher; a lobby game is its student's)."""
    return f"{'lobby' if game.lobby else 'class'}:{game.created_by_id}"


def bot_move_enqueue(*, game_id, step, seat_index, owner=""):
    delay = settings.BOT_MOVE_DELAY_S
    kwargs = {"game_id": game_id, "step": step, "seat_index": seat_index}
    if settings.BOT_RUNNER == "off":
        return
    if settings.BOT_RUNNER == "celery":
        from games.tasks import bot_move_play as task

        queue = "bots_lobby" if owner.startswith("lobby:") else "bots"
        task.apply_async(kwargs={**kwargs, "owner": owner}, countdown=delay, queue=queue)
        return
    loop = server_loop()
    if loop is not None:
        loop.call_soon_threadsafe(
            lambda: loop.create_task(_play_later_async(delay, owner, kwargs)))
    else:
        threading.Timer(delay, _play_in_thread, kwargs=kwargs).start()


def bot_move_requeue(*, game_id, step, seat_index, owner):
    """Put a task whose owner was busy back at the end of its queue, after a short pause."""
    from games.tasks import bot_move_play as task

    task.apply_async(kwargs={"game_id": game_id, "step": step, "seat_index": seat_index,
                             "owner": owner},
                     countdown=OWNER_BUSY_RETRY_S, queue="bots_lobby")


OWNER_BUSY_RETRY_S = 0.3
OWNER_SLOT_TTL_S = 60  # a worker that died holding a slot gives it back by then


@contextmanager
def owner_slot(owner):
    """Yields True while ``owner`` holds one of its ``BOT_LOBBY_OWNER_SLOTS`` worker slots
    (shared by every worker through the cache), False if it holds them all already.
    Classroom tables are not limited here: they have their own queue."""
    if not owner.startswith("lobby:"):
        yield True
        return
    key = f"bots:owner-slots:{owner}"
    cache.add(key, 0, timeout=OWNER_SLOT_TTL_S)
    held = cache.incr(key)
    try:
        yield held <= settings.BOT_LOBBY_OWNER_SLOTS
    finally:
        try:
            cache.decr(key)
        except ValueError:  # expired meanwhile
            pass


class FairSlots:
    """At most ``slots`` jobs run at once; waiting jobs are served round robin by owner, so an
    owner with many jobs waits its turn like the others, and classroom tables' jobs go before
    lobby games' (asyncio, one loop)."""

    def __init__(self, slots):
        self.slots = slots
        self.running = 0
        # per class of owner, in serving order: owner -> deque of futures, in turn order
        self.waiting = {"class": OrderedDict(), "lobby": OrderedDict()}

    async def run(self, owner, job):
        if self.running >= self.slots:
            ready = asyncio.get_running_loop().create_future()
            line = self.waiting["lobby" if owner.startswith("lobby:") else "class"]
            line.setdefault(owner, deque()).append(ready)
            await ready  # the slot was handed over to this job
        else:
            self.running += 1
        try:
            return await job()
        finally:
            self._hand_over()

    def _hand_over(self):
        for line in self.waiting.values():
            while line:
                owner, queue = next(iter(line.items()))
                ready = queue.popleft()
                del line[owner]
                if queue:
                    line[owner] = queue  # back of the line
                if not ready.cancelled():
                    ready.set_result(None)
                    return  # the slot passes on, still counted as running
        self.running -= 1


_fair = None


def _fair_slots():
    global _fair
    if _fair is None:
        _fair = FairSlots(settings.BOT_SLOTS)
    return _fair


async def _play_later_async(delay, owner, kwargs):
    await asyncio.sleep(delay)
    play = database_sync_to_async(_play_logged, thread_sensitive=False)
    await _fair_slots().run(owner, lambda: play(**kwargs))


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
