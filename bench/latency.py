"""Live-play latency: move sent -> every seat has the new view, against echo baselines.

Production shape: PostgreSQL, the Redis channel layer, ``--asgi`` daphne processes (sockets of
one game are spread over them, so every broadcast crosses processes through Redis).  Each of
``--games`` 4-player Mapmaker games has 4 sockets; each game's player to move sends a legal
border after a think time, and the latency is the time until all 4 sockets of that game have
received the new version.  Three baselines run first on the same number of sockets at the
same pace: a bare echo to the sender; an echo through the channel layer to all 4 sockets of
the table (the transport a move's views take, without the game); and that echo after one
database round trip made the way a move makes its own (a transaction through ``db_call``),
which is less than any move saved before it is shown can cost.  Also printed: the CPU the
ASGI processes spend per echo and per move.  Run through ``bench/latency.sh``.
"""

import argparse
import asyncio
import json
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VERSION_RE = re.compile(rb'"version":(\d+)')


def django_setup():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gerrymander_site.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


def make_tables(n_games):
    """400 users with sessions and 100 four-player games; returns [(game_id, [cookie]*4)]."""
    from django.contrib.auth import get_user_model
    from django.contrib.sessions.backends.db import SessionStore

    from games import services

    User = get_user_model()
    tables = []
    for g in range(n_games):
        users = [User.objects.create(username=f"bench-{g}-{s}") for s in range(4)]
        game = services.game_create(
            kind="mapmaker", options={"players": 4, "first_seat": 0}, seed=f"bench-{g}",
            seats=[services.SeatSpec(user=u) for u in users], lobby=True,
        )
        cookies = []
        for user in users:
            session = SessionStore()
            session["_auth_user_id"] = str(user.pk)
            session["_auth_user_backend"] = "django.contrib.auth.backends.ModelBackend"
            session["_auth_user_hash"] = user.get_session_auth_hash()
            session.create()
            cookies.append(f"sessionid={session.session_key}")
        tables.append((game.pk, cookies))
    return tables


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_servers(count):
    (ROOT / "var").mkdir(exist_ok=True)
    procs, ports = [], []
    for _ in range(count):
        port = free_port()
        procs.append(subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
             "gerrymander_site.asgi:application"],
            cwd=ROOT, stdout=open(ROOT / f"var/bench-asgi-{port}.log", "w"), stderr=subprocess.STDOUT,
        ))
        ports.append(port)
    for port in ports:
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
    return procs, ports


def layer_name():
    from django.conf import settings

    return settings.CHANNEL_LAYERS["default"]["BACKEND"].rpartition(".")[2]


def cpu_seconds(pids):
    """User + system CPU seconds the processes have used (Linux /proc; 0 elsewhere)."""
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
        except OSError:
            return 0.0
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


async def layer_round_trip(backend, *, groups=5, rounds=300, frame_bytes=6000):
    """Mean time for ``groups`` group sends of one frame each until every member has it:
    one move's broadcast, on a bare channel layer in one process."""
    from django.conf import settings
    from django.utils.module_loading import import_string

    from gerrymander_site.sockets import _send_all

    layer = import_string(backend)(hosts=[settings.REDIS_URL], prefix=f"bench-layer-{os.getpid()}")
    channels = [await layer.new_channel() for _ in range(groups)]
    for index, channel in enumerate(channels):
        await layer.group_add(f"g{index}", channel)
    event = {"type": "game.state", "frame": "x" * frame_bytes}

    async def one():
        receiving = asyncio.gather(*(layer.receive(channel) for channel in channels))
        await _send_all(layer, [(f"g{i}", event) for i in range(groups)])  # as a move does
        await receiving

    for _ in range(20):  # connections and subscriptions warm
        await one()
    start = time.perf_counter()
    for _ in range(rounds):
        await one()
    elapsed = (time.perf_counter() - start) / rounds
    for index, channel in enumerate(channels):
        await layer.group_discard(f"g{index}", channel)
    return elapsed


def layers_compare():
    for backend in ("channels_redis.core.RedisChannelLayer",
                    "channels_redis.pubsub.RedisPubSubChannelLayer",
                    "gerrymander_site.layers.PubSubChannelLayer"):
        seconds = asyncio.run(layer_round_trip(backend))
        print(f"{backend.rpartition('.')[2]:<28} 5 group sends -> all received: "
              f"{seconds * 1000:.2f} ms", flush=True)


def move_path_profile(moves=40):
    """One game, in this process, with no channel layer (nothing is published): where a
    move's time goes before anything reaches the network."""
    from django.contrib.auth import get_user_model
    from django.test import override_settings

    from classrooms.live import on_game_changed
    from games import services
    from games.broadcast import game_events
    from games.engine import get_rules
    from games.models import Game

    users = [get_user_model().objects.create(username=f"path-{s}") for s in range(4)]
    game = services.game_create(kind="mapmaker", options={"players": 4, "first_seat": 0},
                                seed="path", seats=[services.SeatSpec(user=u) for u in users],
                                lobby=True)
    rules, rng = get_rules("mapmaker"), random.Random(0)
    total = views = listeners = 0.0
    for _ in range(moves):
        seat = rules.to_move(game.state)[0]
        move = rng.choice(rules.legal_moves(game.state, seat))
        with override_settings(CHANNEL_LAYERS={}):
            start = time.perf_counter()
            game = services.move_submit(game_id=game.pk, seat_index=seat, move=move,
                                        expected_version=game.version, user=users[seat])
            total += time.perf_counter() - start
        seats = list(game.seats.select_related("user").order_by("index"))
        start = time.perf_counter()
        game_events(game=game, seats=seats)
        views += time.perf_counter() - start
        start = time.perf_counter()
        on_game_changed(Game, game=game, seats=seats)
        listeners += time.perf_counter() - start
    rest = total - views - listeners
    print(f"one move in process, nothing published (mean of {moves}): move_submit "
          f"{total / moves * 1000:.2f} ms = views + JSON {views / moves * 1000:.2f} ms "
          f"+ classroom listeners {listeners / moves * 1000:.2f} ms "
          f"+ transaction and the rest {rest / moves * 1000:.2f} ms", flush=True)


def summary(name, samples, errors):
    samples = sorted(samples)
    if not samples:
        return f"{name:<28} no samples, errors {errors}", float("nan"), float("nan")
    p50 = statistics.median(samples) * 1000
    p95 = samples[min(len(samples) - 1, int(len(samples) * 0.95))] * 1000
    return (f"{name:<28} n={len(samples):<6} p50={p50:7.1f} ms  p95={p95:7.1f} ms  "
            f"max={samples[-1] * 1000:7.1f} ms  errors={errors}"), p50, p95


ECHO_PATHS = {
    "sender": "/ws/echo/",
    "table": "/ws/echo/table-{g}/",
    "table_db": "/ws/echo-db/table-{g}/",
}


async def run_echo(ports, n_games, rounds, think, *, to):
    """Echo baselines at the games' pace: 4 sockets per table, spread over the processes.
    ``to="sender"``: a bare echo back to the sender; ``"table"``: the frame goes through the
    channel layer to all 4 sockets of the table (the time is until all 4 have it);
    ``"table_db"``: the same after one database round trip made the way a move makes its
    own."""
    from websockets.asyncio.client import connect

    samples, errors = [], 0
    fan_out = to != "sender"

    async def group(g):
        nonlocal errors
        path = ECHO_PATHS[to].format(g=g)
        sockets = [await connect(f"ws://127.0.0.1:{ports[(g + s) % len(ports)]}{path}",
                                 origin="http://127.0.0.1", max_size=None)
                   for s in range(4)]
        listeners = sockets if fan_out else None
        rng = random.Random(g)
        await asyncio.sleep(0.5)  # every socket has joined its room
        try:
            for r in range(rounds):
                await asyncio.sleep(rng.uniform(*think))
                sender = sockets[r % 4]
                start = time.perf_counter()
                await sender.send(json.dumps({"n": r, "g": g}))
                try:
                    await asyncio.wait_for(
                        asyncio.gather(*(ws.recv() for ws in (listeners or [sender]))), 10)
                    samples.append(time.perf_counter() - start)
                except TimeoutError:
                    errors += 1
        finally:
            for ws in sockets:
                await ws.close()

    await asyncio.gather(*(group(g) for g in range(n_games)))
    return samples, errors


error_codes = {}


async def run_games(ports, tables, rounds, think, *, on_ready=None):
    """Every table connects its 4 sockets and gets its first frames; then ``on_ready()`` runs
    and the tables start playing."""
    from websockets.asyncio.client import connect

    samples, errors = [], 0
    ready, everyone_ready = [0], asyncio.Event()

    async def table(g, game_id, cookies):
        nonlocal errors
        sockets = [await connect(
            f"ws://127.0.0.1:{ports[(g + s) % len(ports)]}/ws/games/{game_id}/",
            origin="http://127.0.0.1", additional_headers={"Cookie": cookie}, max_size=None)
            for s, cookie in enumerate(cookies)]
        latest = [None] * 4  # last full frame per seat (parsed lazily)
        versions = [-1] * 4
        arrived = asyncio.Event()

        async def reader(s):
            nonlocal errors
            async for raw in sockets[s]:
                data = raw.encode() if isinstance(raw, str) else raw
                if data.startswith(b'{"type":"state"'):
                    versions[s] = int(VERSION_RE.search(data).group(1))
                    latest[s] = data
                    arrived.set()
                elif data.startswith(b'{"type":"error"'):
                    errors += 1
                    code = json.loads(data).get("code")
                    error_codes[code] = error_codes.get(code, 0) + 1

        readers = [asyncio.create_task(reader(s)) for s in range(4)]
        rng = random.Random(g)
        try:
            while min(versions) < 0:
                arrived.clear()
                await asyncio.wait_for(arrived.wait(), 10)
            ready[0] += 1
            if ready[0] == len(tables):
                if on_ready:
                    on_ready()
                everyone_ready.set()
            await everyone_ready.wait()
            for _ in range(rounds):
                await asyncio.sleep(rng.uniform(*think))
                frame = json.loads(latest[0])["game"]
                view = frame["view"]
                if view["is_over"]:
                    break
                seat = view["to_move"][0]
                mine = json.loads(latest[seat])["game"]
                version = mine["version"]
                if not mine["view"]["legal_moves"]:  # that seat's frame is behind: wait
                    continue
                move = rng.choice(mine["view"]["legal_moves"])
                start = time.perf_counter()
                await sockets[seat].send(json.dumps(
                    {"type": "move", "move": move, "version": version, "ref": str(version)}))
                deadline = start + 10
                while min(versions) <= version and time.perf_counter() < deadline:
                    arrived.clear()
                    try:
                        await asyncio.wait_for(arrived.wait(), deadline - time.perf_counter())
                    except TimeoutError:
                        break
                if min(versions) > version:
                    samples.append(time.perf_counter() - start)
                else:
                    errors += 1
                    error_codes["timeout"] = error_codes.get("timeout", 0) + 1
        finally:
            for ws in sockets:
                await ws.close()
            for task in readers:
                task.cancel()

    await asyncio.gather(*(table(g, gid, cookies) for g, (gid, cookies) in enumerate(tables)))
    return samples, errors


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=20, help="moves per game")
    parser.add_argument("--asgi", type=int, default=2, help="daphne processes")
    parser.add_argument("--think", type=float, nargs=2, default=(0.5, 1.5),
                        help="think time range between moves of a game, seconds")
    args = parser.parse_args()
    django_setup()
    layers_compare()
    move_path_profile()
    print(f"setting up {args.games} games x 4 sockets on {args.asgi} ASGI processes ...",
          flush=True)
    tables = make_tables(args.games)
    from django.db import connections

    connections.close_all()
    procs, ports = start_servers(args.asgi)
    try:
        pids = [proc.pid for proc in procs]
        pace = (args.rounds, tuple(args.think))
        cpu0 = cpu_seconds(pids)
        echo = asyncio.run(run_echo(ports, args.games, *pace, to="sender"))
        fan = asyncio.run(run_echo(ports, args.games, *pace, to="table"))
        cpu1 = cpu_seconds(pids)
        fan_db = asyncio.run(run_echo(ports, args.games, *pace, to="table_db"))
        connected = []
        moves = asyncio.run(run_games(ports, tables, *pace,
                                      on_ready=lambda: connected.append(cpu_seconds(pids))))
        cpu2 = cpu_seconds(pids)
    finally:
        for proc in procs:
            proc.terminate()
    line_echo, _, echo_p95 = summary("echo to sender", *echo)
    line_fan, _, fan_p95 = summary("echo to all 4 via layer", *fan)
    line_fan_db, _, fan_db_p95 = summary("  the same after a DB trip", *fan_db)
    line_move, _, move_p95 = summary("move -> all 4 seats", *moves)
    print()
    print(f"live-play latency, {args.games} games / {args.games * 4} sockets, "
          f"{args.asgi} daphne processes, {layer_name()}, PostgreSQL, "
          f"think {args.think[0]}-{args.think[1]} s per move per game")
    print(line_echo)
    print(line_fan)
    print(line_fan_db)
    print(line_move)
    if moves[0]:
        print(f"ASGI processes' CPU per message: echoes {(cpu1 - cpu0) / max(1, len(echo[0]) + len(fan[0])) * 1000:.2f} ms, "
              f"move {(cpu2 - connected[0]) / len(moves[0]) * 1000:.2f} ms")
    print(f"p95 ratio move / echo to sender: {move_p95 / echo_p95:.2f}; "
          f"move / echo to all 4: {move_p95 / fan_p95:.2f} (goal <= 2.0); "
          f"echo after a DB trip / echo to all 4: {fan_db_p95 / fan_p95:.2f}")
    if error_codes:
        print(f"errors by kind: {error_codes}")


if __name__ == "__main__":
    main()
