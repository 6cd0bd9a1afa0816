"""Read-side queries for games."""

from games.models import Game


def seat_of_user(*, game, user):
    """The seat index ``user`` plays in ``game``, or None."""
    if not getattr(user, "is_authenticated", False):
        return None
    return game.seats.filter(user=user).values_list("index", flat=True).first()


def game_frame(*, game, user):
    """What a client renders for ``user``: their seat's view (or the spectator view)."""
    from games.broadcast import game_payload, latest_entry

    seats = list(game.seats.select_related("user").order_by("index"))
    seat_index = next((s.index for s in seats if s.user_id == getattr(user, "pk", None)), None)
    return game_payload(game=game, seats=seats, seat_index=seat_index, entry=latest_entry(game))


def game_meta(kind):
    """What the game page needs to know about a game beyond one frame (from its engine)."""
    from games.engine import get_rules

    rules = get_rules(kind)
    return {"kind": kind, "title": rules.title, "decided_by": dict(rules.decided_by),
            "simultaneous": rules.simultaneous, "anytime_moves": list(rules.anytime_moves)}


def game_log(*, game, seat_index, limit=300):
    """The game log as ``seat_index`` (None: a spectator) may read it, oldest first: the last
    ``limit`` moves as ``[{"ply", "seat", "lines"}]``."""
    from games.services import log_lines

    rows = list(game.moves.order_by("-ply").values("ply", "seat", "log")[:limit])
    return [{"ply": r["ply"], "seat": r["seat"], "lines": log_lines(r["log"], seat_index)}
            for r in reversed(rows)]


def games_of_user(*, user):
    """Games ``user`` sits at or created, newest first."""
    from django.db.models import Q

    return (
        Game.objects.filter(Q(seats__user=user) | Q(created_by=user))
        .distinct()
        .prefetch_related("seats__user")
    )
