"""Sessions end after idle hours (shared classroom devices)."""

import time

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.views import redirect_to_login

IDLE_LIMIT = "idle_limit_s"  # session: this session's idle limit (set at sign-in)
LAST_SEEN = "last_seen"  # session: when its user was last seen (to the minute)


class SessionIdleTimeout:
    """Sign out a session idle for longer than its limit: ``STUDENT_IDLE_S`` for students
    (whose sessions also end when the browser closes), ``TEACHER_IDLE_S`` otherwise."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if getattr(request, "user", None) is not None and request.user.is_authenticated:
            session = request.session
            now = int(time.time())
            last = session.get(LAST_SEEN)
            limit = session.get(IDLE_LIMIT, settings.TEACHER_IDLE_S)
            if last is not None and now - last > limit:
                logout(request)
                messages.info(request, "You were signed out after a long break. Sign in again.")
                return redirect_to_login(request.get_full_path())
            if last is None or now - last >= 60:  # one session write a minute at most
                session[LAST_SEEN] = now
        return self.get_response(request)
