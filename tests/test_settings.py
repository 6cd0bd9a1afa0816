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


def test_collected_game_modules_import_only_hashed_files(tmp_path):
    """In the production shape every ``import ... from`` in the collected game modules names a
    hashed file, so a browser never mixes a new page with an old cached module."""
    import json
    import re

    result = run_manage("collectstatic", "--noinput", "-v", "0",
                        env={**PRODUCTION, "STATIC_ROOT": str(tmp_path)})
    assert result.returncode == 0, result.stdout + result.stderr
    paths = json.loads((tmp_path / "staticfiles.json").read_text())["paths"]
    modules = {name: hashed for name, hashed in paths.items()
               if name.startswith("games/js/") and name.endswith(".js")}
    assert {"games/js/game.js", "games/js/socket.js", "games/js/ui.js",
            "games/js/mapmaker-board.js"} <= set(modules)
    imports_seen = 0
    for hashed in modules.values():
        text = (tmp_path / hashed).read_text()
        for target in re.findall(r"""(?:import|export)\s[^;'"]*?from\s*["']([^"']+)["']""", text):
            imports_seen += 1
            assert re.search(r"\.[0-9a-f]{12}\.js$", target), f"{hashed} imports {target} unhashed"
            assert (tmp_path / Path(hashed).parent / target).resolve().exists(), target
    assert imports_seen >= 3  # the shell imports socket.js and ui.js; the boards ui.js
