"""The lesson after the game: made when a game ends, its ensemble drawn in chunks (inline, on
Celery, or in a background process), announced as it grows, kept once done."""

import json
import random
import time

import pytest

from games import lessons, services
from games.engine import get_rules
from games.models import EnsembleChunk, Game, GameLesson

from .helpers import make_game, make_user

RULES = get_rules("mapmaker")


def finish(game, users):
    rng = random.Random(4)
    while game.status != Game.Status.FINISHED:
        seat = RULES.to_move(game.state)[0]
        game = services.move_submit(game_id=game.pk, seat_index=seat, user=users[seat],
                                    move=rng.choice(RULES.legal_moves(game.state, seat)),
                                    expected_version=game.version)
    return game


@pytest.fixture
def announced(monkeypatch):
    sent = []
    monkeypatch.setattr(lessons, "group_send_many", lambda events: sent.extend(events))
    return sent


@pytest.mark.django_db(transaction=True)
def test_a_finished_game_gets_its_lesson_and_its_ensemble(settings, announced):
    settings.LESSON_RUNNER = "sync"
    ana, ben = make_user("ana"), make_user("ben")
    game = finish(make_game(ana, ben), {0: ana, 1: ben})
    lesson = GameLesson.objects.get(game=game)
    assert lesson.lesson == json.loads(json.dumps(RULES.lesson(game.state)))
    assert lesson.status == GameLesson.Status.DONE and lesson.maps == 1000
    assert EnsembleChunk.objects.filter(lesson=lesson).count() == lesson.chunks == 10
    # the same as drawing the whole ensemble at once, from the same seed
    seats = RULES.ensemble(game.state, seed=lessons.ensemble_seed(game), start=0, stop=1000)
    assert lesson.summary == json.loads(json.dumps(RULES.ensemble_summary(game.state, seats)))
    # every socket of the game heard the progress, chunk by chunk, then the summary
    progress = [event["lesson"] for group, event in announced
                if group == f"game-{game.pk}-spectators"]
    assert [e["drawn"] for e in progress] == list(range(0, 1001, 100))
    assert [e["status"] for e in progress] == ["running"] * 10 + ["done"]
    assert progress[-1]["summary"] == lesson.summary and progress[0]["summary"] is None
    assert {group for group, _ in announced} == {
        f"game-{game.pk}-seat-0", f"game-{game.pk}-seat-1", f"game-{game.pk}-spectators"}


@pytest.mark.django_db(transaction=True)
def test_chunks_are_kept_once_in_any_order(settings, announced):
    settings.LESSON_RUNNER = "off"
    ana, ben = make_user("ana"), make_user("ben")
    game = finish(make_game(ana, ben), {0: ana, 1: ben})
    lesson = GameLesson.objects.get(game=game)
    assert lesson.status == GameLesson.Status.RUNNING and lesson.summary is None
    for start in (900, 0, 900, *range(100, 900, 100)):  # out of order, one twice
        lessons.ensemble_chunk_draw(lesson_id=lesson.pk, start=start, stop=start + 100)
    lesson.refresh_from_db()
    assert lesson.status == GameLesson.Status.DONE
    assert EnsembleChunk.objects.filter(lesson=lesson).count() == 10
    seats = RULES.ensemble(game.state, seed=lessons.ensemble_seed(game), start=0, stop=1000)
    assert lesson.summary["parties"] == json.loads(json.dumps(
        RULES.ensemble_summary(game.state, seats)))["parties"]
    assert lessons.lesson_ensure(game=game).pk == lesson.pk  # asked again: kept


@pytest.mark.django_db(transaction=True)
def test_on_celery_each_chunk_is_a_task(settings, monkeypatch):
    from games.tasks import ensemble_chunk

    settings.LESSON_RUNNER = "celery"
    sent = []
    monkeypatch.setattr(ensemble_chunk, "apply_async", lambda **kw: sent.append(kw["kwargs"]))
    ana, ben = make_user("ana"), make_user("ben")
    game = finish(make_game(ana, ben), {0: ana, 1: ben})
    lesson = GameLesson.objects.get(game=game)
    assert [(k["start"], k["stop"]) for k in sent] == [(s, s + 100) for s in range(0, 1000, 100)]
    assert all(k["lesson_id"] == lesson.pk for k in sent)
    ensemble_chunk.run(**sent[0])
    assert EnsembleChunk.objects.filter(lesson=lesson).count() == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.embedded
def test_in_the_embedded_shape_a_background_process_draws_the_maps(settings, announced):
    settings.LESSON_RUNNER = "process"
    ana, ben = make_user("ana"), make_user("ben")
    game = finish(make_game(ana, ben), {0: ana, 1: ben})
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        lesson = GameLesson.objects.get(game=game)
        if lesson.status == GameLesson.Status.DONE:
            break
        time.sleep(0.1)
    assert lesson.status == GameLesson.Status.DONE
    seats = RULES.ensemble(game.state, seed=lessons.ensemble_seed(game), start=0, stop=1000)
    assert lesson.summary["parties"] == json.loads(json.dumps(
        RULES.ensemble_summary(game.state, seats)))["parties"]


@pytest.mark.django_db
def test_no_lesson_before_the_end():
    ana, ben = make_user("ana"), make_user("ben")
    assert lessons.lesson_ensure(game=make_game(ana, ben)) is None
    assert not GameLesson.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_an_ensemble_whose_worker_was_lost_is_drawn_again_when_asked_for(settings, announced):
    """The embedded shape's background process dies with its server: the next visit to the
    game finds the ensemble running for too long and draws the missing maps."""
    from datetime import timedelta

    from django.utils import timezone

    settings.LESSON_RUNNER = "off"  # the worker is lost: nothing draws
    ana, ben = make_user("ana"), make_user("ben")
    game = finish(make_game(ana, ben), {0: ana, 1: ben})
    lessons.ensemble_chunk_draw(lesson_id=GameLesson.objects.get(game=game).pk, start=0, stop=100)
    settings.LESSON_RUNNER = "sync"
    assert lessons.lesson_ensure(game=game).status == GameLesson.Status.RUNNING  # not stalled yet
    GameLesson.objects.filter(game=game).update(
        created_at=timezone.now() - timedelta(seconds=settings.LESSON_STALL_S + 1))
    lessons.lesson_ensure(game=game)
    lesson = GameLesson.objects.get(game=game)
    assert lesson.status == GameLesson.Status.DONE
    assert EnsembleChunk.objects.filter(lesson=lesson).count() == 10
