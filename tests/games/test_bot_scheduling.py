"""Bot turns are scheduled on commit, run once, and survive a worker dying mid-thought."""

import time
from pathlib import Path

import pytest

from games import services
from games.models import Game, Move
from games.replay import game_replay

from ..conftest import celery_worker_start, process_stop
from .helpers import a_legal_move, make_game, make_user


def wait_for(predicate, timeout=60, interval=0.2):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(interval)
    return False


def finished(game):
    return lambda: Game.objects.get(pk=game.pk).status == Game.Status.FINISHED


def assert_clean_log(game):
    game.refresh_from_db()
    plies = list(Move.objects.filter(game=game).order_by("ply").values_list("ply", flat=True))
    assert plies == list(range(game.version))  # no lost and no doubled move
    assert game_replay(game=game).matches


@pytest.mark.embedded
@pytest.mark.django_db(transaction=True)
def test_bots_only_game_runs_to_the_end_in_process(bots_now):
    game = make_game(options={"players": 2}, bots=("random", "easy"))
    assert game.status == Game.Status.ACTIVE
    assert wait_for(finished(game), timeout=90)
    assert_clean_log(game)
    game.refresh_from_db()
    assert game.result["winners"]


@pytest.mark.embedded
@pytest.mark.django_db(transaction=True)
def test_bot_answers_a_human_move_in_process(bots_now):
    ana = make_user("ana")
    game = make_game(ana, bots=("easy",))
    services.move_submit(game_id=game.pk, seat_index=0, move=a_legal_move(game, 0),
                         expected_version=0, user=ana)
    # The bot (seat 1) places its 2 borders; then it is ana's turn again.
    assert wait_for(lambda: Game.objects.get(pk=game.pk).version == 3, timeout=30)
    time.sleep(0.5)
    game.refresh_from_db()
    assert game.version == 3
    assert list(Move.objects.filter(game=game).values_list("seat", "by_bot")) == [
        (0, False), (1, True), (1, True)]


@pytest.mark.django_db
def test_bot_task_is_idempotent():
    ana = make_user("ana")  # bots are off: only the explicit calls below play
    game = make_game(ana, bots=("random",), options={"players": 2, "first_seat": 1})
    assert services.bot_move_play(game_id=game.pk, step=0, seat_index=0) == "not_bot_turn"
    assert services.bot_move_play(game_id=game.pk, step=0, seat_index=1) == "moved"
    assert services.bot_move_play(game_id=game.pk, step=0, seat_index=1) == "stale"
    assert services.bot_move_play(game_id=game.pk + 99, step=0, seat_index=1) == "stale"
    services.game_set_paused(game_id=game.pk, paused=True)
    assert services.bot_move_play(game_id=game.pk, step=1, seat_index=1) == "stale"
    assert Move.objects.filter(game=game).count() == 1


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_bots_only_game_runs_to_the_end_on_a_celery_worker(settings):
    settings.BOT_RUNNER = "celery"
    settings.BOT_MOVE_DELAY_S = 0
    worker = celery_worker_start(name="bots-only")
    try:
        game = make_game(options={"players": 2}, bots=("easy", "random"))
        assert wait_for(finished(game), timeout=120), worker.log_path.read_text()[-3000:]
    finally:
        process_stop(worker)
    assert_clean_log(game)


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_worker_killed_while_a_bot_thinks_loses_and_doubles_nothing(settings, tmp_path):
    settings.BOT_RUNNER = "celery"
    settings.BOT_MOVE_DELAY_S = 0
    thinking = tmp_path / "thinking.txt"
    thinking.touch()
    fast_restore = {"CELERY_VISIBILITY_TIMEOUT": "3", "CELERY_RESTORE_INTERVAL": "1"}
    slow = celery_worker_start(
        name="slow", script=str(Path(__file__).with_name("slow_bot_worker.py")),
        extra_env={**fast_restore, "SLOW_BOT_S": "30", "THINKING_FILE": str(thinking)},
    )
    try:
        game = make_game(options={"players": 2}, bots=("easy", "easy"))
        assert wait_for(lambda: "thinking" in thinking.read_text(), timeout=30), \
            slow.log_path.read_text()[-3000:]
    finally:
        process_stop(slow, kill=True)  # SIGKILL mid-thought: the task was never acknowledged
    assert Game.objects.get(pk=game.pk).version == 0
    fresh = celery_worker_start(name="fresh", extra_env=fast_restore)
    try:
        assert wait_for(finished(game), timeout=120), fresh.log_path.read_text()[-3000:]
    finally:
        process_stop(fresh)
    assert_clean_log(game)


@pytest.mark.embedded
@pytest.mark.django_db(transaction=True)
def test_stalled_bot_games_are_resumed_after_a_restart(settings):
    from datetime import timedelta

    from django.core.management import call_command
    from django.utils import timezone

    # Created while nothing plays for bots (their scheduled moves "died with the server").
    stalled = make_game(options={"players": 2}, bots=("random", "random"), seed="stalled")
    fresh = make_game(options={"players": 2}, bots=("random", "random"), seed="fresh")
    Game.objects.filter(pk=stalled.pk).update(created_at=timezone.now() - timedelta(minutes=5))
    settings.BOT_RUNNER, settings.BOT_MOVE_DELAY_S = "inprocess", 0
    call_command("game_bots_resume")  # only the one idle for longer than BOT_STALL_S
    assert wait_for(finished(stalled), timeout=90)
    assert Game.objects.get(pk=fresh.pk).version == 0
    assert_clean_log(stalled)


def test_beat_schedule_runs_the_stalled_bot_sweep():
    from django.conf import settings

    import games.tasks  # noqa: F401 - registers the tasks, as a worker's autodiscovery does
    from gerrymander_site.celery import app

    entry = settings.CELERY_BEAT_SCHEDULE["bots-resume-stalled"]
    assert entry["task"] in app.tasks and entry["schedule"] <= 60


# --- one student's bot games cannot starve the others' ----------------------------------

@pytest.mark.django_db
def test_lobby_games_per_student_are_capped(settings):
    from games import services
    from games.services import GameError, SeatSpec

    settings.LOBBY_GAMES_MAX, settings.BOT_ONLY_GAMES_MAX = 4, 2
    eve = make_user("eve")

    def create(*seats):
        return services.game_create(kind="mapmaker", options={"players": 2}, created_by=eve,
                                    lobby=True, seats=list(seats))

    watch = (SeatSpec(bot_level="hard"), SeatSpec(bot_level="hard"))
    create(*watch)
    create(*watch)
    with pytest.raises(GameError, match="2 bots-only games at a time"):
        create(*watch)
    create(SeatSpec(user=eve), SeatSpec(bot_level="easy"))
    create(SeatSpec(user=eve))
    with pytest.raises(GameError, match="already have 4 games going") as refused:
        create(SeatSpec(user=eve), SeatSpec(bot_level="easy"))
    assert refused.value.code == "too_many_games"
    # a teacher's assignment tables are not lobby games: never capped here
    assert services.game_create(kind="mapmaker", options={"players": 2}, created_by=eve,
                                seats=list(watch))


@pytest.mark.django_db
def test_game_creation_is_rate_limited(settings):
    from games import services
    from games.services import GameError, SeatSpec

    settings.GAMES_PER_HOUR_MAX = 3
    ana = make_user("ana")
    for _ in range(3):
        game = services.game_create(kind="mapmaker", options={"mode": "solo-easy"},
                                    created_by=ana, lobby=True, seats=[SeatSpec(user=ana)])
        Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    with pytest.raises(GameError, match="a lot of games this hour"):
        services.game_create(kind="mapmaker", options={"mode": "solo-easy"}, created_by=ana,
                             lobby=True, seats=[SeatSpec(user=ana)])


async def test_waiting_bot_work_is_served_round_robin_by_owner():
    """Ten decisions of one owner queued before one of another's: the other's runs next, not
    eleventh; classroom tables before lobby games, lobby owners in turn."""
    import asyncio

    from games.bot_runner import FairSlots

    slots = FairSlots(1)
    order = []

    def job(name):
        async def run():
            order.append(name)
            await asyncio.sleep(0.01)
        return run

    tasks = [asyncio.create_task(slots.run("lobby:eve", job(f"eve{i}"))) for i in range(10)]
    await asyncio.sleep(0)
    tasks.append(asyncio.create_task(slots.run("class:teacher", job("class"))))
    await asyncio.gather(*tasks)
    assert order[:2] == ["eve0", "class"]  # a classroom table's bot goes first
    tasks = [asyncio.create_task(slots.run("lobby:eve", job(f"eve{i}"))) for i in range(4)]
    await asyncio.sleep(0)
    tasks += [asyncio.create_task(slots.run("lobby:max", job("max")))]
    await asyncio.gather(*tasks)
    assert order[11:14] == ["eve0", "eve1", "max"]  # lobby owners take turns
    assert slots.running == 0 and not any(slots.waiting.values())


def test_lobby_and_class_bots_go_to_their_own_celery_queues(settings, monkeypatch):
    from games import bot_runner
    from games.tasks import bot_move_play as task

    settings.BOT_RUNNER = "celery"
    sent = []
    monkeypatch.setattr(task, "apply_async", lambda **kw: sent.append(kw))
    bot_runner.bot_move_enqueue(game_id=1, step=0, seat_index=1, owner="lobby:7")
    bot_runner.bot_move_enqueue(game_id=2, step=0, seat_index=1, owner="class:3")
    assert [kw["queue"] for kw in sent] == ["bots_lobby", "bots"]
    assert sent[0]["kwargs"]["owner"] == "lobby:7"


def test_a_lobby_owner_busy_on_every_allowed_worker_waits_its_turn(settings, monkeypatch):
    from games import bot_runner, services
    from games.tasks import bot_move_play as task

    settings.BOT_LOBBY_OWNER_SLOTS = 1
    requeued, played = [], []
    monkeypatch.setattr(bot_runner, "bot_move_requeue", lambda **kw: requeued.append(kw))
    monkeypatch.setattr(services, "bot_move_play", lambda **kw: played.append(kw) or "moved")
    with bot_runner.owner_slot("lobby:7") as first:
        assert first
        assert task.run(game_id=1, step=0, seat_index=1, owner="lobby:7") == "requeued"
        assert task.run(game_id=2, step=0, seat_index=1, owner="class:3") == "moved"
    assert task.run(game_id=1, step=0, seat_index=1, owner="lobby:7") == "moved"
    assert [kw["game_id"] for kw in requeued] == [1] and [kw["game_id"] for kw in played] == [2, 1]
