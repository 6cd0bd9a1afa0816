"""Every write to a game goes through here (the browser socket, HTTP, bots, classrooms).

``move_submit`` is the one write path for moves: in one transaction it locks the game row,
checks the expected version and the seat, asks the engine to apply the move, appends it to
the move log (with its game-log lines per viewer) and saves the snapshot.  Only after the
commit are the per-seat views broadcast, listeners told (``game_changed``) and bots
scheduled - never for a move that rolled back.
Those after-commit steps are "robust": if one fails it is logged, and the committed move
still stands and is reported as accepted.
"""

import hashlib
import json
import logging
import re
import secrets
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils import timezone

from games import bot_runner, move_store
from games.broadcast import game_events
from games.engine import IllegalMove, get_rules
from games.models import Game, Seat
from games.signals import game_changed
from gerrymander_site import ratelimit
from gerrymander_site.errors import ServiceError
from gerrymander_site.sockets import group_send_many

logger = logging.getLogger(__name__)

MAX_MOVE_BYTES = 2048


class GameError(ServiceError):
    """A request the game cannot take.  ``code`` is stable; ``message`` is for the player."""


class MoveRejected(GameError):
    code = "illegal_move"


class StaleVersion(GameError):
    code = "stale"


class SeatError(GameError):
    code = "seat"


@dataclass(frozen=True)
class SeatSpec:
    """How to fill a seat at creation: a user, a bot level, or left open (both empty)."""

    user: object = None
    bot_level: str = ""


def seats_needed(*, kind, options):
    """How many seats a game with these options has (the engine decides).  ``GameError``
    for options the engine refuses."""
    try:
        return get_rules(kind).seat_count(dict(options))
    except IllegalMove as exc:
        raise GameError(exc.message, code=exc.code) from exc


def _new_seed():
    return secrets.token_hex(16)


def bot_seed(*, game, step, seat_index):
    """A bot's randomness for one decision: fixed by the game's seed, the step and the seat
    (not by moves other seats made in the same simultaneous step)."""
    digest = hashlib.sha256(f"{game.seed}:{step}:{seat_index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


@transaction.atomic
def game_create(*, kind, options, created_by=None, seats=None, seed=None, lobby=False):
    """Create a game; ``seats`` is a list of ``SeatSpec`` (missing ones are open seats).
    ``lobby`` lists it among the lobby's open games.

    Raises ``GameError`` for options the engine refuses.
    """
    rules = get_rules(kind)
    seed = seed or _new_seed()
    try:
        state = rules.setup(dict(options), seed)
    except IllegalMove as exc:
        raise GameError(exc.message, code=exc.code) from exc
    count = rules.seat_count(dict(options))
    seats = list(seats or [])
    if len(seats) > count:
        raise GameError(f"This game has {count} seats, not {len(seats)}.", code="seats")
    seats += [SeatSpec()] * (count - len(seats))
    for spec in seats:
        _bot_level_check(spec.bot_level)
    users = [spec.user for spec in seats if spec.user is not None]
    if len({user.pk for user in users}) != len(users):
        raise GameError("A player can only take one seat in a game.", code="seats")
    if lobby and created_by is not None:
        _lobby_caps_check(user=created_by, bot_only=all(spec.bot_level for spec in seats))
    game = Game.objects.create(
        kind=kind, options=dict(options), seed=str(seed), state=state, created_by=created_by,
        lobby=lobby,
    )
    Seat.objects.bulk_create(
        Seat(game=game, index=index, user=spec.user, bot_level=spec.bot_level or "")
        for index, spec in enumerate(seats)
    )
    _game_start_if_full(game)
    transaction.on_commit(lambda: _after_commit(game.pk), robust=True)
    return game


def game_again(*, game_id, user):
    """A new solo game on the same map and deal as finished solo game ``game_id`` of
    ``user``'s ("Try this map again"): same options, same seed.  ``GameError`` otherwise."""
    game = Game.objects.filter(pk=game_id).first()
    seats = list(game.seats.all()) if game is not None else []
    if game is None or len(seats) != 1 or seats[0].user_id != user.pk:
        raise GameError("Only your own solo games can be played again.", code="not_your_game")
    if game.status != Game.Status.FINISHED:
        raise GameError("Finish this game before you try its map again.", code="not_finished")
    return game_create(kind=game.kind, options=game.options, created_by=user, lobby=True,
                       seats=[SeatSpec(user=user)], seed=game.seed)


def _lobby_caps_check(*, user, bot_only):
    """One student's lobby games must not crowd out everyone else's (bots think on shared
    workers): a few games going at once, fewer of them bots-only, and so many a day."""
    from datetime import timedelta

    from django.conf import settings
    from django.db.models import Q

    going = Game.objects.filter(created_by=user, lobby=True).filter(
        Q(status__in=[Game.Status.ACTIVE, Game.Status.PAUSED])
        | Q(status=Game.Status.WAITING, created_at__gte=timezone.now() - timedelta(days=1)))
    if going.count() >= settings.LOBBY_GAMES_MAX:
        raise GameError(f"You already have {settings.LOBBY_GAMES_MAX} games going: finish one "
                        "before you start another.", code="too_many_games")
    if bot_only and going.exclude(seats__user__isnull=False).count() \
            >= settings.BOT_ONLY_GAMES_MAX:
        raise GameError(f"You can watch {settings.BOT_ONLY_GAMES_MAX} bots-only games at a "
                        "time: wait for one to end.", code="too_many_games")
    if ratelimit.record("games-created", user.pk, window=3600) > settings.GAMES_PER_HOUR_MAX:
        raise GameError("You have started a lot of games this hour: wait a little before the "
                        "next one.", code="too_many_games")


def _bot_level_check(level):
    if level and level not in Seat.BotLevel.values:
        raise SeatError(
            f"There is no bot level {level!r}; choose one of {', '.join(Seat.BotLevel.values)}.",
            code="bot_level",
        )


def _game_start_if_full(game):
    if game.status == Game.Status.WAITING and not game.seats.filter(
        user__isnull=True, bot_level=""
    ).exists():
        game.status = Game.Status.ACTIVE
        game.save(update_fields=["status"])


@transaction.atomic
def seat_take(*, game_id, user, index=None):
    """Seat ``user`` at an open seat (the first one, or ``index``) of a waiting game."""
    game = Game.objects.select_for_update().get(pk=game_id)
    if game.seats.filter(user=user).exists():
        raise SeatError("You already have a seat at this table.")
    if game.status != Game.Status.WAITING:
        raise SeatError("This game has already started; you can watch it.")
    open_seats = game.seats.filter(user__isnull=True, bot_level="")
    if index is not None:
        open_seats = open_seats.filter(index=index)
    seat = open_seats.order_by("index").first()
    if seat is None:
        raise SeatError("That seat is taken." if index is not None else "Every seat is taken.")
    seat.user = user
    seat.save(update_fields=["user"])
    _game_start_if_full(game)
    transaction.on_commit(lambda: _after_commit(game.pk), robust=True)
    return seat


@transaction.atomic
def seat_assign(*, game_id, index, user=None, bot_level="", expect=None):
    """Hand seat ``index`` to ``user`` or to a bot of ``bot_level`` (mid-game too).

    ``expect``: ``(user_id or None, bot_level)`` the seat must still hold under the row lock,
    so two teachers' clicks cannot silently overwrite each other.
    """
    if (user is None) == (not bot_level):
        raise SeatError("A seat goes to either a player or a bot.")
    _bot_level_check(bot_level)
    game = Game.objects.select_for_update().get(pk=game_id)
    if game.status == Game.Status.FINISHED:
        raise SeatError("This game is over.")
    seat = game.seats.filter(index=index).first()
    if seat is None:
        raise SeatError("There is no such seat.")
    if expect is not None and (seat.user_id, seat.bot_level) != (expect[0], expect[1] or ""):
        raise SeatError("That seat changed meanwhile; reload and try again.", code="seat_changed")
    if user is not None and game.seats.filter(user=user).exclude(index=index).exists():
        raise SeatError("That player already has another seat at this table.")
    seat.user = user
    seat.bot_level = bot_level or ""
    seat.save(update_fields=["user", "bot_level"])
    _game_start_if_full(game)
    transaction.on_commit(lambda: _after_commit(game.pk), robust=True)
    return seat


@transaction.atomic
def game_set_paused(*, game_id, paused, message=""):
    """Pause ("eyes on me", with the teacher's ``message``) or resume a game.  Finished and
    waiting games are left alone."""
    game = Game.objects.select_for_update().get(pk=game_id)
    wanted, current = (
        (Game.Status.PAUSED, Game.Status.ACTIVE) if paused else (Game.Status.ACTIVE, Game.Status.PAUSED)
    )
    if game.status != current:
        return game
    game.status = wanted
    game.pause_message = " ".join((message or "").split())[:200] if paused else ""
    game.save(update_fields=["status", "pause_message"])
    transaction.on_commit(lambda: _after_commit(game.pk), robust=True)
    return game


def move_submit(*, game_id, seat_index, move, expected_version, user=None, auth_check=None):
    """Apply ``move`` for ``seat_index``: by ``user`` if given (must hold the seat), else a bot.

    ``expected_version`` is the version of the board the move was made on: the current one,
    or, while a simultaneous step is open (several seats to move at once), any version since
    that step began - the others' moves in between only said that they had moved.
    ``auth_check(user)`` (optional) is asked under the lock whether the mover's session still
    stands (a socket checks its session's password hash and ``is_active``).

    Returns the updated ``Game``.  Raises ``StaleVersion`` when the board changed under the
    move, ``SeatError`` when the caller does not hold the seat, ``MoveRejected`` for a move the
    engine or the game status refuses.  A rejected move changes nothing.
    """
    # The row lock orders writers on PostgreSQL and IMMEDIATE transactions do on SQLite, so the
    # unique ply only trips on a writer that bypassed both; either way the game moved on.
    try:
        with transaction.atomic():
            game, seats = move_store.game_lock_with_seats(game_id)
            if game is None:
                raise GameError("There is no such game.", code="not_found")
            seat = next((s for s in seats if s.index == seat_index), None)
            if seat is None:
                raise SeatError("There is no such seat.")
            if user is not None and seat.user_id != user.pk:
                raise SeatError("That is not your seat.", code="not_your_seat")
            if user is None and not seat.is_bot:
                raise SeatError("That seat is not played by a bot.", code="not_your_seat")
            if auth_check is not None and not auth_check(seat.user):
                raise SeatError("You have been signed out; sign in again to play.",
                                code="signed_out")
            if game.status != Game.Status.ACTIVE:
                raise MoveRejected(_STATUS_MESSAGES[game.status], code=f"game_{game.status}")
            if len(json.dumps(move)) > MAX_MOVE_BYTES:
                raise MoveRejected("That move is far too large to be a real move.", code="bad_move")
            if not game.step_version <= expected_version <= game.version:
                raise StaleVersion("The game moved on before your move arrived; here is the board now.")
            rules = get_rules(game.kind)
            before = game.state
            to_move_before = rules.to_move(before)
            try:
                state = rules.apply(before, seat_index, move)
            except IllegalMove as exc:
                raise MoveRejected(exc.message, code=exc.code) from exc
            ply, now = game.version, timezone.now()
            to_move_after = rules.to_move(state)
            game.state = state
            game.version += 1
            game.last_move_at = now
            fields = ["state", "version", "last_move_at"]
            new_step = not _step_continues(rules, seat_index, to_move_before, to_move_after)
            if new_step:
                game.step_version = game.version
                fields.append("step_version")
            if rules.is_over(state):
                game.status = Game.Status.FINISHED
                game.result = rules.result(state)
                game.finished_at = now
                fields += ["status", "result", "finished_at"]
            log = move_log(rules=rules, seats=seats, before=before, move=move, after=state,
                           seat_index=seat_index)
            move_store.move_append(game=game, ply=ply, seat=seat_index, move=move,
                                   by_bot=user is None, log=log, fields=fields)
            turn_kept = game.status == Game.Status.ACTIVE and to_move_after == to_move_before
            entry = {"ply": ply, "seat": seat_index, "log": log}
            transaction.on_commit(
                lambda: _after_commit(game.pk, game=game, seats=seats, turn_kept=turn_kept,
                                      entry=entry, bots=new_step),
                robust=True,
            )
    except IntegrityError:
        raise StaleVersion("The game moved on before your move arrived; here is the board now.") from None
    return game


def _step_continues(rules, seat_index, before, after):
    """A simultaneous step goes on while the seats it waits for only drop the one that moved:
    their boards are unchanged but for "that seat has moved"."""
    return (rules.simultaneous and len(before) > 1 and seat_index in before
            and set(after) == set(before) - {seat_index})


def move_log(*, rules, seats, before, move, after, seat_index):
    """The game-log lines of one move for every viewer (each seat, and "s" for spectators),
    with the players' names filled in; ``{"*": lines}`` when every viewer reads the same."""
    names = {seat.index: seat.display_name for seat in seats}
    viewers = [seat.index for seat in seats] + [None]
    out = {}
    for viewer in viewers:
        lines = rules.describe(before, move, after, seat_index, viewer)
        out["s" if viewer is None else str(viewer)] = [_fill_names(line, names) for line in lines]
    first = next(iter(out.values()))
    if all(lines == first for lines in out.values()):
        return {"*": first}
    return out


_SEAT_REF = re.compile(r"\{seat:(\d+)\}")


def _fill_names(line, names):
    return _SEAT_REF.sub(lambda m: names.get(int(m.group(1)), f"Player {int(m.group(1)) + 1}"),
                         line)


def log_lines(log, viewer):
    """The lines of a stored move log that ``viewer`` (a seat index or None) may read."""
    if "*" in log:
        return log["*"]
    return log.get("s" if viewer is None else str(viewer), [])


_STATUS_MESSAGES = {
    Game.Status.WAITING: "The game has not started yet: it is waiting for players.",
    Game.Status.PAUSED: "Your teacher has paused the game. Eyes on the teacher!",
    Game.Status.FINISHED: "This game is over.",
}


def _after_commit(game_id, *, game=None, seats=None, turn_kept=False, entry=None, bots=True):
    """Broadcast fresh views, tell listeners, schedule bots: only for committed changes.

    ``move_submit`` passes the game and seats it saved under the row lock, the move's log
    ``entry``, and ``bots=False`` when a simultaneous step goes on (its bots are already
    scheduled, once each); other services let this re-read the game.
    """
    if game is None:
        game = Game.objects.get(pk=game_id)
        seats = list(game.seats.select_related("user").order_by("index"))
    # The players' views leave first (that is what a player waits for), then the dashboards.
    for name, events in (("views", lambda: game_events(game=game, seats=seats, entry=entry)),
                         ("listeners", lambda: _listener_events(game, seats, turn_kept))):
        try:
            group_send_many(events())
        except Exception:  # a dead channel layer must not stall a bot
            logger.exception("broadcast of %s failed for game %s", name, game.pk)
    if bots:
        bot_runner.bot_turns_schedule(game=game, seats=seats)
    if game.status == Game.Status.FINISHED and entry is not None:  # the move that ended it
        from games.lessons import lesson_ensure

        try:
            lesson_ensure(game=game)
        except Exception:  # the page asks again; the move stands
            logger.exception("lesson of game %s failed", game.pk)


def _listener_events(game, seats, turn_kept):
    events = []
    for receiver, result in game_changed.send_robust(
        sender=Game, game=game, seats=seats, turn_kept=turn_kept
    ):
        if isinstance(result, Exception):
            logger.error("game_changed receiver %r failed for game %s", receiver, game.pk,
                         exc_info=result)
        elif result:
            events.extend(result)
    return events


def game_bots_resume_stalled(*, game_ids=None, idle_s=None):
    """Re-schedule bot turns that nobody is playing: games waiting for a bot whose last move
    (or start) is older than ``idle_s``.  Scheduled bot moves live in a worker's or the web
    process's memory; after a restart this picks them up again.  Safe to call any time:
    bot tasks are idempotent.  Returns the ids of the games resumed."""
    from datetime import timedelta

    from django.conf import settings
    from django.db.models import Q

    idle_s = settings.BOT_STALL_S if idle_s is None else idle_s
    cutoff = timezone.now() - timedelta(seconds=idle_s)
    games = Game.objects.filter(status=Game.Status.ACTIVE, seats__bot_level__gt="").filter(
        Q(last_move_at__lt=cutoff) | Q(last_move_at__isnull=True, created_at__lt=cutoff)
    ).distinct().prefetch_related("seats")
    if game_ids is not None:
        games = games.filter(pk__in=game_ids)
    return [game.pk for game in games
            if bot_runner.bot_turns_schedule(game=game, seats=list(game.seats.all()))]


def bot_move_play(*, game_id, step, seat_index):
    """Play one bot move if the game's current step (begun at version ``step``) still waits
    for this bot (idempotent).

    Called by the Celery task and by the in-process runner alike.  Returns what happened:
    "moved", or why nothing was done.
    """
    from django.conf import settings

    from games.bots import get_bot

    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.status != Game.Status.ACTIVE or game.step_version != step:
        return "stale"
    seat = game.seats.filter(index=seat_index).first()
    rules = get_rules(game.kind)
    if seat is None or not seat.is_bot or seat_index not in rules.to_move(game.state):
        return "not_bot_turn"
    bot = get_bot(game.kind, seat.bot_level)
    # The bot gets its seat's view only: it cannot use what its seat cannot see.
    move = bot.choose(
        rules.view(game.state, seat_index), seat_index,
        seed=bot_seed(game=game, step=step, seat_index=seat_index),
        budget_s=settings.BOT_BUDGET_S,
    )
    try:
        move_submit(game_id=game_id, seat_index=seat_index, move=move,
                    expected_version=game.version)
    except StaleVersion:
        return "stale"
    except (MoveRejected, SeatError) as exc:
        if exc.code in {"game_paused", "game_finished", "not_your_seat"}:
            return "stale"
        raise
    return "moved"
