"""Berrymandering: engine speed beside a naive reference, and the bots' strength ladder.

    .venv/bin/python -m bench.berrymandering_bench [--speed] [--ladder]
        [--games 200] [--jobs 2] [--budget 1.0] [--seconds 2]

--speed (in one run, each figure beside a naive backtracking reference written below):
  * checking a cut: the engine's ``apply`` of a complete cut (validation and the new state)
    vs the reference's check (each group matched against the 19 orientations at every
    position, then the union compared with the uneaten cells);
  * a random complete cut of the 36-cell board: ``tetromino.Region.random_tiling`` vs plain
    backtracking (first empty cell, the 19 orientations in a random order, no pruning, no
    memory);
  * ``map_check`` of 64-cell maps with islands (one playable, one with an island that
    cannot be cut), vs islands found by flood fill and each tested by plain backtracking.
  Before timing, both sides are checked to agree (cuts accepted and refused, maps judged).

--ladder: each level against the one below (easy vs random, medium vs easy, hard vs
  medium), ``--games`` seeded games per pairing on the standard two-player game.  Every board
  (seed) is played four times: each bot in each seat, each as the first cutter.  Printed from
  the higher level's side: wins, draws (equal candles: nobody wins) and losses; the goal is
  wins >= 75% (a draw does not count as a win; "score" counts it as half).  Then the mean,
  p95 and max seconds per decision of each level (the goal for hard: <= 1 s).

With neither flag, both run.
"""

import argparse
import multiprocessing
import random
import statistics
import sys
import time

from games.engine import get_rules
from games.engine.berrymandering import geometry, random_cut
from games.engine.berrymandering_data import STANDARD_MAP
from games.engine.tetromino import ORIENTATIONS

RULES = get_rules("berrymandering")
LEVELS = ("random", "easy", "medium", "hard")
ADJACENT = [("easy", "random"), ("medium", "easy"), ("hard", "medium")]


# --------------------------------------------------------------------------- naive reference

SHAPES = [cells for _, cells in ORIENTATIONS]


def ref_check_cut(cells, eaten, groups):
    """True if ``groups`` is a complete cut of the uneaten ``cells`` (all by brute force)."""
    uneaten = {c for c in cells if c not in eaten}
    seen = set()
    for group in groups:
        group = [tuple(c) for c in group]
        if len(group) != 4 or len(set(group)) != 4:
            return False
        if any(c not in uneaten or c in seen for c in group):
            return False
        target = set(group)
        if not any({(x + dx, y + dy) for dx, dy in shape} == target
                   for shape in SHAPES for x, y in uneaten):
            return False
        seen |= target
    return seen == uneaten


def _first_empty(left):
    return min(left, key=lambda c: (c[1], c[0]))


def ref_random_cut(cells, rng):
    """Plain backtracking: cover the first empty cell with an orientation (random order)."""
    left = set(cells)
    out = []

    def go():
        if not left:
            return True
        x0, y0 = _first_empty(left)
        for shape in rng.sample(SHAPES, len(SHAPES)):
            ax, ay = shape[0]
            piece = [(x0 + x - ax, y0 + y - ay) for x, y in shape]
            if all(c in left for c in piece):
                left.difference_update(piece)
                out.append(piece)
                if go():
                    return True
                out.pop()
                left.update(piece)
        return False

    return out if go() else None


def ref_tileable(cells):
    left = set(cells)

    def go():
        if not left:
            return True
        x0, y0 = _first_empty(left)
        for shape in SHAPES:
            ax, ay = shape[0]
            piece = [(x0 + x - ax, y0 + y - ay) for x, y in shape]
            if all(c in left for c in piece):
                left.difference_update(piece)
                ok = go()
                left.update(piece)
                if ok:
                    return True
        return False

    return go()


def ref_map_ok(cells):
    """Every island (flood fill) a multiple of 4 and tileable by plain backtracking."""
    left = set(map(tuple, cells))
    while left:
        start = left.pop()
        island, todo = {start}, [start]
        for x, y in todo:
            for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if n in left:
                    left.discard(n)
                    island.add(n)
                    todo.append(n)
        if len(island) % 4 or not ref_tileable(island):
            return False
    return True


# --------------------------------------------------------------------------- speed

def _blob(x0, y0, rows):
    """Cells from a picture: '#' is a cell."""
    return [(x0 + x, y0 + y) for y, row in enumerate(rows) for x, ch in enumerate(row)
            if ch == "#"]


ISLANDS_OK = (
    _blob(0, 0, ["..####..",
                 ".######.",
                 "########",
                 "########",
                 ".######.",
                 "..####..",
                 "..####.."])  # 40
    + _blob(10, 0, ["####", "#..#", "#..#", "####"])  # a ring of 12
    + _blob(10, 6, ["####", "####"])  # 8
    + _blob(0, 9, ["##", "##"])  # 4
)
COMB = _blob(16, 0, ["##", "#.", "##", "#.", "##"])  # 8 cells no tetrominoes can tile
ISLANDS_BAD = [c for c in ISLANDS_OK if not (10 <= c[0] <= 13 and 6 <= c[1] <= 7)] + COMB


def map_data(cells, name):
    n = len(cells)
    random_tiles = 4
    per_team = (n - random_tiles) // 2
    return {"name": name, "cells": [list(c) for c in cells],
            "tiles": {"random": random_tiles, "berries": [[per_team, 0, 0, 0]] * 2},
            "mystery": [[2, 0, 0, 0], [2, 0, 0, 0]]}


def timed(fn, seconds):
    """(calls per second, seconds per call) of ``fn`` run repeatedly for about ``seconds``."""
    n = 0
    start = time.perf_counter()
    while True:
        fn(n)
        n += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return n / elapsed, elapsed / n


def speed(seconds):
    cells = [tuple(c) for c in STANDARD_MAP["cells"]]
    state = RULES.setup({"players": 2}, 1)
    seat = RULES.to_move(state)[0]
    geo = geometry(state)
    cuts = [[[list(geo.cells[i]) for i in g] for g in random_cut(state, random.Random(k))]
            for k in range(50)]
    bad = [list(c) for c in cuts]
    for k, c in enumerate(bad):  # swap one cell between two groups: usually not connected
        c[0] = [list(x) for x in c[0]]
        c[1] = [list(x) for x in c[1]]
        c[0][k % 4], c[1][k % 4] = c[1][k % 4], c[0][k % 4]
    # agreement first
    for c in cuts:
        assert ref_check_cut(cells, set(), c)
        RULES.apply(state, seat, {"type": "cut", "groups": c})
    for c in bad:
        ok = ref_check_cut(cells, set(), c)
        try:
            RULES.apply(state, seat, {"type": "cut", "groups": c})
            accepted = True
        except Exception:  # noqa: BLE001 - IllegalMove: refused
            accepted = False
        assert ok == accepted, "engine and reference disagree on a cut"
    for k in range(20):
        assert ref_check_cut(cells, set(), ref_random_cut(cells, random.Random(k)))
    good_map, bad_map = map_data(ISLANDS_OK, "islands"), map_data(ISLANDS_BAD, "comb")
    assert len(ISLANDS_OK) == 64 and len(ISLANDS_BAD) == 64
    assert RULES.map_check(good_map) == [] and ref_map_ok(ISLANDS_OK)
    assert RULES.map_check(bad_map) and not ref_map_ok(ISLANDS_BAD)
    print("agreement: engine and reference accept and refuse the same cuts and maps")
    print()

    rows = [
        ("check a cut (36 cells)",
         lambda n: RULES.apply(state, seat, {"type": "cut", "groups": cuts[n % 50]}),
         lambda n: ref_check_cut(cells, set(), cuts[n % 50])),
        ("random complete cut (36 cells)",
         lambda n: random_cut(state, random.Random(n)),
         lambda n: ref_random_cut(cells, random.Random(n))),
        # (the engine's cache of island answers is cleared before every map_check below)
        ("map_check, 64 cells, islands",
         lambda n: RULES.map_check(good_map), lambda n: ref_map_ok(ISLANDS_OK)),
        ("map_check, 64 cells, a comb",
         lambda n: RULES.map_check(bad_map), lambda n: ref_map_ok(ISLANDS_BAD)),
    ]
    from games.engine import berrymandering as engine_module

    header = f"{'operation':<32}{'engine ms':>12}{'reference ms':>15}{'speed-up':>10}"
    print(header)
    print("-" * len(header))
    for label, eng, ref in rows:
        engine_module._island_problems.cache_clear()
        if label.startswith("map_check"):
            def eng_fresh(n, eng=eng):
                engine_module._island_problems.cache_clear()
                return eng(n)
        else:
            eng_fresh = eng
        _, e = timed(eng_fresh, seconds)
        _, r = timed(ref, seconds)
        print(f"{label:<32}{e * 1000:>12.3f}{r * 1000:>15.3f}{r / e:>9.1f}x", flush=True)


# --------------------------------------------------------------------------- ladder

def play_game(args):
    """One game; returns (hi, lo, 'W'/'D'/'L' for hi, {level: [seconds per decision]})."""
    hi, lo, game_no, budget = args
    from games.bots import get_bot

    hi_seat = game_no % 2
    first_cutter = (game_no // 2) % 2
    bots = {hi_seat: (hi, get_bot("berrymandering", hi)),
            1 - hi_seat: (lo, get_bot("berrymandering", lo))}
    state = RULES.setup({"players": 2, "team_chooser": 1 - first_cutter,
                         "first_cutter": first_cutter}, 20_000 + game_no // 4)
    times = {hi: [], lo: []}
    ply = 0
    while not RULES.is_over(state):
        seat = RULES.to_move(state)[0]
        level, bot = bots[seat]
        t0 = time.perf_counter()
        move = bot.choose(RULES.view(state, seat), seat, seed=game_no * 1000 + ply,
                          budget_s=budget)
        times[level].append(time.perf_counter() - t0)
        state = RULES.apply(state, seat, move)
        ply += 1
    winners = RULES.result(state)["winners"]
    out = "W" if winners == [hi_seat] else "D" if not winners else "L"
    return hi, lo, out, times


def p95(xs):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(0.95 * len(xs)))] if xs else 0.0


def ladder(games, jobs, budget, pairs=ADJACENT):
    jobs_list = [(hi, lo, g, budget) for hi, lo in pairs for g in range(games)]
    tally = {p: {"W": 0, "D": 0, "L": 0} for p in pairs}
    times = {lv: [] for lv in LEVELS}
    t0 = time.perf_counter()
    with multiprocessing.Pool(jobs) as pool:
        done = 0
        for hi, lo, out, tm in pool.imap_unordered(play_game, jobs_list, chunksize=2):
            tally[(hi, lo)][out] += 1
            for lv, xs in tm.items():
                times[lv].extend(xs)
            done += 1
            if done % 100 == 0:
                print(f"  ... {done}/{len(jobs_list)} games", file=sys.stderr, flush=True)
    wall = time.perf_counter() - t0
    print(f"Berrymandering bot ladder: 2 players, standard variant, {games} games per pairing "
          f"(each board 4 times: seats and first cutter swapped), budget_s={budget}, "
          f"{jobs} processes, {wall:.0f} s")
    print()
    print(f"{'pairing (higher vs lower)':<28}{'win':>8}{'draw':>8}{'loss':>8}{'score':>8}"
          "   goal: win >= 75%")
    for hi, lo in pairs:
        t = tally[(hi, lo)]
        n = sum(t.values()) or 1
        ok = "ok" if t["W"] / n >= 0.75 else "BELOW 75%"
        score = (t["W"] + t["D"] / 2) / n
        print(f"{hi + ' vs ' + lo:<28}{t['W'] / n:>8.1%}{t['D'] / n:>8.1%}{t['L'] / n:>8.1%}"
              f"{score:>8.1%}   {ok}")
    print()
    print(f"{'level':<10}{'decisions':>10}{'mean s':>10}{'p95 s':>10}{'max s':>10}")
    for lv in LEVELS:
        xs = times[lv]
        if xs:
            print(f"{lv:<10}{len(xs):>10}{statistics.fmean(xs):>10.4f}{p95(xs):>10.4f}"
                  f"{max(xs):>10.3f}")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--speed", action="store_true", help="engine speed vs the reference")
    ap.add_argument("--ladder", action="store_true", help="the bots' strength ladder")
    ap.add_argument("--games", type=int, default=200, help="games per pairing (default 200)")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    ap.add_argument("--budget", type=float, default=1.0, help="budget_s per decision")
    ap.add_argument("--seconds", type=float, default=2.0, help="timing per speed figure")
    ap.add_argument("--only", default="", help="pairings like hard-medium,medium-easy")
    opts = ap.parse_args(argv)
    both = not opts.speed and not opts.ladder
    if opts.speed or both:
        speed(opts.seconds)
        print()
    if opts.ladder or both:
        pairs = [tuple(p.split("-")) for p in opts.only.split(",")] if opts.only else ADJACENT
        ladder(opts.games, opts.jobs, opts.budget, pairs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
