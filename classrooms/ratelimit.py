"""Limits on guessing and on making accounts, counted in the cache
(``gerrymander_site.ratelimit``).

A whole class shares one school address, so nothing here may let a few typos, or a
stranger at the same address, lock the real users out:

* Join codes: wrong codes are counted per device (a signed cookie); a request without a
  valid device cookie (a script) is also counted per address, with a much higher ceiling.
* Passwords (why not django-axes: its lockouts are keyed by username, address and user
  agent, so behind one school address a stranger can still lock a teacher out; device
  cookies cannot be expressed there): a browser the user has signed in with before carries
  a signed device cookie for that user, and its failures are counted for that device alone.
  Any other request is counted per username and address.  So failures from elsewhere never
  lock the real user out of their own device, and failures at one address never lock them
  out at another.
* New accounts: teacher sign-ups per address; student accounts made with a join code per
  device and, with a ceiling a whole class fits under, per address.
"""

import secrets

from django.core import signing

from gerrymander_site.ratelimit import client_ip, is_blocked, record, reset

JOIN_MAX_FAILURES = 10  # per device
JOIN_IP_MAX_FAILURES = 100  # per address, for requests without a device cookie
JOIN_WINDOW_S = 10 * 60
DEVICE_COOKIE = "join_device"
DEVICE_SALT = "classrooms.ratelimit.device"
DEVICE_MAX_AGE_S = 365 * 24 * 3600

LOGIN_MAX_FAILURES = 5  # per username and address (a browser not known for that user)
LOGIN_DEVICE_MAX_FAILURES = 10  # per username and known device
LOGIN_WINDOW_S = 15 * 60
LOGIN_DEVICE_COOKIE = "login_device"
LOGIN_DEVICE_SALT = "classrooms.ratelimit.login-device"

SIGNUPS_PER_ADDRESS = 5  # teacher sign-ups per address per hour
JOIN_ACCOUNTS_PER_DEVICE = 3  # student accounts made by code, per device per hour
JOIN_ACCOUNTS_PER_ADDRESS = 60  # ... per address per hour (a class of 30, twice)
ACCOUNTS_WINDOW_S = 60 * 60


def device_id(request):
    """This browser's id for the join limits: from the signed cookie, else a new one (the view
    sets it with ``device_cookie_set``).  A forged or missing cookie just means a new device,
    which the per-address ceiling still counts."""
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


def _known_device(request):
    """True when the request carries a device cookie that a join made before (not one the
    view just minted)."""
    device_id(request)
    return not request._join_device_new


def join_blocked(request):
    if is_blocked("join-device", device_id(request), limit=JOIN_MAX_FAILURES):
        return True
    return not _known_device(request) and is_blocked("join-ip", client_ip(request),
                                                     limit=JOIN_IP_MAX_FAILURES)


def join_failed(request):
    if not _known_device(request):
        record("join-ip", client_ip(request), window=JOIN_WINDOW_S)
    return record("join-device", device_id(request), window=JOIN_WINDOW_S)


def join_account_allowed(request):
    return not (is_blocked("join-new-device", device_id(request), limit=JOIN_ACCOUNTS_PER_DEVICE)
                or is_blocked("join-new-ip", client_ip(request), limit=JOIN_ACCOUNTS_PER_ADDRESS))


def join_account_made(request):
    record("join-new-device", device_id(request), window=ACCOUNTS_WINDOW_S)
    record("join-new-ip", client_ip(request), window=ACCOUNTS_WINDOW_S)


def signup_allowed(request):
    return not is_blocked("signup-ip", client_ip(request), limit=SIGNUPS_PER_ADDRESS)


def signup_made(request):
    record("signup-ip", client_ip(request), window=ACCOUNTS_WINDOW_S)


# --- passwords ----------------------------------------------------------------------------

def _username(username):
    return (username or "").strip().lower()


def login_device(request, username):
    """The device id of a browser that signed in as ``username`` before, or None."""
    raw = request.COOKIES.get(LOGIN_DEVICE_COOKIE)
    if not raw:
        return None
    try:
        value = signing.loads(raw, salt=LOGIN_DEVICE_SALT, max_age=DEVICE_MAX_AGE_S)
    except signing.BadSignature:
        return None
    if not isinstance(value, dict) or value.get("u") != _username(username):
        return None
    return value.get("d")


def _login_scope(request, username):
    device = login_device(request, username)
    if device:
        return ("login-device", _username(username), device), LOGIN_DEVICE_MAX_FAILURES
    return ("login", _username(username), client_ip(request)), LOGIN_MAX_FAILURES


def login_blocked(request, username):
    (scope, *parts), limit = _login_scope(request, username)
    return is_blocked(scope, *parts, limit=limit)


def login_failed(request, username):
    (scope, *parts), _ = _login_scope(request, username)
    return record(scope, *parts, window=LOGIN_WINDOW_S)


def login_succeeded(request, username):
    (scope, *parts), _ = _login_scope(request, username)
    reset(scope, *parts)
    request._login_device_for = _username(username)


def login_device_cookie_set(request, response):
    """After a successful sign-in: remember this browser as a device of that user."""
    username = getattr(request, "_login_device_for", None)
    if username:
        value = signing.dumps({"u": username, "d": login_device(request, username)
                               or secrets.token_urlsafe(16)}, salt=LOGIN_DEVICE_SALT)
        response.set_cookie(LOGIN_DEVICE_COOKIE, value, max_age=DEVICE_MAX_AGE_S, httponly=True,
                            samesite="Lax", secure=request.is_secure())
    return response
