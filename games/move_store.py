"""The move service's reads and writes, in hand-written SQL: the hot path of live play.

Every move of every table runs these inside ``move_submit``'s transaction.  The ORM spent
more time building and compiling its queries than PostgreSQL spent answering them: the same
lock, read and update took 2.6-2.8 ms (1.6-2.2 ms of CPU) through querysets and 1.4-1.8 ms
(0.5-0.6 ms of CPU) as SQL.  Rows become ordinary model instances (all fields loaded,
values converted as the ORM would), so the rest of the code cannot tell the difference; a
test compares them with the ORM's on both databases.
"""

import json
from datetime import UTC

from django.contrib.auth import get_user_model
from django.core.exceptions import FieldDoesNotExist
from django.db import DatabaseError, connection, models
from django.db.transaction import TransactionManagementError
from django.utils import timezone

from games.models import Game, Move, Seat


def game_lock_with_seats(game_id):
    """Lock game ``game_id`` for this transaction and read it, then its seats (each with its
    player's name fields).  ``(None, [])`` when there is no such game.

    Two statements on purpose: a statement that waited for the lock sees, on PostgreSQL,
    the locked row as it is now but other tables as they were when it started - a seat a
    teacher changed meanwhile would still look like it used to.  The seats' statement starts
    after the lock is held, so it sees every change committed before.
    """
    if not connection.in_atomic_block:
        raise TransactionManagementError("game_lock_with_seats needs a transaction.")
    with connection.cursor() as cursor:
        cursor.execute(_sql("lock"), [game_id])
        row = cursor.fetchone()
        if row is None:
            return None, []
        cursor.execute(_sql("seats"), [game_id])
        rows = cursor.fetchall()
    game = _instance(Game, Game._meta.concrete_fields, row)
    seat_fields, user_fields = Seat._meta.concrete_fields, _user_fields()
    seats = []
    for values in rows:
        seat = _instance(Seat, seat_fields, values[:len(seat_fields)])
        seat.game = game
        seat.user = (User.from_db(connection.alias, [f.attname for f in user_fields],
                                  values[len(seat_fields):])
                     if seat.user_id is not None else None)
        seats.append(seat)
    return game, seats


def move_append(*, game, ply, seat, move, by_bot, log, fields):
    """Append move ``ply`` (with its game-log lines ``log``) to the log and save ``fields`` of
    ``game`` (as ``save(update_fields=fields)`` would).  A second writer of the same ply hits
    the unique constraint (``IntegrityError``)."""
    ops = connection.ops
    with connection.cursor() as cursor:
        cursor.execute(_sql("insert"), [
            game.pk, ply, seat, ops.adapt_json_value(move, None), by_bot,
            ops.adapt_datetimefield_value(timezone.now()), ops.adapt_json_value(log, None),
        ])
        values = [_db_value(Game._meta.get_field(name), getattr(game, name)) for name in fields]
        cursor.execute(_update_sql(tuple(fields)), [*values, game.pk])
        if cursor.rowcount != 1:
            raise DatabaseError(f"game {game.pk} was not saved ({cursor.rowcount} rows).")


User = get_user_model()
_SQL = {}


def _user_fields():
    """What seats show of a player: the key, the username and, where the user model has
    them, the names ``get_full_name`` reads; and what a socket's session check needs (the
    password hash its session was signed with, and whether the account is active)."""
    meta = User._meta
    names = [meta.pk.name, User.USERNAME_FIELD, "first_name", "last_name", "password",
             "is_active"]
    fields = []
    for name in names:
        try:
            field = meta.get_field(name)
        except FieldDoesNotExist:
            continue
        if field.concrete and field not in fields:
            fields.append(field)
    # Model.from_db reads a partial row in the model's own field order
    order = {f: i for i, f in enumerate(meta.concrete_fields)}
    return sorted(fields, key=order.__getitem__)


def _q(name):
    return connection.ops.quote_name(name)


def _col(model, name):
    return _q(model._meta.get_field(name).column)


def _sql(name):
    key = (name, connection.vendor)
    if key not in _SQL:
        _SQL[key] = _build_sql(name)
    return _SQL[key]


def _build_sql(name):
    game_table, seat_table = _q(Game._meta.db_table), _q(Seat._meta.db_table)
    if name == "lock":
        cols = ", ".join(_q(f.column) for f in Game._meta.concrete_fields)
        # SQLite has no row locks: its IMMEDIATE transactions serialise writers instead.
        lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
        return f"SELECT {cols} FROM {game_table} WHERE {_col(Game, 'id')} = %s{lock}"
    if name == "seats":
        seat_cols = ", ".join(f"s.{_q(f.column)}" for f in Seat._meta.concrete_fields)
        user_cols = ", ".join(f"u.{_q(f.column)}" for f in _user_fields())
        return (
            f"SELECT {seat_cols}, {user_cols} FROM {seat_table} s "
            f"LEFT JOIN {_q(User._meta.db_table)} u ON u.{_q(User._meta.pk.column)} = s.{_col(Seat, 'user')} "
            f"WHERE s.{_col(Seat, 'game')} = %s ORDER BY s.{_col(Seat, 'index')}"
        )
    if name == "insert":
        cols = ", ".join(_col(Move, f) for f in ("game", "ply", "seat", "move", "by_bot",
                                                 "created_at", "log"))
        return f"INSERT INTO {_q(Move._meta.db_table)} ({cols}) VALUES (%s, %s, %s, %s, %s, %s, %s)"
    raise ValueError(name)


def _update_sql(fields):
    key = ("update", connection.vendor, fields)
    if key not in _SQL:
        sets = ", ".join(f"{_col(Game, f)} = %s" for f in fields)
        _SQL[key] = f"UPDATE {_q(Game._meta.db_table)} SET {sets} WHERE {_col(Game, 'id')} = %s"
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
