"""Who hears about a game, and what they hear.

Every socket watching game N joins one group: ``game-N-seat-I`` for the player in seat I,
``game-N-spectators`` for everyone else.  After a move commits, the move service sends each
group the view the engine computed for it, so a socket only ever receives what its seat may
see.  Events are plain JSON-safe dicts (channels_redis serialises them with msgpack); a
state event carries its frame already encoded as JSON text, so neither the layer nor the
consumers re-encode a whole view per socket.
"""

from games.engine import get_rules
from gerrymander_site.sockets import frame_dumps

EVENT_STATE = "game.state"


def group_for_seat(game_id, seat_index):
    return f"game-{game_id}-seat-{seat_index}"


def group_for_spectators(game_id):
    return f"game-{game_id}-spectators"


def group_for(game_id, seat_index):
    if seat_index is None:
        return group_for_spectators(game_id)
    return group_for_seat(game_id, seat_index)


def game_payload(*, game, seats, seat_index, entry=None):
    """The frame a client renders: the engine view for ``seat_index`` plus table metadata."""
    return game_payloads(game=game, seats=seats, seat_indexes=[seat_index], entry=entry)[0]


def game_payloads(*, game, seats, seat_indexes, entry=None):
    """``game_payload`` for several seats at once; the parts they all see are shared objects
    (built once: see ``Rules.views``).

    ``summary`` holds every seat's public figures (``rules.summary``); ``log`` the game-log
    lines of the latest move (``entry``: ``{"ply", "seat", "log"}`` as stored) that this
    viewer may read, or None before the first move.
    """
    from games.services import log_lines

    table = [
        {
            "index": seat.index,
            "user_id": seat.user_id,
            "name": seat.display_name,
            "is_bot": seat.is_bot,
            "bot_level": seat.bot_level or None,
            "open": seat.is_empty,
        }
        for seat in seats
    ]
    rules = get_rules(game.kind)
    views = rules.views(game.state, seat_indexes)
    summary = [rules.summary(game.state, seat.index) for seat in seats]
    return [
        {"id": game.pk, "kind": game.kind, "status": game.status, "version": game.version,
         "pause_message": game.pause_message,
         "seat": seat_index, "seats": table, "view": view, "summary": summary,
         "log": None if entry is None else {
             "ply": entry["ply"], "seat": entry["seat"],
             "lines": log_lines(entry["log"], seat_index)}}
        for seat_index, view in zip(seat_indexes, views, strict=True)
    ]


def latest_entry(game):
    """The stored log entry of the game's latest move (``{"ply", "seat", "log"}``), or None."""
    from games.models import Move

    return (Move.objects.filter(game_id=game.pk, ply=game.version - 1)
            .values("ply", "seat", "log").first()) if game.version else None


def state_frame(payload):
    """The JSON text of a state frame as clients receive it."""
    return frame_dumps({"type": "state", "game": payload})


class _SharedJSON:
    """Encodes several frames that share objects, each shared object only once.

    ``encode(obj, depth)`` gives the same text as ``frame_dumps(obj)``; below ``depth``
    levels of dicts, a value is looked up by identity before it is encoded.  Only for
    objects that stay alive (and unchanged) while this encoder is used.
    """

    def __init__(self):
        self._texts = {}

    def encode(self, obj, depth):
        if depth and isinstance(obj, dict) and all(isinstance(key, str) for key in obj):
            return "{" + ",".join(f"{frame_dumps(key)}:{self.encode(value, depth - 1)}"
                                  for key, value in obj.items()) + "}"
        text = self._texts.get(id(obj))
        if text is None:
            text = self._texts[id(obj)] = frame_dumps(obj)
        return text


def state_frames(payloads):
    """``[state_frame(p) for p in payloads]``, encoding what the payloads share only once."""
    shared = _SharedJSON()
    # frame -> "game" payload -> "view" -> the view's values, shared between seats
    return [shared.encode({"type": "state", "game": payload}, 3) for payload in payloads]


def game_events(*, game, seats, entry=None):
    """One event per seat group and one for the spectators, each with that group's view
    (and the latest move's log ``entry``, when a move is what changed).

    ``user_ids`` (indexed by seat) lets a socket notice that its user's seat changed;
    ``version`` lets it drop a frame that a newer one overtook.
    """
    if entry is None and game.version:
        entry = latest_entry(game)
    user_ids = [seat.user_id for seat in seats]
    seat_indexes = [seat.index for seat in seats] + [None]
    frames = state_frames(game_payloads(game=game, seats=seats, seat_indexes=seat_indexes,
                                        entry=entry))
    return [
        (group_for(game.pk, seat_index),
         {"type": EVENT_STATE, "frame": frame, "version": game.version, "user_ids": user_ids})
        for seat_index, frame in zip(seat_indexes, frames, strict=True)
    ]
