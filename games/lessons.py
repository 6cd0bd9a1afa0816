"""The lesson after the game: every write about it goes through here.

When a game ends (and whenever its page asks for it), ``lesson_ensure`` keeps the engine's
``rules.lesson(final state)`` and starts the ensemble: ``rules.ensemble_maps`` random legal
maps of the same board and voters, in chunks of ``CHUNK`` maps.  Chunks are drawn

* on Celery workers in the production shape (``LESSON_RUNNER="celery"``): one task a chunk,
  so several workers share one game's ensemble;
* in a background process in the embedded shape (``"process"``): the drawing is pure Python,
  so it runs in a worker process and the web process only saves and announces each chunk;
* inline (``"sync"``, for tests and tools), or not at all (``"off"``).

Each chunk's seats are saved (``EnsembleChunk``, idempotent), its progress announced to every
socket watching the game, and the last one in writes the summary (histograms, percentiles).
Map i is drawn from (the game's seed, i) only, so the ensemble is the same however it is
split, and it is computed once.
"""

import asyncio
import hashlib
import logging
from concurrent.futures import ProcessPoolExecutor
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.broadcast import group_for
from games.engine import get_rules
from games.engine.ensemble import draw_chunk
from games.models import EnsembleChunk, Game, GameLesson
from gerrymander_site.sockets import group_send_many

logger = logging.getLogger(__name__)

CHUNK = 100
EVENT_LESSON = "game.lesson"


def ensemble_seed(game):
    """The ensemble's seed: fixed per game (not the game's own seed, which stays secret)."""
    return int.from_bytes(hashlib.sha256(f"ensemble:{game.seed}".encode()).digest()[:8], "big")


def lesson_ensure(*, game):
    """The game's ``GameLesson`` (None while it is not finished): made the first time, with
    its ensemble started once."""
    if game.status != Game.Status.FINISHED:
        return None
    existing = GameLesson.objects.filter(game=game).first()
    if existing is not None:
        _resume_if_stalled(existing)
        return existing
    rules = get_rules(game.kind)
    maps = rules.ensemble_maps
    try:
        with transaction.atomic():
            lesson = GameLesson.objects.create(
                game=game, lesson=rules.lesson(game.state),
                status=GameLesson.Status.RUNNING if maps else GameLesson.Status.NONE,
                maps=maps, chunks=-(-maps // CHUNK) if maps else 0)
    except IntegrityError:  # made meanwhile by another request
        return GameLesson.objects.get(game=game)
    event = lesson_event(lesson, drawn=0)
    transaction.on_commit(lambda: _announce(game, event), robust=True)
    if maps:
        transaction.on_commit(lambda: ensemble_schedule(lesson_id=lesson.pk), robust=True)
    return lesson


def _resume_if_stalled(lesson):
    """An ensemble still running long after it began lost its worker (a restart, a tool that
    exited): draw the missing chunks again (saving a chunk twice keeps it once)."""
    stalled = timezone.now() - lesson.created_at > timedelta(seconds=settings.LESSON_STALL_S)
    if lesson.status == GameLesson.Status.RUNNING and stalled:
        lesson.created_at = timezone.now()  # the clock starts again for the new attempt
        lesson.save(update_fields=["created_at"])
        transaction.on_commit(lambda: ensemble_schedule(lesson_id=lesson.pk), robust=True)


def _chunks(lesson):
    return [(start, min(start + CHUNK, lesson.maps)) for start in range(0, lesson.maps, CHUNK)]


def ensemble_schedule(*, lesson_id):
    """Start drawing the ensemble's chunks not drawn yet, by ``settings.LESSON_RUNNER``."""
    lesson = GameLesson.objects.select_related("game").get(pk=lesson_id)
    done = set(lesson.pieces.values_list("start", flat=True))
    todo = [(a, b) for a, b in _chunks(lesson) if a not in done]
    runner = settings.LESSON_RUNNER
    if runner == "off" or not todo:
        return
    if runner == "celery":
        from games.tasks import ensemble_chunk

        for start, stop in todo:
            ensemble_chunk.apply_async(kwargs={"lesson_id": lesson.pk, "start": start,
                                               "stop": stop})
    elif runner == "process":
        _in_background(lesson, todo)
    else:  # sync
        for start, stop in todo:
            ensemble_chunk_draw(lesson_id=lesson.pk, start=start, stop=stop)


def ensemble_chunk_draw(*, lesson_id, start, stop):
    """Draw one chunk here and keep it (what a Celery task or the inline runner does)."""
    lesson = GameLesson.objects.select_related("game").filter(pk=lesson_id).first()
    if lesson is None or lesson.pieces.filter(start=start).exists():
        return "done already"
    game = lesson.game
    seats = get_rules(game.kind).ensemble(game.state, seed=ensemble_seed(game), start=start,
                                          stop=stop)
    return ensemble_chunk_save(lesson_id=lesson_id, start=start, stop=stop, seats=seats)


def ensemble_chunk_save(*, lesson_id, start, stop, seats):
    """Keep a drawn chunk (once), tell the game's sockets how far the ensemble is, and when
    it is the last one, write the summary."""
    with transaction.atomic():
        lesson = GameLesson.objects.select_for_update().select_related("game").get(pk=lesson_id)
        if lesson.status == GameLesson.Status.DONE:
            return "done already"
        _, made = EnsembleChunk.objects.get_or_create(
            lesson=lesson, start=start, defaults={"stop": stop, "seats": seats})
        pieces = list(lesson.pieces.order_by("start").values_list("seats", flat=True))
        drawn = sum(len(p) for p in pieces)
        if len(pieces) == lesson.chunks:
            game = lesson.game
            lesson.summary = get_rules(game.kind).ensemble_summary(
                game.state, [seats for piece in pieces for seats in piece])
            lesson.status = GameLesson.Status.DONE
            lesson.finished_at = timezone.now()
            lesson.save(update_fields=["summary", "status", "finished_at"])
        event = lesson_event(lesson, drawn=drawn)
        transaction.on_commit(lambda: _announce(lesson.game, event), robust=True)
    return "saved" if made else "done already"


def lesson_event(lesson, *, drawn=None):
    """What the game page shows of a lesson: the lesson itself, how far the ensemble is, and
    its summary once done."""
    if drawn is None:
        drawn = sum(len(p) for p in lesson.pieces.values_list("seats", flat=True))
    return {"status": lesson.status, "lesson": lesson.lesson, "drawn": drawn,
            "maps": lesson.maps, "summary": lesson.summary}


def _announce(game, event):
    seats = [seat.index for seat in game.seats.all()] + [None]
    group_send_many([(group_for(game.pk, seat), {"type": EVENT_LESSON, "lesson": event})
                     for seat in seats])


# --- the embedded shape: a background process draws, this process keeps and announces ----

_pool = None


def _process_pool():
    global _pool
    if _pool is None:
        import multiprocessing

        # spawn: the worker starts clean (no copy of the server's threads, loop or sockets)
        _pool = ProcessPoolExecutor(max_workers=settings.LESSON_PROCESSES,
                                    mp_context=multiprocessing.get_context("spawn"))
    return _pool


def _in_background(lesson, todo):
    from games import bot_runner

    game = lesson.game
    args = [(game.kind, game.state, ensemble_seed(game), start, stop) for start, stop in todo]
    loop = bot_runner.server_loop()
    if loop is not None:  # under the ASGI server: announce from the loop that owns the layer
        loop.call_soon_threadsafe(lambda: loop.create_task(_drive_async(lesson.pk, args)))
    else:
        import threading

        threading.Thread(target=_drive, args=(lesson.pk, args), daemon=True).start()


async def _drive_async(lesson_id, args):
    from channels.db import database_sync_to_async

    loop = asyncio.get_running_loop()
    save = database_sync_to_async(ensemble_chunk_save, thread_sensitive=False)
    for kind, state, seed, start, stop in args:
        try:
            seats = await loop.run_in_executor(_process_pool(), draw_chunk, kind, state, seed,
                                               start, stop)
            await save(lesson_id=lesson_id, start=start, stop=stop, seats=seats)
        except Exception:  # the lesson can be asked for again; the server must go on
            logger.exception("ensemble chunk %s of lesson %s failed", start, lesson_id)
            return


def _drive(lesson_id, args):
    from django.db import close_old_connections

    try:
        for kind, state, seed, start, stop in args:
            seats = _process_pool().submit(draw_chunk, kind, state, seed, start, stop).result()
            ensemble_chunk_save(lesson_id=lesson_id, start=start, stop=stop, seats=seats)
    except Exception:
        logger.exception("ensemble of lesson %s failed", lesson_id)
    finally:
        close_old_connections()
