"""Classroom sockets: a teacher's live dashboard and a user's "my games".

  /ws/assignments/<id>/   teacher of the class (or staff): {"type":"rows","rows":[...],
                          "paused", "room"} on connect, then {"type":"row","row":{...}} after
                          every change, and {"type":"room","room":{...}} (who is seated,
                          online, idle; stalled tables: ``selectors.dashboard_room``) every
                          ROOM_EVERY_S seconds, when a student comes or goes, and on
                          {"type":"room"}
  /ws/me/                 any signed-in user: {"type":"games","rows":[...]} on connect, then
                          {"type":"game","row":{...}} (a row with "removed": true drops it)
Close codes as the game socket: 4401 not signed in, 4404 no such assignment (or not one of
this teacher's: the same answer, so ids cannot be probed).  Clients may send
{"type":"sync"} to get the full list again; any other frame gets an error frame.
"""

import asyncio
import logging

from classrooms.live import group_for_assignment, group_for_user
from games.consumers import FrameError, parse_frame
from gerrymander_site import jsonsafe
from gerrymander_site.sockets import CLOSE_TOO_MUCH, AsyncSocketConsumer, db_call


@db_call
def _teaches(assignment_id, user):
    from classrooms.selectors import assignment_for_teacher

    return assignment_for_teacher(user=user, assignment_id=assignment_id) is not None


logger = logging.getLogger(__name__)

ROOM_EVERY_S = 5.0  # presence and stalled tables change with time, not with events


@db_call
def _dashboard_rows(assignment_id):
    from classrooms.models import Assignment
    from classrooms.selectors import dashboard_room, dashboard_rows

    assignment = Assignment.objects.get(pk=assignment_id)
    return {"rows": dashboard_rows(assignment=assignment), "paused": assignment.paused,
            "room": dashboard_room(assignment=assignment)}


@db_call
def _room(assignment_id):
    """The room, after closing any assignment whose due time has passed (the embedded shape
    has no Celery beat: an open dashboard is what notices the due time there)."""
    from classrooms.models import Assignment
    from classrooms.selectors import dashboard_room
    from classrooms.services import assignments_close_due

    assignments_close_due()
    assignment = Assignment.objects.filter(pk=assignment_id).first()
    return None if assignment is None else dashboard_room(assignment=assignment)


@db_call
def _close_due():
    from classrooms.services import assignments_close_due

    return assignments_close_due()


@db_call
def _my_rows(user):
    from classrooms.selectors import my_game_rows

    return my_game_rows(user=user)


def _is_room_request(text):
    """``{"type": "room"}`` (the dashboard asks for the room after a seat action)."""
    if not text or len(text) > 200:
        return False
    try:
        frame = jsonsafe.loads(text)
    except ValueError:
        return False
    return isinstance(frame, dict) and frame.get("type") == "room"


class _Base(AsyncSocketConsumer):
    async def receive(self, text_data=None, bytes_data=None):
        try:
            kind, _ = parse_frame(text_data)
        except FrameError:
            kind = None
        if kind == "sync":
            await self._send_all()
        else:
            await self.send_frame({"type": "error", "code": "bad_frame",
                                   "message": "Only {\"type\": \"sync\"} is understood here."})


class DashboardConsumer(_Base):
    ticker = None

    async def connect(self):
        user = self.scope.get("user")
        if not getattr(user, "is_authenticated", False):
            await self.refuse(4401)
            return
        self.assignment_id = int(self.scope["url_route"]["kwargs"]["assignment_id"])
        if not await _teaches(self.assignment_id, user):
            await self.refuse(4404)
            return
        if not await self.socket_slot_take(user):
            await self.refuse(CLOSE_TOO_MUCH)
            return
        await self.session_watch()
        # joined before the rows are read, so no change between the two is missed
        await self.group_join(group_for_assignment(self.assignment_id))
        await self.accept()
        await self._send_all()
        self.ticker = asyncio.ensure_future(self._tick())

    async def disconnect(self, code):
        if self.ticker is not None:
            self.ticker.cancel()
            self.ticker = None
        await super().disconnect(code)

    async def _tick(self):
        while True:
            await asyncio.sleep(ROOM_EVERY_S)
            try:
                await self._send_room()
            except asyncio.CancelledError:
                raise
            except Exception:  # a failed tick must not end the live dashboard
                logger.exception("dashboard room tick failed for assignment %s",
                                 self.assignment_id)

    async def _send_room(self):
        room = await _room(self.assignment_id)
        if room is not None:
            await self.send_frame({"type": "room", "room": room})

    async def receive(self, text_data=None, bytes_data=None):
        if _is_room_request(text_data):
            await self._send_room()
        else:
            await super().receive(text_data=text_data, bytes_data=bytes_data)

    async def _send_all(self):
        data = await _dashboard_rows(self.assignment_id)
        await self.send_frame({"type": "rows", **data})

    async def dashboard_room(self, event):
        await self._send_room()

    async def dashboard_row(self, event):
        await self.send_frame({"type": "row", "row": event["row"]})

    async def dashboard_paused(self, event):
        await self.send_frame({"type": "paused", "paused": event["paused"]})


class MeConsumer(_Base):
    async def connect(self):
        self.user = self.scope.get("user")
        if not getattr(self.user, "is_authenticated", False):
            await self.refuse(4401)
            return
        if not await self.socket_slot_take(self.user):
            await self.refuse(CLOSE_TOO_MUCH)
            return
        await self.session_watch()
        await self.group_join(group_for_user(self.user.pk))
        await self.accept()
        await _close_due()
        await self._send_all()

    async def _send_all(self):
        await self.send_frame({"type": "games", "rows": await _my_rows(self.user)})

    async def me_game(self, event):
        await self.send_frame({"type": "game", "row": event["row"]})
