"""Classroom sockets: a teacher's live dashboard and a user's "my games".

  /ws/assignments/<id>/   teacher of the class (or staff): {"type":"rows","rows":[...]} on
                          connect, then {"type":"row","row":{...}} after every change
  /ws/me/                 any signed-in user: {"type":"games","rows":[...]} on connect, then
                          {"type":"game","row":{...}} (a row with "removed": true drops it)
Close codes as the game socket: 4401 not signed in, 4404 no such assignment (or not one of
this teacher's: the same answer, so ids cannot be probed).  Clients may send
{"type":"sync"} to get the full list again; any other frame gets an error frame.
"""

from classrooms.live import group_for_assignment, group_for_user
from games.consumers import FrameError, parse_frame
from gerrymander_site.sockets import CLOSE_TOO_MUCH, AsyncSocketConsumer, db_call


@db_call
def _teaches(assignment_id, user):
    from classrooms.selectors import assignment_for_teacher

    return assignment_for_teacher(user=user, assignment_id=assignment_id) is not None


@db_call
def _dashboard_rows(assignment_id):
    from classrooms.models import Assignment
    from classrooms.selectors import dashboard_rows

    assignment = Assignment.objects.get(pk=assignment_id)
    return {"rows": dashboard_rows(assignment=assignment), "paused": assignment.paused}


@db_call
def _my_rows(user):
    from classrooms.selectors import my_game_rows

    return my_game_rows(user=user)


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

    async def _send_all(self):
        data = await _dashboard_rows(self.assignment_id)
        await self.send_frame({"type": "rows", **data})

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
        await self._send_all()

    async def _send_all(self):
        await self.send_frame({"type": "games", "rows": await _my_rows(self.user)})

    async def me_game(self, event):
        await self.send_frame({"type": "game", "row": event["row"]})
