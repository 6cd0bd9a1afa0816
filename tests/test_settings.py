"""The two shapes are chosen by environment variables; the production one passes
`manage.py check --deploy`."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run_manage(*args, env):
    clean = {k: v for k, v in os.environ.items()
             if k not in {"DATABASE_URL", "REDIS_URL", "SECRET_KEY", "DEBUG", "TESTING"}}
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env={**clean, **env},
                          capture_output=True, text=True, timeout=120)


PRODUCTION = {
    "DATABASE_URL": "postgres://u:p@db.example.org:5432/gerrymander",
    "REDIS_URL": "redis://redis.example.org:6379/0",
    "SECRET_KEY": "a-long-random-production-secret-key-0123456789-abcdefghijklmnop",
    "ALLOWED_HOSTS": "classroom.example.org",
}


def test_production_shape_passes_check_deploy():
    result = run_manage("check", "--deploy", "--fail-level", "WARNING", env=PRODUCTION)
    assert result.returncode == 0, result.stdout + result.stderr


def test_production_shape_refuses_to_start_without_a_secret_key():
    env = {k: v for k, v in PRODUCTION.items() if k != "SECRET_KEY"}
    result = run_manage("check", env=env)
    assert result.returncode != 0 and "SECRET_KEY" in result.stderr


def test_shapes_pick_their_layer_and_bot_runner():
    code = ("from django.conf import settings as s; "
            "print(s.CHANNEL_LAYERS['default']['BACKEND'], s.BOT_RUNNER, s.DATABASES['default']['ENGINE'])")
    embedded = run_manage("shell", "-v", "0", "-c", code, env={})
    assert embedded.stdout.split() == [
        "channels.layers.InMemoryChannelLayer", "inprocess", "django.db.backends.sqlite3"]
    production = run_manage("shell", "-v", "0", "-c", code, env=PRODUCTION)
    assert production.stdout.split() == [
        "gerrymander_site.layers.PubSubChannelLayer", "celery", "django.db.backends.postgresql"]
