"""Ensemble speed: 1,000 random legal Mapmaker maps of the 73-county board, three ways.

Run:  .venv/bin/python -m bench.ensemble_bench [--maps N] [--seed S] [--steps N]

In the same run:

* sampler    - ``games.engine.mapmaker_lesson.ensemble`` in one process, and in two processes
               (maps 0-499 and 500-999, forked as a prefork worker pool would be; the wall
               time includes starting them), for a finished random 4-player game;
* reference  - the same maps drawn through the engine contract: from the game's starting
               position, ``to_move`` / ``legal_moves`` / a random choice / ``apply`` until the
               board is full, with map i's random source (``lesson.ensemble_rng(seed, i)``);
               the sampler makes exactly the engine's random choices, so the seat lists must
               be identical, and the bench says whether they are;
* GerryChain - for context, the field's ensemble tool: ReCom steps on the same county graph
               (population 1 per county, as many districts as the sampler's maps have on
               average, +-25% population); only its speed is comparable (ReCom draws
               population-balanced plans, not Mapmaker maps).  Install it with
               ``.venv/bin/pip install gerrychain``; without it this part says why and the rest
               still runs.

Then a short profile of the sampler says where its time goes.  Figures are printed, never
asserted.  The goal: 1,000 maps in at most 3 s wall on a 2-core machine.
"""

import argparse
import cProfile
import multiprocessing
import os
import pstats
import random
import time
import warnings

from games.engine import get_rules
from games.engine.lesson import ensemble_rng
from games.engine.mapmaker import board_for
from games.engine.mapmaker_lesson import (
    ensemble,
    ensemble_summary,
    game_seats,
    parties_of,
    random_map,
)

RULES = get_rules("mapmaker")
GOAL_S = 3.0


def engine_playout(state, rng):
    while not RULES.is_over(state):
        seat = RULES.to_move(state)[0]
        state = RULES.apply(state, seat, rng.choice(RULES.legal_moves(state, seat)))
    return state


def reference_ensemble(start, count, seed):
    return [game_seats(engine_playout(start, ensemble_rng(seed, i))) for i in range(count)]


def _chunk(args):
    state, seed, start, stop = args
    return ensemble(state, seed=seed, start=start, stop=stop)


def two_processes(state, count, seed):
    half = count // 2
    pool = multiprocessing.get_context("fork").Pool(2)
    parts = pool.map(_chunk, [(state, seed, 0, half), (state, seed, half, count)])
    pool.close()
    pool.join()  # reaped, so their CPU time is counted
    return parts[0] + parts[1]


def timed(fn, *args):
    """(result, wall seconds, CPU seconds of this process and its finished children)."""
    before = os.times()
    start = time.perf_counter()
    out = fn(*args)
    wall = time.perf_counter() - start
    after = os.times()
    cpu = sum(after[:4]) - sum(before[:4])
    return out, wall, cpu


def histogram_text(histogram):
    return " ".join(f"{k}:{c}" for k, c in enumerate(histogram) if c)


def gerrychain_steps(state, districts, steps, seed):
    """(wall and CPU seconds for ``steps`` ReCom steps, seats lists); ImportError without
    GerryChain."""
    from functools import partial

    import networkx as nx
    from gerrychain import Graph, MarkovChain, Partition
    from gerrychain.accept import always_accept
    from gerrychain.constraints import within_percent_of_ideal_population
    from gerrychain.partition import recursive_tree_part
    from gerrychain.proposals import recom
    from gerrychain.updaters import Tally

    board = board_for(state["board"], state["tier"])
    parties = state["parties"]
    g = nx.Graph()
    g.add_nodes_from(range(board.size))
    g.add_edges_from(board.ends)
    for v in range(board.size):
        g.nodes[v]["population"] = 1
        for p in parties:
            g.nodes[v][f"votes{p}"] = state["value_at"][v] if state["party_at"][v] == p else 0
    graph = Graph.from_networkx(g)
    rng = random.Random(seed)
    target, epsilon = board.size / districts, 0.25
    updaters = {"population": Tally("population")}
    updaters.update({f"votes{p}": Tally(f"votes{p}") for p in parties})
    assignment = recursive_tree_part(graph, range(districts), target, "population", epsilon,
                                     rng=rng)
    initial = Partition(graph, assignment, updaters=updaters)
    proposal = partial(recom, pop_col="population", pop_target=target, epsilon=epsilon)
    chain = MarkovChain(proposal, [within_percent_of_ideal_population(initial, epsilon)],
                        always_accept, initial, total_steps=steps, rng=rng)
    tallies = []
    start, cpu = time.perf_counter(), time.process_time()
    for partition in chain:
        tallies.append([partition[f"votes{p}"] for p in parties])
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    seats_lists = []
    for tally in tallies:  # seats counted after timing: ties go to a random tied party
        seats = [0] * len(parties)
        for d in tally[0]:
            votes = [t[d] for t in tally]
            top = max(votes)
            seats[rng.choice([j for j, v in enumerate(votes) if v == top])] += 1
        seats_lists.append(seats)
    return seconds, cpu, seats_lists


def profile_split(state, maps, seed):
    """Shares of the sampler's time by kind of work (cumulative times of a cProfile run over
    ``maps`` maps), and the number of calls per function."""
    profiler = cProfile.Profile()
    profiler.enable()
    ensemble(state, seed=seed, start=0, stop=maps)
    profiler.disable()
    stats = pstats.Stats(profiler).stats
    cumulative, calls = {}, {}
    for (_, _, func), (_, ncalls, _, cumtime, _) in stats.items():
        cumulative[func] = cumulative.get(func, 0.0) + cumtime
        calls[func] = calls.get(func, 0) + ncalls
    total = cumulative["ensemble"]
    analysis = cumulative.get("analyse_component", 0.0)
    local = cumulative.get("_keeps_split", 0.0) + cumulative.get("_newly_unsafe", 0.0)
    split = {
        "block analysis (graph.analyse_component, 8-9 county brute force)": analysis / total,
        "local proofs (a path keeps the split; new unsafe edges near the border)":
            local / total,
        "bookkeeping (random choices, legal list, vote tallies, seeding, the loop)":
            (total - analysis - local) / total,
    }
    return split, calls


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--maps", type=int, default=1000, help="maps in the ensemble (1000)")
    parser.add_argument("--seed", type=int, default=2024, help="game and ensemble seed")
    parser.add_argument("--steps", type=int, default=1000, help="GerryChain ReCom steps (1000)")
    args = parser.parse_args(argv)
    count, seed = args.maps, args.seed

    start = RULES.setup({"players": 4}, seed)
    game = engine_playout(start, random.Random(seed))
    size = board_for(start["board"], start["tier"]).size

    load = os.getloadavg()[0]
    two, two_s, two_cpu = timed(two_processes, game, count, seed)
    one, one_s, one_cpu = timed(ensemble, game, count, seed)
    ref, ref_s, ref_cpu = timed(reference_ensemble, start, count, seed)
    same = sum(1 for a, b in zip(one, ref, strict=True) if a == b)

    print(f"Ensemble of {count:,} random legal maps, {size}-county board (4 players), "
          f"seed {seed}; {os.cpu_count()} cores, load average {load:.2f} before the run "
          "(other work on the machine inflates wall times, not CPU times)")
    header = (f"{'':<40} {'wall s':>8} {'CPU s':>7} {'maps/s (wall)':>14} "
              f"{'vs reference (wall)':>20}")
    print(header)
    print("-" * len(header))
    for label, seconds, cpu in (("sampler, 1 process", one_s, one_cpu),
                                ("sampler, 2 processes (half each)", two_s, two_cpu),
                                ("reference: engine contract playouts", ref_s, ref_cpu)):
        print(f"{label:<40} {seconds:>8.2f} {cpu:>7.2f} {count / seconds:>14.0f} "
              f"{ref_s / seconds:>19.1f}x")
    print(f"same maps as the reference: {'yes' if same == count else 'NO'} "
          f"({same:,} of {count:,} seat lists equal); 1 and 2 processes equal: "
          f"{'yes' if one == two else 'NO'}")
    best = min(one_s, two_s)
    print(f"goal: {count:,} maps in at most {GOAL_S:.0f} s wall: "
          f"{'met' if best <= GOAL_S * count / 1000 else 'NOT met'} ({best:.2f} s)")

    summary = ensemble_summary(game, one)
    mean_districts = sum(sum(s) for s in one) / len(one)
    print(f"\nSeats per party on the random maps (districts per map: mean {mean_districts:.1f};"
          " k:maps)")
    for row in summary["parties"]:
        print(f"  {row['name']:<18} this game {row['seats']:>2}  at least as many in "
              f"{row['at_least'] * 100:5.1f}% of maps, as few in {row['at_most'] * 100:5.1f}%  "
              f"| {histogram_text(row['histogram'])}")

    districts = round(mean_districts)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            chain_s, chain_cpu, chain_seats = gerrychain_steps(game, districts, args.steps,
                                                               seed)
    except ImportError as exc:
        print(f"\nGerryChain: not installed ({exc}); `.venv/bin/pip install gerrychain` to "
              "compare.")
    except Exception as exc:  # noqa: BLE001 - context only: say why and go on
        print(f"\nGerryChain: ReCom failed on this graph ({type(exc).__name__}: {exc}).")
    else:
        print(f"\nGerryChain ReCom, same {size}-county graph, {districts} districts, population 1"
              f" per county (+-25%): {args.steps:,} steps in {chain_s:.2f} s wall, "
              f"{chain_cpu:.2f} s CPU ({chain_cpu / args.steps * 1000:.2f} s CPU per 1,000 "
              f"steps; the sampler: {one_cpu / count * 1000:.2f} s CPU per 1,000 maps)")
        chain_summary = ensemble_summary(game, chain_seats)
        for row in chain_summary["parties"]:
            print(f"  {row['name']:<18} | {histogram_text(row['histogram'])}")

    maps = min(200, count)
    split, calls = profile_split(game, maps, seed + 1)
    borders = sum(len(random_map(game, ensemble_rng(seed, i))["borders"]) for i in range(50)) / 50
    print(f"\nWhere the sampler's time goes (cProfile over {maps} maps, share of profiled time):")
    for kind, share in split.items():
        print(f"  {share * 100:5.1f}%  {kind}")
    print(f"  per map: {borders:.0f} borders, {calls.get('_keeps_split', 0) / maps:.0f} local "
          f"proofs tried, {calls.get('analyse_component', 0) / maps:.0f} block analyses "
          f"(components that split, or whose remembered split broke)")
    print(f"  parties: {', '.join(p['name'] for p in parties_of(game))}")


if __name__ == "__main__":
    main()
