"""Classroom sockets: a teacher's live dashboard and a user's "my games".

  /ws/assignments/<id>/   teacher of the class (or staff): {"type":"rows","rows":[...]} on
                          connect, then {"type":"row","row":{...}} after every change
  /ws/me/                 any signed-in user: {"type":"games","rows":[...]} on connect, then
                          {"type":"game","row":{...}} (a row with "removed": true drops it)
Close codes as the game socket: 4401 not signed in, 4403 not allowed, 4404 no such thing.
Clients may send {"type":"sync"} to get the full list again; anything else is ignored.
"""

import json

from channels.db import database_sync_to_async

from classrooms.live import group_for_assignment, group_for_user
from gerrymander_site.sockets import AsyncSocketConsumer


def _dumps(payload):
    return json.dumps(payload, separators=(",", ":"))


@database_sync_to_async
def _assignment_access(assignment_id, user):
    from classrooms.models import Assignment
    from classrooms.selectors import assignment_for_teacher

    if not Assignment.objects.filter(pk=assignment_id).exists():
        return 4404
    if assignment_for_teacher(user=user, assignment_id=assignment_id) is None:
        return 4403
    return None


@database_sync_to_async
def _dashboard_rows(assignment_id):
    from classrooms.models import Assignment
    from classrooms.selectors import dashboard_rows

    assignment = Assignment.objects.get(pk=assignment_id)
    return {"rows": dashboard_rows(assignment=assignment), "paused": assignment.paused}


@database_sync_to_async
def _my_rows(user):
    from classrooms.selectors import my_game_rows

    return my_game_rows(user=user)


class _Base(AsyncSocketConsumer):
    group = None

    async def disconnect(self, code):
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def _send(self, payload):
        await self.send(text_data=_dumps(payload))

    async def receive(self, text_data=None, bytes_data=None):
        try:
            frame = json.loads(text_data or "")
        except ValueError:
            frame = None
        if isinstance(frame, dict) and frame.get("type") == "sync":
            await self._send_all()
        else:
            await self._send({"type": "error", "code": "bad_frame",
                              "message": "Only {\"type\": \"sync\"} is understood here."})


class DashboardConsumer(_Base):
    async def connect(self):
        user = self.scope.get("user")
        if not getattr(user, "is_authenticated", False):
            await self.close(code=4401)
            return
        self.assignment_id = int(self.scope["url_route"]["kwargs"]["assignment_id"])
        denied = await _assignment_access(self.assignment_id, user)
        if denied:
            await self.close(code=denied)
            return
        self.group = group_for_assignment(self.assignment_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self._send_all()

    async def _send_all(self):
        data = await _dashboard_rows(self.assignment_id)
        await self._send({"type": "rows", **data})

    async def dashboard_row(self, event):
        await self._send({"type": "row", "row": event["row"]})

    async def dashboard_paused(self, event):
        await self._send({"type": "paused", "paused": event["paused"]})


class MeConsumer(_Base):
    async def connect(self):
        self.user = self.scope.get("user")
        if not getattr(self.user, "is_authenticated", False):
            await self.close(code=4401)
            return
        self.group = group_for_user(self.user.pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self._send_all()

    async def _send_all(self):
        await self._send({"type": "games", "rows": await _my_rows(self.user)})

    async def me_game(self, event):
        await self._send({"type": "game", "row": event["row"]})
