"""Fixed-window counters in the Django cache (Redis in the production shape), and the client
address to count by.

The client address is REMOTE_ADDR.  Behind reverse proxies, either run daphne with
``--proxy-headers`` (it then puts the client's address from X-Forwarded-For in REMOTE_ADDR
itself), or set ``TRUSTED_PROXY_HOPS`` to the number of proxies in front of the app: the
address is then read from that many hops back in X-Forwarded-For.  Never both, and never
without a proxy that overwrites the header: a client can write X-Forwarded-For itself.
"""

import hashlib

from django.conf import settings
from django.core.cache import cache


def client_ip(request):
    hops = getattr(settings, "TRUSTED_PROXY_HOPS", 0)
    if hops > 0:
        forwarded = [p.strip() for p in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
                     if p.strip()]
        if len(forwarded) >= hops:
            return forwarded[-hops]
    return request.META.get("REMOTE_ADDR", "") or "unknown"


def key(scope, *parts):
    digest = hashlib.sha256("\x1f".join(str(p) for p in parts).encode()).hexdigest()[:32]
    return f"rl:{scope}:{digest}"


def count(scope, *parts):
    return cache.get(key(scope, *parts)) or 0


def is_blocked(scope, *parts, limit):
    return count(scope, *parts) >= limit


def record(scope, *parts, window):
    """Count one more event in ``scope`` for ``parts`` this window; returns the count."""
    k = key(scope, *parts)
    if cache.add(k, 1, timeout=window):
        return 1
    try:
        return cache.incr(k)
    except ValueError:  # expired between add and incr
        cache.add(k, 1, timeout=window)
        return 1


def reset(scope, *parts):
    cache.delete(key(scope, *parts))
