"""Strength ladder of the Mapmaker bots: a seeded round robin on the 2-player board.

    .venv/bin/python -m bench.bots_ladder [--games 200] [--jobs 2] [--budget 1.0] [--pairs all]

The default budget is the production one (settings.BOT_BUDGET_S = 1.0).  The medium and hard
bots stop after a fixed amount of simulation, so the budget only binds on a slow or busy
machine; a lower budget (e.g. 0.3) is fine while iterating.  A full adjacent ladder at 200
games takes ~15-20 minutes on 2 cores (hard averages ~0.15-0.2 s per border).

Each pairing plays ``--games`` games (half with each bot in the first seat) and prints the
win/draw/loss rates from the higher level's point of view, then the mean and p95 time per
move of each level.  Goal (issue 5): each level beats the one below in >= 75% of games, and
hard takes <= 1 s per border.
"""

import argparse
import multiprocessing
import statistics
import sys
import time

LEVELS = ("random", "easy", "medium", "hard")
ADJACENT = [("easy", "random"), ("medium", "easy"), ("hard", "medium")]


def play_game(args):
    """Play one game; returns (outcome for `hi`: 'W'/'D'/'L', {level: [move seconds]}, plies)."""
    hi, lo, game_no, budget, rules_factory = args
    from games.bots import get_bot

    rules = rules_factory() if rules_factory else _engine_rules()
    hi_seat = game_no % 2  # seats swapped every other game
    bots = {hi_seat: (hi, get_bot("mapmaker", hi)), 1 - hi_seat: (lo, get_bot("mapmaker", lo))}
    state = rules.setup({"players": 2, "first_seat": 0}, 10_000 + game_no // 2)
    times = {hi: [], lo: []}
    ply = 0
    while not rules.is_over(state):
        seat = rules.to_move(state)[0]
        level, bot = bots[seat]
        t0 = time.perf_counter()
        move = bot.choose(rules.view(state, seat), seat, seed=game_no * 1000 + ply, budget_s=budget)
        dt = time.perf_counter() - t0
        if move.get("type") == "border":
            times[level].append(dt)
        state = rules.apply(state, seat, move)
        ply += 1
        if ply > 1000:
            raise RuntimeError("game did not end")
    winners = rules.result(state)["winners"]
    if hi_seat in winners and len(winners) == 1:
        out = "W"
    elif hi_seat in winners:
        out = "D"
    else:
        out = "L"
    return hi, lo, out, times


def _engine_rules():
    from games.engine import get_rules

    return get_rules("mapmaker")


def p95(xs):
    if not xs:
        return 0.0
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(0.95 * len(xs)))]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200, help="games per pairing (default 200)")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    ap.add_argument("--budget", type=float, default=1.0, help="budget_s per move (default 1.0)")
    ap.add_argument(
        "--pairs", default="all", help="'all' (every pair) or 'adjacent' (each level vs the one below)"
    )
    ap.add_argument("--only", default="", help="comma list like hard-medium,medium-easy")
    opts = ap.parse_args(argv)

    if opts.only:
        pairs = [tuple(p.split("-")) for p in opts.only.split(",")]
    elif opts.pairs == "adjacent":
        pairs = ADJACENT
    else:
        pairs = [(LEVELS[j], LEVELS[i]) for i in range(len(LEVELS)) for j in range(i + 1, len(LEVELS))]
        pairs.sort(key=lambda p: (LEVELS.index(p[0]) - LEVELS.index(p[1]), LEVELS.index(p[0])))
    jobs = [(hi, lo, g, opts.budget, None) for hi, lo in pairs for g in range(opts.games)]
    t0 = time.perf_counter()
    tally = {p: {"W": 0, "D": 0, "L": 0} for p in pairs}
    times = {lv: [] for lv in LEVELS}
    with multiprocessing.Pool(opts.jobs) as pool:
        for hi, lo, out, tm in pool.imap_unordered(play_game, jobs, chunksize=2):
            tally[(hi, lo)][out] += 1
            for lv, xs in tm.items():
                times[lv].extend(xs)
            done = sum(sum(t.values()) for t in tally.values())
            if done % 50 == 0:
                print(f"  ... {done}/{len(jobs)} games", file=sys.stderr, flush=True)
    wall = time.perf_counter() - t0

    print(f"Mapmaker bot ladder: 2 players, {opts.games} games per pairing, seats swapped, "
          f"budget_s={opts.budget}, {opts.jobs} processes, {wall:.0f} s")
    print()
    print(f"{'pairing (higher vs lower)':<28}{'win':>8}{'draw':>8}{'loss':>8}   goal")
    for hi, lo in pairs:
        t = tally[(hi, lo)]
        n = sum(t.values()) or 1
        ok = "ok" if t["W"] / n >= 0.75 else "BELOW 75%"
        print(f"{hi + ' vs ' + lo:<28}{t['W'] / n:>8.1%}{t['D'] / n:>8.1%}{t['L'] / n:>8.1%}   {ok}")
    print()
    print(f"{'level':<10}{'borders':>10}{'mean s/move':>14}{'p95 s/move':>14}{'max':>10}")
    for lv in LEVELS:
        xs = times[lv]
        if xs:
            print(f"{lv:<10}{len(xs):>10}{statistics.fmean(xs):>14.4f}{p95(xs):>14.4f}{max(xs):>10.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
