"""Live pushes: per-assignment dashboard groups and per-user "my games" groups.

Fed by ``games.signals.game_changed`` (connected in ``ClassroomsConfig.ready``), which the
game services send after every committed change.  Events are JSON-safe dicts.
"""

import logging

from gerrymander_site.sockets import group_send_many

logger = logging.getLogger(__name__)

EVENT_DASHBOARD_ROW = "dashboard.row"
EVENT_MY_GAME = "me.game"


def group_for_assignment(assignment_id):
    return f"assignment-{assignment_id}"


def group_for_user(user_id):
    return f"user-{user_id}"


def _send(group, event):
    group_send_many([(group, event)])


def _table_of(game):
    """The classroom table a game is, or None.  Lobby games never are (the lobby and
    classrooms are the only places games are made), so their moves skip the query."""
    from classrooms.models import AssignmentGame

    if game.lobby:
        return None
    return AssignmentGame.objects.select_related("assignment").filter(game=game).first()


def on_game_changed(sender, game, seats, turn_kept=False, **kwargs):
    """The table's dashboard row and each seated player's "my games" row, as events for the
    games service to send after the game's own (see ``games.signals``).  A move that keeps
    the turn changes nothing a "my games" row shows, so those rows are not resent."""
    from classrooms.selectors import dashboard_row, my_game_row

    try:
        table = _table_of(game)
        events = []
        if table is not None:
            table.game = game
            events.append((group_for_assignment(table.assignment_id),
                           {"type": EVENT_DASHBOARD_ROW,
                            "row": dashboard_row(table=table, seats=seats)}))
        for seat in seats:
            if seat.user_id and not turn_kept:
                events.append((group_for_user(seat.user_id),
                               {"type": EVENT_MY_GAME,
                                "row": my_game_row(game=game, user=seat.user, seats=seats,
                                                   table=table or False)}))
        # A student just handed to a bot keeps the game in "my games" until reload; tell them.
        if table is not None and not turn_kept:
            for user_id in set((table.benched or {}).values()):
                if not any(s.user_id == user_id for s in seats):
                    events.append((group_for_user(user_id),
                                   {"type": EVENT_MY_GAME,
                                    "row": {"game_id": game.pk, "removed": True}}))
        return events
    except Exception:  # a dashboard must never break a move
        logger.exception("classrooms live update failed for game %s", game.pk)
        return []


def assignment_paused_broadcast(assignment_id, paused):
    _send(group_for_assignment(assignment_id), {"type": "dashboard.paused", "paused": bool(paused)})


EVENT_ROOM = "dashboard.room"


def room_changed_broadcast(classroom_id):
    """A student came to or left the class: its started assignments' dashboards send their
    room again (who is seated, online, ...)."""
    from classrooms.models import Assignment

    ids = Assignment.objects.filter(classroom_id=classroom_id,
                                    status=Assignment.Status.STARTED).values_list("pk", flat=True)
    try:
        group_send_many([(group_for_assignment(i), {"type": EVENT_ROOM}) for i in ids])
    except Exception:  # a dashboard must never break a join
        logger.exception("room update failed for class %s", classroom_id)
