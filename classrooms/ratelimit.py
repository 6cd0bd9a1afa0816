"""Small fixed-window failure counters in the Django cache (Redis in production).

Used against guessing join codes (per IP) and passwords (per username + IP: a whole class
shares one school IP, so a per-IP login limit alone would lock everyone out).
"""

import hashlib

from django.core.cache import cache

JOIN_MAX_FAILURES = 10
JOIN_WINDOW_S = 10 * 60
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


def join_blocked(request):
    return is_blocked("join", client_ip(request), limit=JOIN_MAX_FAILURES)


def join_failed(request):
    return record_failure("join", client_ip(request), window=JOIN_WINDOW_S)


def login_blocked(request, username):
    return is_blocked("login", (username or "").strip().lower(), client_ip(request),
                      limit=LOGIN_MAX_FAILURES)


def login_failed(request, username):
    return record_failure("login", (username or "").strip().lower(), client_ip(request),
                          window=LOGIN_WINDOW_S)


def login_succeeded(request, username):
    reset("login", (username or "").strip().lower(), client_ip(request))
