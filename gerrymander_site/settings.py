"""Django settings.

Two shapes, chosen by environment variables (see README "Production shape and scaling out"):

* Embedded default (nothing set): SQLite file, in-memory channel layer, bot moves run
  in-process.  Needs nothing installed but Python.
* Production shape: DATABASE_URL (PostgreSQL), REDIS_URL (channels_redis layer and Celery
  broker; bot moves run on ``celery worker`` processes), SECRET_KEY, ALLOWED_HOSTS.
"""

import os
import sys
from pathlib import Path

import environ

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()
if (BASE_DIR / ".env").exists():
    environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

TESTING = "pytest" in sys.modules or env.bool("TESTING", default=False)
DEBUG = env.bool("DEBUG", default=False)
EMBEDDED = not env("DATABASE_URL", default="")


def _local_secret_key():
    """The embedded default keeps a generated key in a git-ignored file beside manage.py."""
    path = BASE_DIR / ".secret_key"
    if not path.exists():
        from django.core.management.utils import get_random_secret_key

        path.write_text(get_random_secret_key())
        path.chmod(0o600)
    return path.read_text().strip()


SECRET_KEY = env("SECRET_KEY", default="")
if not SECRET_KEY:
    if not (EMBEDDED or TESTING):
        from django.core.exceptions import ImproperlyConfigured

        raise ImproperlyConfigured("Set SECRET_KEY for the production shape (DATABASE_URL is set).")
    SECRET_KEY = _local_secret_key()

ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "[::1]", "testserver"])
# Reverse proxies in front of the app that each append to X-Forwarded-For: the client's
# address (for rate limits) is read that many hops back.  0: use REMOTE_ADDR (direct, or
# daphne run with --proxy-headers).  See gerrymander_site.ratelimit.
TRUSTED_PROXY_HOPS = env.int("TRUSTED_PROXY_HOPS", default=0)
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",  # tokens for scripts (state-map uploads); admins issue them
    "drf_spectacular",  # the API's OpenAPI schema at /api/schema/
    "drf_spectacular_sidecar",  # Swagger UI's files, served from here (no CDN)
    "channels",
    "games",
    "classrooms",
]
if TESTING:
    # A game that exists only in the tests, to prove that a game plugs in (tests/sealedbid).
    INSTALLED_APPS.append("tests.sealedbid")

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "gerrymander_site.middleware.SessionIdleTimeout",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
]

ROOT_URLCONF = "gerrymander_site.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "gerrymander_site.wsgi.application"
ASGI_APPLICATION = "gerrymander_site.asgi.application"

# --- Database -------------------------------------------------------------------------
DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}")}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # IMMEDIATE transactions serialise writers up front (the in-process bot threads and the
    # ASGI server write concurrently); the timeout waits for the lock instead of failing.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"transaction_mode": "IMMEDIATE", "timeout": 20}
    )
    # A file, not :memory:, so a live server in another process sees the test database.
    DATABASES["default"]["TEST"] = {
        # Per process, so two test runs in one checkout do not share a database file.
        "NAME": env("TEST_DATABASE_NAME", default=str(BASE_DIR / f"test-db-{os.getpid()}.sqlite3"))
    }
else:
    # Persistent connections: a socket's database calls would otherwise reconnect every time.
    # (Not in tests: the test database must be droppable when the run ends.)
    DATABASES["default"]["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=0 if TESTING else 60)
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    DATABASES["default"]["TEST"] = {
        "NAME": env("TEST_DATABASE_NAME", default="test_" + DATABASES["default"]["NAME"])
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Channels, Celery, bots -----------------------------------------------------------
REDIS_URL = env("REDIS_URL", default="")
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            # Redis pub/sub: a group send is one PUBLISH and delivery is pushed; a move's five
            # group sends reach their sockets about 5x sooner than on channels_redis.core's
            # queues, and sooner still sent as one batch (`make bench-latency` prints all
            # three).  Frames to a socket that is not listening are dropped, which costs
            # nothing here: a (re)connecting client always starts from a fresh state frame.
            "BACKEND": env("CHANNEL_LAYER_BACKEND",
                           default="gerrymander_site.layers.PubSubChannelLayer"),
            "CONFIG": {"hosts": [REDIS_URL], "prefix": env("CHANNEL_PREFIX", default="gm")},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

# "celery": bot moves are Celery tasks on the "bots" queue; "inprocess": run in this process;
# "off": nothing plays for bots (tests that do not exercise bots).
BOT_RUNNER = env("BOT_RUNNER", default="celery" if REDIS_URL else "inprocess")
BOT_MOVE_DELAY_S = env.float("BOT_MOVE_DELAY_S", default=0.6)
BOT_BUDGET_S = env.float("BOT_BUDGET_S", default=1.0)
# A bot turn idle this long is considered lost (a restart) and scheduled again.
BOT_STALL_S = env.float("BOT_STALL_S", default=15.0)
# Fairness (games.bot_runner): bot decisions thinking at once in one process (embedded
# shape; bots are pure Python, so one at a time uses the interpreter best), served round
# robin by owner, classroom tables first; and workers one lobby game's owner may hold at once.
BOT_SLOTS = env.int("BOT_SLOTS", default=1)
BOT_LOBBY_OWNER_SLOTS = env.int("BOT_LOBBY_OWNER_SLOTS", default=1)
# Caps per user on games made in the lobby (games.services.game_create).
LOBBY_GAMES_MAX = env.int("LOBBY_GAMES_MAX", default=6)
BOT_ONLY_GAMES_MAX = env.int("BOT_ONLY_GAMES_MAX", default=2)
GAMES_PER_HOUR_MAX = env.int("GAMES_PER_HOUR_MAX", default=30)

# The ensemble of random maps behind the lesson after a game (games.lessons): "celery" (a task
# per chunk of maps), "process" (a background process: the embedded shape), "sync" or "off".
LESSON_RUNNER = env("LESSON_RUNNER", default="celery" if REDIS_URL else "process")
LESSON_PROCESSES = env.int("LESSON_PROCESSES", default=1)
LESSON_STALL_S = env.float("LESSON_STALL_S", default=60.0)  # then a running ensemble is redrawn

CELERY_BROKER_URL = env("CELERY_BROKER_URL", default=REDIS_URL or "memory://")
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_DEFAULT_QUEUE = "default"
# Bot moves of classroom tables on "bots", of lobby games on "bots_lobby" (chosen per task
# in games.bot_runner); workers consume both, in turn.
CELERY_TASK_ROUTES = {"games.tasks.bot_move_play": {"queue": "bots"}}
# An unacknowledged message (its worker died) is handed to another worker after this long.
# Workers sweep for such messages every CELERY_RESTORE_INTERVAL seconds.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env.int("CELERY_VISIBILITY_TIMEOUT", default=60),
    "unacked_restore_interval": env.int("CELERY_RESTORE_INTERVAL", default=10),
    "unacked_restore_throttle": 1,
}
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Run exactly one beat process (or one worker with --beat): it re-schedules lost bot turns.
CELERY_BEAT_SCHEDULE = {
    "bots-resume-stalled": {"task": "games.tasks.bots_resume_stalled", "schedule": 30.0},
    # assignments whose teacher chose "close the games at the due time"
    "assignments-close-due": {"task": "classrooms.tasks.assignments_close_due",
                              "schedule": 30.0},
}

# --- Auth -----------------------------------------------------------------------------
# Every password a person chooses: not a common one, not like their name, long enough.
# Teachers' need 10 characters (classrooms.services.password_check adds that); generated
# student passwords are three words and two digits.
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator",
     "OPTIONS": {"min_length": 8}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Shared classroom devices: a student's session ends when the browser closes or after this
# long without a request; a teacher's after this long.
STUDENT_IDLE_S = env.int("STUDENT_IDLE_S", default=3 * 3600)
TEACHER_IDLE_S = env.int("TEACHER_IDLE_S", default=8 * 3600)

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "login"

REST_FRAMEWORK = {
    # Sessions, and tokens for scripts (an admin issues a token in the admin or with
    # `manage.py drf_create_token`).  Passwords are still checked only by the rate-limited
    # login page: no API view takes a password.
    "DEFAULT_AUTHENTICATION_CLASSES": ["rest_framework.authentication.SessionAuthentication",
                                       "rest_framework.authentication.TokenAuthentication"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_THROTTLE_CLASSES": ["rest_framework.throttling.UserRateThrottle"],
    "DEFAULT_THROTTLE_RATES": {"user": env("API_THROTTLE_RATE", default="600/min")},
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["gerrymander_site.parsers.SafeJSONParser",
                               "rest_framework.parsers.FormParser",
                               "rest_framework.parsers.MultiPartParser"],
}

# The API's OpenAPI 3 schema (/api/schema/) and its docs page (/api/docs/), staff only.
SPECTACULAR_SETTINGS = {
    "TITLE": "Gerrymander Classroom API",
    "DESCRIPTION": "Games and state maps. Staff upload, check, preview and publish maps; "
                   "teachers read published maps. Authenticate with a session or a token "
                   "(header `Authorization: Token <key>`).",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # validatorUrl null: Swagger UI would otherwise load a badge from another site.
    "SWAGGER_UI_SETTINGS": {"deepLinking": True, "validatorUrl": None},
}

CACHES = {
    "default": (
        {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}
        if REDIS_URL and not TESTING
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    )
}

# --- I18n, static ---------------------------------------------------------------------
LANGUAGE_CODE = "en-gb"
TIME_ZONE = env("TIME_ZONE", default="UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = env("STATIC_ROOT", default=str(BASE_DIR / "staticfiles"))
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if (DEBUG or TESTING)
            else "gerrymander_site.storage.StaticStorage"
        )
    },
}
WHITENOISE_USE_FINDERS = DEBUG or TESTING

# --- Security (production shape) ------------------------------------------------------
if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=not (TESTING or EMBEDDED))
    SESSION_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", default=not (TESTING or EMBEDDED))
    CSRF_COOKIE_SECURE = env.bool("CSRF_COOKIE_SECURE", default=not (TESTING or EMBEDDED))
    SECURE_HSTS_SECONDS = env.int(
        "SECURE_HSTS_SECONDS", default=0 if (TESTING or EMBEDDED) else 31536000
    )
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
    SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=True)
X_FRAME_OPTIONS = "DENY"

# Content-Security-Policy: scripts, styles and sockets from this site only, no inline code
# (pages use ES modules and CSS files; boards set styles through the CSSOM).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # A refused request (403, 404, ...) is one line in the log, not a traceback.
    "filters": {"one_line_4xx": {"()": "gerrymander_site.logs.OneLineClientErrors"}},
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env("LOG_LEVEL", default="WARNING")},
    "loggers": {
        "games": {"level": env("LOG_LEVEL", default="INFO")},
        "django.request": {"filters": ["one_line_4xx"]},
    },
}

# A bare echo socket at /ws/echo/, for the latency benchmark's baseline only.
ENABLE_ECHO_SOCKET = env.bool("ENABLE_ECHO_SOCKET", default=False)

if TESTING:
    # Test users are created by the hundred; the production hasher is deliberately slow.
    PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
