"""A Celery worker whose bots think for SLOW_BOT_S seconds first (fault-injection tests).

Started by tests as ``python tests/games/slow_bot_worker.py -A gerrymander_site worker ...``.
It writes a line to THINKING_FILE when a bot starts thinking, so the test knows when to kill it.
"""

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))


def main():
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gerrymander_site.settings")
    django.setup()
    import games.bots

    real_get_bot = games.bots.get_bot

    class SlowBot:
        def __init__(self, bot):
            self.bot = bot

        def choose(self, view, seat, **kwargs):
            with open(os.environ["THINKING_FILE"], "a") as marker:
                marker.write(f"thinking {os.getpid()}\n")
            time.sleep(float(os.environ["SLOW_BOT_S"]))
            return self.bot.choose(view, seat, **kwargs)

    games.bots.get_bot = lambda game, level: SlowBot(real_get_bot(game, level))

    from celery.__main__ import main as celery_main

    sys.argv = ["celery", *sys.argv[1:]]
    celery_main()


if __name__ == "__main__":
    main()
