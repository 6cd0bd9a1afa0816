"""The move service's reads and writes, in hand-written SQL: the hot path of live play.

Every move of every table runs these inside ``move_submit``'s transaction.  The ORM spent
more time building and compiling its queries than PostgreSQL spent answering them: the same
lock, read and update took 2.6-2.8 ms (1.6-2.2 ms of CPU) through querysets and 1.4-1.8 ms
(0.5-0.6 ms of CPU) as SQL.  The lock also reads the seats and their players in the same
round trip.  Rows become ordinary model instances (all fields loaded, values converted as
the ORM would), so the rest of the code cannot tell the difference; a test compares them
with the ORM's on both databases.
"""

import json
from datetime import UTC

from django.contrib.auth import get_user_model
from django.db import connection, models
from django.utils import timezone

from games.models import Game, Move, Seat

_USER_FIELDS = ("id", "username", "first_name", "last_name")  # what seats show of a player


def game_lock_with_seats(game_id):
    """Lock game ``game_id`` for this transaction and read it with its seats (each with its
    player's name fields).  ``(None, [])`` when there is no such game."""
    with connection.cursor() as cursor:
        cursor.execute(_lock_sql(), [game_id])
        rows = cursor.fetchall()
    if not rows:
        return None, []
    game_fields, seat_fields = Game._meta.concrete_fields, Seat._meta.concrete_fields
    n_game, n_seat = len(game_fields), len(seat_fields)
    game = _instance(Game, game_fields, rows[0][:n_game])
    seats = []
    for row in rows:
        if row[n_game] is None:  # no seats (game_create never makes such a game)
            continue
        seat = _instance(Seat, seat_fields, row[n_game:n_game + n_seat])
        seat.game = game
        seat.user = (User.from_db(connection.alias, list(_USER_FIELDS), row[n_game + n_seat:])
                     if seat.user_id is not None else None)
        seats.append(seat)
    return game, seats


def move_append(*, game, ply, seat, move, by_bot, fields):
    """Append move ``ply`` to the log and save ``fields`` of ``game`` (as ``save(
    update_fields=fields)`` would).  A second writer of the same ply hits the unique
    constraint (``IntegrityError``)."""
    ops = connection.ops
    with connection.cursor() as cursor:
        cursor.execute(_insert_sql(), [
            game.pk, ply, seat, ops.adapt_json_value(move, None), by_bot,
            ops.adapt_datetimefield_value(timezone.now()),
        ])
        values = [_db_value(Game._meta.get_field(name), getattr(game, name)) for name in fields]
        cursor.execute(_update_sql(tuple(fields)), [*values, game.pk])


User = get_user_model()
_SQL = {}


def _q(name):
    return connection.ops.quote_name(name)


def _lock_sql():
    key = ("lock", connection.vendor)
    if key not in _SQL:
        game_cols = ", ".join(f"g.{_q(f.column)}" for f in Game._meta.concrete_fields)
        seat_cols = ", ".join(f"s.{_q(f.column)}" for f in Seat._meta.concrete_fields)
        user_cols = ", ".join(f"u.{_q(User._meta.get_field(f).column)}" for f in _USER_FIELDS)
        # FOR UPDATE OF locks the game row only; SQLite has no row locks (its IMMEDIATE
        # transactions serialise writers instead).
        lock = " FOR UPDATE OF g" if connection.features.has_select_for_update_of else ""
        _SQL[key] = (
            f"SELECT {game_cols}, {seat_cols}, {user_cols} "
            f"FROM {_q(Game._meta.db_table)} g "
            f"LEFT JOIN {_q(Seat._meta.db_table)} s ON s.{_q('game_id')} = g.{_q('id')} "
            f"LEFT JOIN {_q(User._meta.db_table)} u ON u.{_q('id')} = s.{_q('user_id')} "
            f"WHERE g.{_q('id')} = %s ORDER BY s.{_q('index')}{lock}"
        )
    return _SQL[key]


def _insert_sql():
    key = ("insert", connection.vendor)
    if key not in _SQL:
        cols = ", ".join(_q(Move._meta.get_field(f).column)
                         for f in ("game", "ply", "seat", "move", "by_bot", "created_at"))
        _SQL[key] = f"INSERT INTO {_q(Move._meta.db_table)} ({cols}) VALUES (%s, %s, %s, %s, %s, %s)"
    return _SQL[key]


def _update_sql(fields):
    key = ("update", connection.vendor, fields)
    if key not in _SQL:
        sets = ", ".join(f"{_q(Game._meta.get_field(f).column)} = %s" for f in fields)
        _SQL[key] = f"UPDATE {_q(Game._meta.db_table)} SET {sets} WHERE {_q('id')} = %s"
    return _SQL[key]


def _instance(model, fields, values):
    converted = [_python_value(field, value) for field, value in zip(fields, values, strict=True)]
    return model.from_db(connection.alias, [f.attname for f in fields], converted)


def _python_value(field, value):
    """A column's value as the ORM would give it (the drivers return JSON as text, and
    SQLite returns naive UTC datetimes)."""
    if value is None:
        return None
    if isinstance(field, models.JSONField):
        return json.loads(value) if isinstance(value, (str, bytes)) else value
    if isinstance(field, models.DateTimeField) and timezone.is_naive(value):
        return value.replace(tzinfo=UTC)
    if isinstance(field, models.BooleanField):
        return bool(value)
    return value


def _db_value(field, value):
    if value is None:
        return None
    if isinstance(field, models.JSONField):
        return connection.ops.adapt_json_value(value, field.encoder)
    if isinstance(field, models.DateTimeField):
        return connection.ops.adapt_datetimefield_value(value)
    return value
