"""Small fixed-window failure counters in the Django cache (Redis in production).

Used against guessing join codes and passwords.  A whole class shares one school IP, so a
per-IP limit alone would let ten typos lock everyone out: join codes are limited per device
(a signed cookie) with a much higher per-IP ceiling (a script that drops the cookie), and
passwords per username + IP.
"""

import hashlib
import secrets

from django.core.cache import cache

JOIN_MAX_FAILURES = 10  # per device
JOIN_IP_MAX_FAILURES = 100  # per IP: a classroom of devices, or a cookie-less script
JOIN_WINDOW_S = 10 * 60
DEVICE_COOKIE = "join_device"
DEVICE_SALT = "classrooms.ratelimit.device"
DEVICE_MAX_AGE_S = 365 * 24 * 3600
LOGIN_MAX_FAILURES = 5
LOGIN_WINDOW_S = 15 * 60


def client_ip(request):
    # REMOTE_ADDR only: X-Forwarded-For is client-controlled unless a trusted proxy rewrites it.
    return request.META.get("REMOTE_ADDR", "") or "unknown"


def _key(scope, *parts):
    digest = hashlib.sha256("\x1f".join(str(p) for p in parts).encode()).hexdigest()[:32]
    return f"rl:{scope}:{digest}"


def is_blocked(scope, *parts, limit):
    return (cache.get(_key(scope, *parts)) or 0) >= limit


def record_failure(scope, *parts, window):
    key = _key(scope, *parts)
    if cache.add(key, 1, timeout=window):
        return 1
    try:
        return cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.add(key, 1, timeout=window)
        return 1


def reset(scope, *parts):
    cache.delete(_key(scope, *parts))


def device_id(request):
    """This browser's id for the join limit: from the signed cookie, else a new one (the view
    sets it with ``device_cookie_set``).  A forged or missing cookie just means a new device,
    which the per-IP ceiling still counts."""
    cached = getattr(request, "_join_device", None)
    if cached:
        return cached
    device = request.get_signed_cookie(DEVICE_COOKIE, default=None, salt=DEVICE_SALT,
                                       max_age=DEVICE_MAX_AGE_S)
    request._join_device_new = device is None
    request._join_device = device or secrets.token_urlsafe(16)
    return request._join_device


def device_cookie_set(request, response):
    if getattr(request, "_join_device_new", False):
        response.set_signed_cookie(DEVICE_COOKIE, request._join_device, salt=DEVICE_SALT,
                                   max_age=DEVICE_MAX_AGE_S, httponly=True, samesite="Lax",
                                   secure=request.is_secure())
    return response


def join_blocked(request):
    return (is_blocked("join-device", device_id(request), limit=JOIN_MAX_FAILURES)
            or is_blocked("join-ip", client_ip(request), limit=JOIN_IP_MAX_FAILURES))


def join_failed(request):
    record_failure("join-ip", client_ip(request), window=JOIN_WINDOW_S)
    return record_failure("join-device", device_id(request), window=JOIN_WINDOW_S)


def login_blocked(request, username):
    return is_blocked("login", (username or "").strip().lower(), client_ip(request),
                      limit=LOGIN_MAX_FAILURES)


def login_failed(request, username):
    return record_failure("login", (username or "").strip().lower(), client_ip(request),
                          window=LOGIN_WINDOW_S)


def login_succeeded(request, username):
    reset("login", (username or "").strip().lower(), client_ip(request))
