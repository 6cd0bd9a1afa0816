"""The move service's hand-written SQL gives and stores exactly what the ORM would (on
PostgreSQL, and on SQLite in the embedded run)."""

import random

import pytest

from games import move_store, services
from games.models import Game, Move

from .helpers import a_legal_move, make_user, seat_to_move

pytestmark = [pytest.mark.django_db, pytest.mark.embedded]


def fields_of(instance):
    return {f.attname: getattr(instance, f.attname) for f in type(instance)._meta.concrete_fields}


def assert_same_instance(ours, orm):
    assert fields_of(ours) == fields_of(orm)
    for name, value in fields_of(orm).items():
        assert isinstance(getattr(ours, name), type(value)), name  # e.g. dict, not JSON text


def assert_read_matches_the_orm(game_id):
    game, seats = move_store.game_lock_with_seats(game_id)
    orm_game = Game.objects.get(pk=game_id)
    orm_seats = list(orm_game.seats.select_related("user").order_by("index"))
    assert_same_instance(game, orm_game)
    assert len(seats) == len(orm_seats)
    for seat, orm_seat in zip(seats, orm_seats, strict=True):
        assert_same_instance(seat, orm_seat)
        assert seat.game is game
        assert (seat.display_name, seat.is_bot, seat.is_empty) == (
            orm_seat.display_name, orm_seat.is_bot, orm_seat.is_empty)
        if orm_seat.user_id:
            assert (seat.user.pk, seat.user.username) == (orm_seat.user.pk, orm_seat.user.username)
    return game, seats


def test_the_locked_read_gives_what_the_orm_gives_for_every_kind_of_seat():
    ana = make_user("ana", first_name="Ana", last_name="Lopez")
    ben = make_user("ben")
    game = services.game_create(
        kind="mapmaker", options={"players": 4, "first_seat": 0}, created_by=ana,
        seats=[services.SeatSpec(user=ana), services.SeatSpec(user=ben),
               services.SeatSpec(bot_level="easy")])
    _, seats = assert_read_matches_the_orm(game.pk)
    assert [s.display_name for s in seats] == ["Ana Lopez", "ben", "Bot (Easy)", "Open seat"]
    assert move_store.game_lock_with_seats(game.pk + 1000) == (None, [])


def test_moves_to_the_end_store_what_the_orm_would_read_back():
    ana, ben = make_user("ana"), make_user("ben")
    game = services.game_create(kind="mapmaker", options={"players": 2, "first_seat": 0},
                                seats=[services.SeatSpec(user=ana), services.SeatSpec(user=ben)])
    users, rng, played = {0: ana, 1: ben}, random.Random(3), []
    while game.status == Game.Status.ACTIVE:
        seat = seat_to_move(game)
        move = a_legal_move(game, seat, rng)
        game = services.move_submit(game_id=game.pk, seat_index=seat, move=move,
                                    expected_version=game.version, user=users[seat])
        played.append((seat, move))
        if len(played) in (1, 10):
            assert_same_instance(game, Game.objects.get(pk=game.pk))
    stored = Game.objects.get(pk=game.pk)
    assert_same_instance(game, stored)
    assert stored.status == Game.Status.FINISHED and stored.result["winners"]
    assert stored.finished_at == stored.last_move_at is not None
    log = list(Move.objects.filter(game=game).order_by("ply"))
    assert [(m.ply, m.seat, m.move, m.by_bot) for m in log] == [
        (ply, seat, move, False) for ply, (seat, move) in enumerate(played)]
    assert all(m.created_at.tzinfo is not None for m in log)
    assert_read_matches_the_orm(game.pk)


def test_a_bot_move_is_logged_as_the_bots():
    ana = make_user("ana")
    game = services.game_create(kind="mapmaker", options={"players": 2, "first_seat": 1},
                                seats=[services.SeatSpec(user=ana), services.SeatSpec(bot_level="easy")])
    game = services.move_submit(game_id=game.pk, seat_index=1, move=a_legal_move(game, 1),
                                expected_version=0)
    assert list(Move.objects.filter(game=game).values_list("seat", "by_bot")) == [(1, True)]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_move_waiting_for_the_lock_sees_the_seat_change_it_waited_for():
    """A teacher hands ana's seat to eve while ana's move waits for the game's lock: the move
    must be refused (it is no longer ana's seat) and must not broadcast the old table."""
    import threading
    import time

    from django.db import connections, transaction

    from games.models import Seat

    ana, eve = make_user("ana"), make_user("eve")
    game = services.game_create(kind="mapmaker", options={"players": 2, "first_seat": 0},
                                seats=[services.SeatSpec(user=ana), services.SeatSpec(user=make_user("ben"))])
    locked, outcome = threading.Event(), []

    def teacher():
        try:
            with transaction.atomic():
                Game.objects.select_for_update().get(pk=game.pk)
                Seat.objects.filter(game=game, index=0).update(user=eve)
                locked.set()
                time.sleep(0.5)  # ana's move is waiting for the lock now
        finally:
            connections.close_all()

    def student():
        try:
            locked.wait(5)
            services.move_submit(game_id=game.pk, seat_index=0, move=a_legal_move(game, 0),
                                 expected_version=0, user=ana)
            outcome.append("accepted")
        except services.SeatError as exc:
            outcome.append(exc.code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=teacher), threading.Thread(target=student)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert outcome == ["not_your_seat"]
    assert not Move.objects.filter(game=game).exists()
