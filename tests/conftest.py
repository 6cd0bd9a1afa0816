"""Shared fixtures: service requirements, channel layers, a live ASGI server, Playwright.

A test marked ``postgres``, ``redis`` or ``browser`` skips when that service or Chromium is
missing on a developer's laptop, and FAILS under ``CI=true`` (CI must provide them).
"""

import json
import os
import socket
import subprocess
import sys
import time
import uuid
from collections import deque
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
]


async def ws_open(comm, timeout=5):
    """Connect a WebsocketCommunicator as a browser would see it: ``(True, first frame)`` when
    let in, ``(False, close code)`` when refused (refusals accept, then close with a code a
    browser can read; ``None`` for a refusal before the handshake, e.g. a foreign origin)."""
    import json

    connected, _ = await comm.connect(timeout)
    if not connected:
        return False, None
    output = await comm.receive_output(timeout)
    if output["type"] == "websocket.close":
        return False, output.get("code")
    return True, json.loads(output["text"])


def require(ok, message):
    """Skip on a laptop, fail in CI."""
    if ok:
        return
    if CI:
        pytest.fail(f"CI must provide this: {message}", pytrace=False)
    pytest.skip(message)


def redis_url():
    return os.environ.get("REDIS_URL", "")


def redis_ok():
    url = redis_url()
    if not url:
        return False
    import redis

    try:
        return bool(redis.Redis.from_url(url, socket_connect_timeout=1).ping())
    except redis.RedisError:
        return False


def pytest_runtest_setup(item):
    if item.get_closest_marker("postgres"):
        from django.conf import settings

        require(
            settings.DATABASES["default"]["ENGINE"].endswith("postgresql"),
            "needs PostgreSQL: set DATABASE_URL=postgres://...",
        )
    if item.get_closest_marker("redis"):
        require(redis_ok(), "needs Redis: set REDIS_URL=redis://... to a running server")
    if item.get_closest_marker("browser"):
        require(Path(CHROMIUM).exists(), f"needs Chromium at {CHROMIUM} (apt-get install chromium)")


def _reset_layers():
    from channels.layers import channel_layers

    channel_layers.backends = {}


@pytest.fixture
def inmemory_layer(settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    _reset_layers()
    yield "inmemory"
    _reset_layers()


def _use_redis_layer(settings, backend):
    require(redis_ok(), "needs Redis: set REDIS_URL=redis://... to a running server")
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": backend,
            "CONFIG": {"hosts": [redis_url()], "prefix": f"test-{uuid.uuid4().hex[:8]}"},
        }
    }
    _reset_layers()


@pytest.fixture
def redis_layer(settings):
    """The production default: Redis pub/sub."""
    _use_redis_layer(settings, "gerrymander_site.layers.PubSubChannelLayer")
    yield "redis"
    _reset_layers()


@pytest.fixture
def redis_core_layer(settings):
    """The other Redis layer a deployment may choose (CHANNEL_LAYER_BACKEND)."""
    _use_redis_layer(settings, "channels_redis.core.RedisChannelLayer")
    yield "redis_core"
    _reset_layers()


@pytest.fixture(autouse=True)
def fresh_cache():
    """Rate-limit counters and lockouts live in the cache: each test starts without the last
    test's (SQLite hands the same user ids out again, so they would count against them)."""
    from django.core.cache import caches

    for cache in caches.all():
        cache.clear()


@pytest.fixture(autouse=True)
def bots_off_unless_asked(settings):
    """Bots play only in tests that ask for them (bots_now, or their own settings): a bot
    thread left running would write to the database during later tests."""
    settings.BOT_RUNNER = "off"
    settings.LESSON_RUNNER = "off"  # a test that wants the ensemble asks for it


@pytest.fixture(params=["inmemory", pytest.param("redis", marks=pytest.mark.redis),
                        pytest.param("redis_core", marks=pytest.mark.redis)])
def any_layer(request):
    """Run a socket test on every channel layer: the embedded shape's, the production
    default (Redis pub/sub) and channels_redis.core."""
    return request.getfixturevalue(f"{request.param}_layer")


@pytest.fixture
def bots_now(settings):
    """In-process bots without the human pacing delay."""
    settings.BOT_RUNNER = "inprocess"
    settings.BOT_MOVE_DELAY_S = 0
    settings.BOT_BUDGET_S = 0.2


# --- A live ASGI server: a real daphne process on the test database ----------------------


def _flush_retrying_deadlocks(flush):
    """The live server may still be saving what a finished game started (the lesson's random
    maps, a bot's move) when a test's database is flushed. PostgreSQL then breaks the lock
    cycle by failing one side; when that is the flush, the flush (one transaction) is retried,
    so the next test never starts on the last one's rows."""
    from django.core.management.base import CommandError

    def _fixture_teardown(self):
        attempts = 10
        for attempt in range(1, attempts + 1):
            try:
                return flush(self)
            except CommandError as error:
                sqlstate = getattr(getattr(error.__cause__, "__cause__", None), "sqlstate", None)
                if sqlstate != "40P01" or attempt == attempts:  # 40P01: deadlock_detected
                    raise
                time.sleep(0.2 * attempt)

    return _fixture_teardown


@pytest.fixture(scope="session", autouse=True)
def flush_retries_deadlocks():
    from django.test import TransactionTestCase

    flush = TransactionTestCase._fixture_teardown
    TransactionTestCase._fixture_teardown = _flush_retrying_deadlocks(flush)
    yield
    TransactionTestCase._fixture_teardown = flush


def _free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _database_url(settings_dict):
    name = settings_dict["NAME"]
    if settings_dict["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{name}"
    user = settings_dict.get("USER") or ""
    password = settings_dict.get("PASSWORD") or ""
    auth = f"{user}:{password}@" if password else (f"{user}@" if user else "")
    host = settings_dict.get("HOST") or "127.0.0.1"
    port = settings_dict.get("PORT") or 5432
    return f"postgres://{auth}{host}:{port}/{name}"


def live_server_start(*, extra_env=None, log_name="liveserver", port=None):
    """Start daphne (on ``port`` or a free one) against the current test database; return
    (url, proc)."""
    from django.conf import settings
    from django.db import connection

    port = port or _free_port()
    log_path = ROOT / f"{log_name}-{port}.log"
    env = {
        **os.environ,
        "DATABASE_URL": _database_url(connection.settings_dict),
        "SECRET_KEY": settings.SECRET_KEY,  # sessions made by the tests must verify there
        "TESTING": "true",
        "DEBUG": "false",
        "SECURE_SSL_REDIRECT": "false",
        "BOT_RUNNER": "inprocess",
        "BOT_MOVE_DELAY_S": "0.05",
        "BOT_BUDGET_S": "0.2",
        "LESSON_RUNNER": "process",
        "LOG_LEVEL": "INFO",
        **(extra_env or {}),
    }
    log = open(log_path, "w")  # noqa: SIM115 - closed with the process
    proc = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
         "gerrymander_site.asgi:application"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"live server exited; see {log_path}:\n{log_path.read_text()}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                break
        except OSError:
            time.sleep(0.1)
    else:
        proc.kill()
        raise RuntimeError(f"live server did not start; see {log_path}")
    proc.log_path = log_path
    _live_logs.append(log_path)
    return f"http://127.0.0.1:{port}", proc


def live_server_stop(proc):
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
    if proc.log_path in _live_logs:
        _live_logs.remove(proc.log_path)
    if proc.returncode in (0, -15, 143):
        proc.log_path.unlink(missing_ok=True)


@pytest.fixture(scope="session")
def live_server_url(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        url, proc = live_server_start()
    yield url
    live_server_stop(proc)


# --- Playwright (pytest-playwright fixtures, launched on Debian's Chromium) -------------


@pytest.fixture(scope="session")
def browser_type_launch_args(live_server_url):
    # Depends on the live server so the server starts before the browser driver does.
    return {"executable_path": CHROMIUM, "args": CHROMIUM_ARGS, "headless": True}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args, live_server_url):
    return {**browser_context_args, "base_url": live_server_url}


@pytest.fixture
def allow_sync_orm_in_browser_tests(monkeypatch):
    """Playwright's sync API runs an event loop in the main thread (STACK-NOTES 10)."""
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def browser_page(browser, live_server_url, user=None, **context_args):
    """A page in a fresh browser context (signed in as ``user`` when given) whose
    ``page.errors`` collects the page's script errors and Content-Security-Policy refusals."""
    from django.contrib.sessions.backends.db import SessionStore

    context = browser.new_context(**{"base_url": live_server_url, **context_args})
    if user is not None:
        session = SessionStore()
        session["_auth_user_id"] = str(user.pk)
        session["_auth_user_backend"] = "django.contrib.auth.backends.ModelBackend"
        session["_auth_user_hash"] = user.get_session_auth_hash()
        session.create()
        context.add_cookies([{"name": "sessionid", "value": session.session_key,
                              "url": live_server_url}])
    page = context.new_page()
    page.errors = []
    page.frames_seen = deque(maxlen=FRAMES_KEPT)
    page.on("websocket", lambda ws: _socket_trace(page, ws))
    _pages_opened.append((user, page))
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    page.on("console", lambda msg: "Content Security Policy" in msg.text
            and page.errors.append(msg.text))
    return page


# --- what a failed browser test shows: each page's last socket frames, the server's log ---

FRAMES_KEPT = 30
LOG_LINES_SHOWN = 60
_pages_opened = []  # (user, page) opened by the running test
_live_logs = []  # log files of the live servers running now
PAGE_NOW = """() => JSON.stringify({url: location.pathname, ...document.body.dataset,
    message: (document.querySelector("#game-message") || {}).textContent || null,
    hint: (document.querySelector("#board-hint") || {}).textContent || null})"""


def _frame_words(direction, payload):
    """One line for a socket frame: its type and, for a game's state, what a page acts on."""
    try:
        frame = json.loads(payload)
    except (TypeError, ValueError):
        return f"{direction} (not JSON) {str(payload)[:80]}"
    if not isinstance(frame, dict):
        return f"{direction} {str(payload)[:80]}"
    words = [direction, str(frame.get("type"))]
    game = frame.get("game") if isinstance(frame.get("game"), dict) else None
    if game is not None:
        view = game.get("view") or {}
        words += [f"version={game.get('version')}", f"seat={game.get('seat')}",
                  f"status={game.get('status')}", f"to_move={view.get('to_move')}"]
    for name in ("version", "code", "ref"):
        if name in frame and frame[name] is not None:
            words.append(f"{name}={frame[name]}")
    if frame.get("type") == "move":
        words.append(f"move={json.dumps(frame.get('move'))[:80]}")
    return " ".join(words)


def _socket_trace(page, ws):
    started = time.monotonic()

    def note(direction, payload):
        page.frames_seen.append(f"{time.monotonic() - started:7.2f}s {_frame_words(direction, payload)}")

    page.frames_seen.append(f"   open {ws.url}")
    ws.on("framereceived", lambda payload: note("<-", payload))
    ws.on("framesent", lambda payload: note("->", payload))
    ws.on("close", lambda _ws: page.frames_seen.append(f"{time.monotonic() - started:7.2f}s closed"))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A browser test that fails says what each page last heard on its socket and what the
    live server last logged: enough to tell a frame never sent from a frame not acted on."""
    outcome = yield
    report = outcome.get_result()
    if report.when != "call":
        return
    try:
        if report.failed:
            for user, page in _pages_opened:
                who = getattr(user, "username", None) or "anonymous"
                lines = list(page.frames_seen) or ["(none)"]
                try:  # what the page showed when the test gave up
                    lines.append("now: " + page.evaluate(PAGE_NOW))
                except Exception as exc:  # a closed page, say
                    lines.append(f"now: (page not readable: {exc.__class__.__name__})")
                report.sections.append((f"socket frames seen by {who}'s page (last {FRAMES_KEPT})",
                                        "\n".join(lines)))
            for path in _live_logs if "live_server_url" in item.fixturenames else ():
                lines = path.read_text(errors="replace").splitlines()[-LOG_LINES_SHOWN:]
                report.sections.append((f"live server log {path.name} (last {LOG_LINES_SHOWN} lines)",
                                        "\n".join(lines)))
    finally:
        _pages_opened.clear()


def wait_until(page, expression, timeout=15.0):
    """Wait until the JavaScript ``expression`` is true on ``page``.  (Playwright's
    wait_for_function evaluates a string with eval, which the site's Content-Security-Policy
    rightly forbids; page.evaluate goes through the debugger protocol instead.)"""
    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for: {expression}")
        page.wait_for_timeout(50)


def pytest_collection_modifyitems(config, items):
    # Browser tests last (pytest-playwright's session loop breaks async tests after it).
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)
    for item in items:
        if item.get_closest_marker("browser"):
            item.fixturenames.insert(0, "allow_sync_orm_in_browser_tests")




# --- Celery workers: real `celery worker` processes on Redis, on the test database -------


def celery_worker_start(*, name, extra_env=None, script=None):
    """Start a worker process (solo pool, bots queue) against the current test database."""
    from django.conf import settings
    from django.db import connection

    log_path = ROOT / f"celery-{name}.log"
    env = {
        **os.environ,
        "DATABASE_URL": _database_url(connection.settings_dict),
        "SECRET_KEY": settings.SECRET_KEY,
        "TESTING": "true",
        "BOT_RUNNER": "celery",
        "BOT_MOVE_DELAY_S": "0",
        "BOT_BUDGET_S": "0.2",
        **(extra_env or {}),
    }
    command = [sys.executable, script] if script else [sys.executable, "-m", "celery"]
    command += ["-A", "gerrymander_site", "worker", "-Q", "bots,bots_lobby", "--pool", "solo",
                "-n", f"{name}@%h", "--without-heartbeat", "--without-gossip",
                "--without-mingle", "-l", "info"]
    log = open(log_path, "w")  # noqa: SIM115 - closed with the process
    proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    proc.log_path = log_path
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"worker exited:\n{log_path.read_text()}")
        if "ready." in log_path.read_text():
            return proc
        time.sleep(0.2)
    proc.kill()
    raise RuntimeError(f"worker did not start:\n{log_path.read_text()}")


def process_stop(proc, *, kill=False):
    if proc.poll() is None:
        proc.kill() if kill else proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)
