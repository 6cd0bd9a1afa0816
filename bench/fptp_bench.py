"""Strength ladder and decision times of the First Past the Post bots (seeded games).

    .venv/bin/python -m bench.fptp_bench [--games 200] [--from 0] [--jobs 2] [--budget 1.0]
                                         [--players 2,4] [--variant fptp] [--no-news]
    .venv/bin/python -m bench.fptp_bench --hands 8

Two players: each level against the one below (easy/random, medium/easy, hard/medium), the
higher level in seat 0 in half the games and seat 1 in the other half (each deal is played
both ways).  Goal (issue 13): the higher level wins >= 75% of its games.  Four players: one
bot of a level against three of the level below, the higher one in each seat in turn.  Goal:
it wins >= 50% (an even share would be 25%).  A shared win is counted apart, not as a win.

Then the mean and p95 seconds per decision of each level (every move a bot chose, all games
together).  Goal: hard <= 1 s.  The simultaneous bid is played truly at once: every bidder
decides from the same position before any bid is applied.

With ``--try NAME=VALUE`` (repeatable), every game with a hard bot is also played, with the
same deals and seeds, by a hard bot with that setting changed, and both rows are printed side
by side: a tuning idea is judged against the bot as it is, in the same run.  A setting picked
as the best of several on the same games may only have been lucky on those deals: play it
again on others with ``--from 200`` (games 200 to 399) before believing it.

With ``--hands GAMES``, instead: how well the hard bot's guesses of the others' hands match the
hands medium bots really hold at a four-player table, per band of card values, with both of
its leans towards high cards (``keeps``, used against one player, and ``crowd_keeps``).
"""

import argparse
import ast
import multiprocessing
import statistics
import sys
import time

LEVELS = ("random", "easy", "medium", "hard")
ADJACENT = [("easy", "random"), ("medium", "easy"), ("hard", "medium")]


def play_game(args):
    """One game: (players, hi, lo, changed, outcome 'W' / 'D' / 'L' for the higher level,
    {level: [seconds per decision]}, plies); ``changed`` are hard bot settings to try."""
    players, hi, lo, changed, game_no, budget, options = args
    from games.bots import get_bot
    from games.bots.fptp import HardBot
    from games.engine import get_rules

    def bot(level):
        # a subclass carries the tried settings, so the registered bot is never altered
        if level == "hard" and changed:
            return type("TriedHardBot", (HardBot,), dict(changed))()
        return get_bot("fptp", level)

    rules = get_rules("fptp")
    hi_seat = game_no % players
    levels = [hi if s == hi_seat else lo for s in range(players)]
    bots = {lv: bot(lv) for lv in set(levels)}
    state = rules.setup({"players": players, **options}, 20_000 + game_no // players)
    times = {hi: [], lo: []}
    ply = 0
    while not rules.is_over(state):
        seats = rules.to_move(state)
        views = rules.views(state, seats)  # a simultaneous step: all decide at once
        moves = []
        for seat, view in zip(seats, views, strict=True):
            level = levels[seat]
            t0 = time.perf_counter()
            move = bots[level].choose(view, seat, seed=game_no * 100_000 + ply, budget_s=budget)
            times[level].append(time.perf_counter() - t0)
            moves.append((seat, move))
        for seat, move in moves:
            if move in rules.legal_moves(state, seat):  # one "play on" ends an end vote
                state = rules.apply(state, seat, move)
                ply += 1
        if ply > 5000:
            raise RuntimeError("game did not end")
    winners = rules.result(state)["winners"]
    if winners == [hi_seat]:
        out = "W"
    elif hi_seat in winners:
        out = "D"
    else:
        out = "L"
    return players, hi, lo, changed, out, times, ply


def hand_guesses(games, leans, players=4, guesses=40):
    """{lean: (truly held, guessed held) per card value}: over every third bid of seat 0 in
    ``games`` games of medium bots, how often each card seat 0 cannot see is really in
    another seat's hand, and how often the hard bot's guesses (with that lean) put it there."""
    import random

    from games.bots import fptp, get_bot
    from games.engine import get_rules

    rules = get_rules("fptp")
    medium = get_bot("fptp", "medium")
    unseen = [0] * 51
    held = [0] * 51
    guessed = {lean: [0.0] * 51 for lean in leans}
    for game_no in range(games):
        state = rules.setup({"players": players}, 30_000 + game_no)
        ply = 0
        while not rules.is_over(state):
            seats = rules.to_move(state)
            views = rules.views(state, seats)
            if state["step"] == "bid" and 0 in seats and ply % 3 == 0:
                view = views[seats.index(0)]
                mine = set(view["hand"]) | ({view["my_bid"]} if view["my_bid"] else set())
                theirs = {c for s in range(1, players)
                          for c in state["hands"][s] + [state["bids"][s]] if c is not None}
                for c in set(range(1, 51)) - set(view["budget_discard"]) - mine:
                    unseen[c] += 1
                    held[c] += c in theirs
                for lean in leans:
                    rng = random.Random(ply)
                    for hands, _pile in fptp.sample_hands(rules, view, 0, rng, guesses, True,
                                                          lean):
                        for s in range(1, players):
                            for c in hands[s]:
                                guessed[lean][c] += 1 / guesses
            moves = [(s, medium.choose(v, s, seed=game_no * 100_000 + ply))
                     for s, v in zip(seats, views, strict=True)]
            for seat, move in moves:
                if move in rules.legal_moves(state, seat):
                    state = rules.apply(state, seat, move)
                    ply += 1
    return unseen, held, guessed


def print_hand_guesses(games, leans):
    unseen, held, guessed = hand_guesses(games, leans)
    print(f"Hands at a four-player table of medium bots ({games} games): how often a card the "
          f"bot cannot see is held by another player, truly and as guessed with each lean")
    print(f"{'cards':<10}{'truly':>8}" + "".join(f"{'lean ' + str(x):>12}" for x in leans))
    for lo in range(1, 51, 5):
        band = range(lo, lo + 5)
        n = sum(unseen[c] for c in band) or 1
        print(f"{f'{lo}-{lo + 4}':<10}{sum(held[c] for c in band) / n:>8.2f}"
              + "".join(f"{sum(guessed[x][c] for c in band) / n:>12.2f}" for x in leans))


def p95(xs):
    if not xs:
        return 0.0
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(0.95 * len(xs)))]


def setting(ap, text):
    """(name, value) of a ``--try NAME=VALUE``; a name the hard bot lacks is refused."""
    from games.bots.fptp import HardBot

    name, sep, raw = text.partition("=")
    if not sep or not hasattr(HardBot, name) or name.startswith("_") or \
            callable(getattr(HardBot, name)):
        ap.error(f"--try {text}: the hard bot has no setting called {name!r}")
    try:
        return name, ast.literal_eval(raw)
    except (ValueError, SyntaxError):
        ap.error(f"--try {text}: {raw!r} is not a Python value (a number, None, True, ...)")


def label(hi, lo, changed):
    tried = ", ".join(f"{name}={value!r}" for name, value in changed)
    return f"{hi} ({tried}) vs {lo}" if changed else f"{hi} vs {lo}"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200, help="games per pairing (default 200)")
    ap.add_argument("--from", dest="first", type=int, default=0, metavar="N",
                    help="number of the first game (default 0): other deals and seeds")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    ap.add_argument("--budget", type=float, default=1.0, help="budget_s per decision (1.0)")
    ap.add_argument("--players", default="2,4", help="table sizes, e.g. 2,4 (default)")
    ap.add_argument("--only", default="", help="pairings like hard-medium,medium-easy")
    ap.add_argument("--variant", default="fptp", choices=["fptp", "av"])
    ap.add_argument("--no-news", action="store_true", help="play without news cards")
    ap.add_argument("--try", dest="tries", action="append", default=[], metavar="NAME=VALUE",
                    help="also play each hard bot's games with this HardBot setting changed, "
                         "e.g. crowd_keeps=1.5 (repeatable: all changed together)")
    ap.add_argument("--hands", type=int, default=0, metavar="GAMES",
                    help="instead: compare the hard bot's guessed hands with the real ones "
                         "over GAMES games (8 take about 20 s)")
    opts = ap.parse_args(argv)
    if opts.first < 0:
        ap.error(f"--from {opts.first}: games are numbered from 0")
    if opts.hands:
        from games.bots.fptp import HardBot

        print_hand_guesses(opts.hands, [HardBot.keeps, HardBot.crowd_keeps])
        return 0

    changed = tuple(setting(ap, text) for text in opts.tries)
    pairs = [tuple(p.split("-")) for p in opts.only.split(",")] if opts.only else ADJACENT
    tables = [int(x) for x in opts.players.split(",")]
    options = {"variant": opts.variant, "news": not opts.no_news}
    rows = [(hi, lo, ()) for hi, lo in pairs]
    if changed:
        rows += [(hi, lo, changed) for hi, lo in pairs if "hard" in (hi, lo)]
    games = range(opts.first, opts.first + opts.games)
    jobs = [(n, hi, lo, ch, g, opts.budget, options) for n in tables for hi, lo, ch in rows
            for g in games]
    t0 = time.perf_counter()
    tally = {(n, hi, lo, ch): {"W": 0, "D": 0, "L": 0} for n in tables for hi, lo, ch in rows}
    times = {lv: [] for lv in LEVELS + ("hard (tried)",)}
    plies = []
    with multiprocessing.Pool(opts.jobs) as pool:
        for n, hi, lo, ch, out, tm, ply in pool.imap_unordered(play_game, jobs, chunksize=1):
            tally[(n, hi, lo, ch)][out] += 1
            plies.append(ply)
            for lv, xs in tm.items():
                times["hard (tried)" if ch and lv == "hard" else lv].extend(xs)
            done = sum(sum(t.values()) for t in tally.values())
            if done % 50 == 0:
                print(f"  ... {done}/{len(jobs)} games", file=sys.stderr, flush=True)
    wall = time.perf_counter() - t0

    news = "without news cards" if opts.no_news else "with news cards"
    print(f"First Past the Post bot ladder: {opts.games} games per pairing (games "
          f"{games.start}-{games.stop - 1}), {opts.variant}, "
          f"{news}, budget_s={opts.budget}, {opts.jobs} processes, {wall:.0f} s "
          f"(mean {statistics.fmean(plies):.0f} plies per game)")
    for n in tables:
        print()
        goal = 0.75 if n == 2 else 0.5
        what = "1 v 1, seats swapped" if n == 2 else f"1 v {n - 1} of the level below"
        print(f"{n} players ({what}); goal: higher level wins >= {goal:.0%}")
        width = max(28, *(len(label(hi, lo, ch)) + 2 for hi, lo, ch in rows))
        print(f"{'pairing (higher vs lower)':<{width}}{'win':>8}{'shared':>8}{'loss':>8}   goal")
        for hi, lo, ch in rows:
            t = tally[(n, hi, lo, ch)]
            total = sum(t.values()) or 1
            ok = "ok" if t["W"] / total >= goal else f"BELOW {goal:.0%}"
            print(f"{label(hi, lo, ch):<{width}}{t['W'] / total:>8.1%}{t['D'] / total:>8.1%}"
                  f"{t['L'] / total:>8.1%}   {ok}")
    print()
    print(f"{'level':<14}{'decisions':>10}{'mean s':>10}{'p95 s':>10}{'max s':>10}")
    for lv, xs in times.items():
        if xs:
            print(f"{lv:<14}{len(xs):>10}{statistics.fmean(xs):>10.4f}{p95(xs):>10.4f}"
                  f"{max(xs):>10.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
