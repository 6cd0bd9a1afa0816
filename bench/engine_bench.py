"""Mapmaker engine speed: random legal playouts per second, engine vs a from-scratch reference.

Run:  .venv/bin/python -m bench.engine_bench [--seconds N] [--boards 2,3,4]   (or make bench-engine)

Both sides play complete random games on the 2-, 3- and 4-player boards (37, 55, 73 counties)
in the same run:

* engine    - the real contract: ``to_move``, ``legal_moves``, a random choice, ``apply`` (tie
              choices included), on JSON-able states that are copied on every move.
* reference - a straightforward implementation from scratch: a networkx graph of the counties;
              the legal borders are found by trying each free edge (remove it, recompute the
              connected components, reject any part < 4 counties) and after every border all
              components are recomputed with networkx and each non-district one is re-tested
              with the same exact splittability test (``graph_splittable``).

Before timing, one game per board is replayed move by move in the reference to check that both
agree on every legal set and every district.  The figures are printed, never asserted.
"""

import argparse
import random
import time

import networkx as nx

from games.engine import get_rules
from games.engine.graph import graph_splittable
from games.engine.mapmaker import board_for

RULES = get_rules("mapmaker")


class Reference:
    """Mapmaker borders and districts, recomputed from scratch with networkx."""

    def __init__(self, state):
        board = board_for(state["board"], state["tier"])
        self.coords = board.coords
        self.party_at = state["party_at"]
        self.value_at = state["value_at"]
        self.parties = state["parties"]
        self.graph = nx.Graph()
        self.graph.add_nodes_from(range(len(self.coords)))
        self.graph.add_edges_from(board.ends)
        self.district_of = {}
        self.districts = []
        self._form_districts(None)

    def legal_borders(self):
        g = self.graph
        legal = []
        for u, v in list(g.edges()):
            if u in self.district_of:
                continue
            g.remove_edge(u, v)
            ok = all(len(c) >= 4 for c in nx.connected_components(g))
            g.add_edge(u, v)
            if ok:
                legal.append((min(u, v), max(u, v)))
        return legal

    def place(self, edge, rng):
        self.graph.remove_edge(*edge)
        self._form_districts(rng)

    def _form_districts(self, rng):
        for comp in nx.connected_components(self.graph):
            first = next(iter(comp))
            if first in self.district_of:
                continue
            verts = sorted(comp)
            index = {v: i for i, v in enumerate(verts)}
            adjacency = {index[v]: [index[u] for u in self.graph[v]] for v in verts}
            if graph_splittable(adjacency):
                continue
            votes = [0, 0, 0, 0]
            for c in verts:
                if self.party_at[c] is not None:
                    votes[self.party_at[c]] += self.value_at[c]
            top = max(votes[p] for p in self.parties)
            leaders = [p for p in self.parties if votes[p] == top]
            if len(leaders) == 1:
                winner = leaders[0]
            else:  # a tie: the closer chooses (at random in a timed playout)
                winner = rng.choice(leaders) if rng is not None else None
            for c in verts:
                self.district_of[c] = len(self.districts)
            self.districts.append((verts, winner))

    def is_over(self):
        return len(self.district_of) == len(self.coords)


def engine_playout(players, seed):
    rng = random.Random(seed)
    state = RULES.setup({"players": players}, seed)
    moves = 0
    while not RULES.is_over(state):
        seat = RULES.to_move(state)[0]
        state = RULES.apply(state, seat, rng.choice(RULES.legal_moves(state, seat)))
        moves += 1
    return moves


def reference_playout(players, seed):
    rng = random.Random(seed)
    ref = Reference(RULES.setup({"players": players}, seed))
    moves = 0
    while not ref.is_over():
        ref.place(rng.choice(ref.legal_borders()), rng)
        moves += 1
    return moves


def cross_check(players, seed):
    """Play one engine game and replay it in the reference, comparing every step."""
    rng = random.Random(seed)
    state = RULES.setup({"players": players}, seed)
    ref = Reference(state)
    board = board_for(state["board"], state["tier"])
    index = board.index
    while not RULES.is_over(state):
        seat = RULES.to_move(state)[0]
        moves = RULES.legal_moves(state, seat)
        if moves[0]["type"] == "border":
            got = {tuple(sorted(index[tuple(c)] for c in m["between"])) for m in moves}
            assert got == set(ref.legal_borders()), "legal borders differ"
        move = rng.choice(moves)
        state = RULES.apply(state, seat, move)
        if move["type"] == "border":
            ref.place(tuple(sorted(index[tuple(c)] for c in move["between"])), None)
            mine = sorted((sorted(d["counties"]), None if d["tied_parties"] else d["winner"])
                          for d in state["districts"])
            theirs = sorted((verts, winner) for verts, winner in ref.districts)
            assert mine == theirs, "districts or their winners differ"
    assert ref.is_over()


def rate(fn, players, seconds, seed0):
    start = time.process_time()
    games = moves = 0
    while True:
        moves += fn(players, seed0 + games)
        games += 1
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return games / elapsed, moves / games


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0,
                        help="time per implementation per board (default 10)")
    parser.add_argument("--boards", default="2,3,4", help="player counts (default 2,3,4)")
    args = parser.parse_args(argv)
    player_counts = [int(p) for p in args.boards.split(",")]
    for players in player_counts:
        cross_check(players, 1000 + players)
    print("cross-check: engine and reference agree on every legal set and district")
    header = (f"{'board':<22} {'engine playouts/s':>18} {'reference playouts/s':>21} "
              f"{'speed-up':>9} {'moves/game':>11}")
    print(header)
    print("-" * len(header))
    for players in player_counts:
        size = board_for("standard", players).size
        eng, moves = rate(engine_playout, players, args.seconds, 0)
        ref, _ = rate(reference_playout, players, args.seconds, 0)
        label = f"{players} players, {size} counties"
        print(f"{label:<22} {eng:>18.1f} {ref:>21.2f} {eng / ref:>8.1f}x {moves:>11.1f}",
              flush=True)


if __name__ == "__main__":
    main()
