"""Other tables' bot latency while one student floods the server with bot-only games.

    .venv/bin/python -m bench.bot_fairness [--seconds 30] [--tables 4] [--attack 40]

The embedded shape (in-process bots, SQLite in a throwaway file), on one event loop like the
ASGI server's.  A class of ``--tables`` 2-player Mapmaker tables, each a student against a
hard bot; the student places a border every 2-4 s, and we time the bot's reply (border
committed -> bot's border committed).  Three runs of ``--seconds`` each, side by side:

* quiet:   no attack;
* before:  one student tries to start ``--attack`` bots-only games of hard bots in the first
           25 s with the old scheduling (every bot decision straight onto the thread pool,
           first come first served) and no caps on games;
* after:   the same attack against the caps on lobby games and the round-robin scheduling.

The figures are printed, never asserted.
"""

import argparse
import asyncio
import os
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def django_setup(db_path):
    os.environ["DATABASE_URL"] = f"sqlite:///{db_path}"
    os.environ.setdefault("SECRET_KEY", "bench-only-secret-" + "x" * 40)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gerrymander_site.settings")
    os.environ["BOT_RUNNER"] = "inprocess"
    os.environ["BOT_MOVE_DELAY_S"] = "0"
    os.environ["LOG_LEVEL"] = "ERROR"
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def pct(values, q):
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


async def run(mode, args):
    from channels.db import database_sync_to_async
    from django.conf import settings
    from django.contrib.auth import get_user_model

    from games import bot_runner, services
    from games.engine import get_rules
    from games.models import Game
    from games.signals import game_changed

    rules = get_rules("mapmaker")
    loop = asyncio.get_running_loop()
    bot_runner._server_loop = loop
    bot_runner._fair = None
    settings.BOT_SLOTS = 1
    if mode == "before":
        settings.LOBBY_GAMES_MAX = settings.BOT_ONLY_GAMES_MAX = 10_000
        settings.GAMES_PER_HOUR_MAX = 10_000
    else:
        settings.LOBBY_GAMES_MAX, settings.BOT_ONLY_GAMES_MAX = 6, 2
        settings.GAMES_PER_HOUR_MAX = 30
    real_play_later = bot_runner._play_later_async

    async def fifo_play_later(delay, owner, kwargs):  # the scheduling before this change
        await asyncio.sleep(delay)
        await database_sync_to_async(bot_runner._play_logged, thread_sensitive=False)(**kwargs)

    bot_runner._play_later_async = fifo_play_later if mode == "before" else real_play_later
    User = get_user_model()
    tag = f"{mode}-{int(time.time() * 1000)}"

    def make_class():
        teacher = User.objects.create(username=f"teacher-{tag}")
        tables = []
        for t in range(args.tables):
            student = User.objects.create(username=f"s{t}-{tag}")
            game = services.game_create(
                kind="mapmaker", options={"players": 2, "first_seat": 0}, created_by=teacher,
                seed=f"{tag}-{t}", seats=[services.SeatSpec(user=student),
                                         services.SeatSpec(bot_level="hard")])
            tables.append((game.pk, student))
        return tables

    tables = await database_sync_to_async(make_class)()
    table_ids = {pk for pk, _ in tables}
    committed = {}  # (game id, version) -> when it was committed

    def on_change(sender, game, **kwargs):
        committed[(game.pk, game.version)] = time.monotonic()
        return []

    game_changed.connect(on_change, weak=False)
    latencies, stop = [], time.monotonic() + args.seconds
    attacker_games = {"created": 0, "refused": 0}

    async def student(game_id, user, rng):
        while time.monotonic() < stop:
            await asyncio.sleep(rng.uniform(2, 4))
            game = await database_sync_to_async(Game.objects.get)(pk=game_id)
            if game.status != Game.Status.ACTIVE or rules.to_move(game.state) != [0]:
                continue
            move = rng.choice(rules.legal_moves(game.state, 0))
            sent = time.monotonic()
            game = await database_sync_to_async(services.move_submit)(
                game_id=game_id, seat_index=0, move=move, expected_version=game.version,
                user=user)
            if rules.to_move(game.state) != [1]:
                continue  # still the student's turn: nothing for the bot yet
            while time.monotonic() < stop + 30:  # wait for the bot's first border
                done = committed.get((game_id, game.version + 1))
                if done is not None:
                    latencies.append(done - sent)
                    break
                await asyncio.sleep(0.02)

    async def attacker():
        eve = await database_sync_to_async(User.objects.create)(username=f"eve-{tag}")
        begin = time.monotonic()
        for n in range(args.attack):
            await asyncio.sleep(max(0.0, begin + n * 25 / args.attack - time.monotonic()))
            try:
                await database_sync_to_async(services.game_create)(
                    kind="mapmaker", options={"players": 4}, created_by=eve, lobby=True,
                    seed=f"{tag}-eve-{n}", seats=[services.SeatSpec(bot_level="hard")] * 4)
                attacker_games["created"] += 1
            except services.GameError:
                attacker_games["refused"] += 1

    rng = random.Random(7)
    jobs = [student(pk, user, random.Random(rng.random())) for pk, user in tables]
    if mode != "quiet":
        jobs.append(attacker())
    await asyncio.gather(*jobs)
    game_changed.disconnect(on_change)
    bot_runner._play_later_async = real_play_later

    def finish_everything():  # stop the attacker's games so the next run starts clean
        Game.objects.exclude(pk__in=table_ids).filter(status=Game.Status.ACTIVE).update(
            status=Game.Status.FINISHED)
        Game.objects.filter(pk__in=table_ids).update(status=Game.Status.FINISHED)

    await database_sync_to_async(finish_everything)()
    await asyncio.sleep(3)  # let thinking bots find their games over
    return latencies, attacker_games


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--tables", type=int, default=4)
    parser.add_argument("--attack", type=int, default=40)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        django_setup(Path(tmp) / "bench.sqlite3")
        rows = []
        for mode in ("quiet", "before", "after"):
            latencies, attacker = asyncio.run(run(mode, args))
            rows.append((mode, latencies, attacker))
            print(f"  {mode}: {len(latencies)} bot replies timed", flush=True)
    print()
    print(f"Bot reply latency at {args.tables} classroom tables (student border -> hard bot's "
          f"border), {args.seconds:.0f} s per run, in-process bots on one loop, 2 cores")
    print(f"{'run':<8} {'attack games made/refused':>26} {'replies':>8} {'p50 s':>7} "
          f"{'p95 s':>7} {'max s':>7}")
    for mode, lat, attacker in rows:
        made = "-" if mode == "quiet" else f"{attacker['created']}/{attacker['refused']}"
        print(f"{mode:<8} {made:>26} {len(lat):>8} {pct(lat, .5):>7.2f} {pct(lat, .95):>7.2f} "
              f"{(max(lat) if lat else float('nan')):>7.2f}")


if __name__ == "__main__":
    main()
