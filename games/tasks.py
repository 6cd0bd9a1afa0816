"""Celery tasks: thin wrappers that schedule services; no game logic here."""

from celery import shared_task
from celery.signals import worker_ready
from django.db import InterfaceError, OperationalError

from games import bot_runner, lessons, services


@shared_task(
    name="games.tasks.bot_move_play",
    acks_late=True,
    reject_on_worker_lost=True,
    soft_time_limit=20,
    time_limit=30,
    # transient database trouble only: a ProgrammingError or DataError will not go away
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=0.5,
    retry_backoff_max=10,
    retry_jitter=True,
    max_retries=8,
)
def bot_move_play(*, game_id, step, seat_index, owner=""):
    """Play the bot's move for ``game_id`` in the step begun at version ``step`` if it is
    still due (idempotent).  A lobby owner already thinking on as many workers as allowed
    waits its turn: the task goes back on its queue, behind everyone else's."""
    with bot_runner.owner_slot(owner) as ok:
        if ok:
            return services.bot_move_play(game_id=game_id, step=step, seat_index=seat_index)
    bot_runner.bot_move_requeue(game_id=game_id, step=step, seat_index=seat_index, owner=owner)
    return "requeued"


@shared_task(
    name="games.tasks.ensemble_chunk",
    acks_late=True,
    reject_on_worker_lost=True,
    soft_time_limit=120,
    time_limit=150,
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=0.5,
    max_retries=8,
)
def ensemble_chunk(*, lesson_id, start, stop):
    """Draw one chunk of a finished game's ensemble of random maps (idempotent)."""
    return lessons.ensemble_chunk_draw(lesson_id=lesson_id, start=start, stop=stop)


@worker_ready.connect
def bots_resume_on_worker_start(**kwargs):
    """A worker (re)starting picks up bot turns whose scheduled task was lost."""
    services.game_bots_resume_stalled()


@shared_task(name="games.tasks.bots_resume_stalled", ignore_result=True)
def bots_resume_stalled():
    """Periodic sweep (celery beat): re-schedule bot turns idle longer than BOT_STALL_S."""
    return services.game_bots_resume_stalled()
