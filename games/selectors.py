"""Read-side queries for games."""

from games.models import Game


def seat_of_user(*, game, user):
    """The seat index ``user`` plays in ``game``, or None."""
    if not getattr(user, "is_authenticated", False):
        return None
    return game.seats.filter(user=user).values_list("index", flat=True).first()


def game_frame(*, game, user):
    """What a client renders for ``user``: their seat's view (or the spectator view)."""
    from games.broadcast import game_payload

    seats = list(game.seats.select_related("user").order_by("index"))
    seat_index = next((s.index for s in seats if s.user_id == getattr(user, "pk", None)), None)
    return game_payload(game=game, seats=seats, seat_index=seat_index)


def games_of_user(*, user):
    """Games ``user`` sits at or created, newest first."""
    from django.db.models import Q

    return (
        Game.objects.filter(Q(seats__user=user) | Q(created_by=user))
        .distinct()
        .prefetch_related("seats__user")
    )


def open_games(*, exclude_user=None):
    games = Game.objects.filter(status=Game.Status.WAITING, lobby=True)
    if exclude_user is not None:
        games = games.exclude(seats__user=exclude_user)
    return games.prefetch_related("seats__user")

