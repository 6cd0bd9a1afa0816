"""Helpers for the Mapmaker engine tests: build concrete positions from rulebook examples."""

import json

from games.engine import get_rules
from games.engine.graph import MIN_SIDE, brute_force_splittable, graph_splittable
from games.engine.mapmaker import DIRECTIONS, TURN_QUOTAS, board_for

RULES = get_rules("mapmaker")
DIRS = DIRECTIONS


def border(c1, c2):
    return {"type": "border", "between": [list(c1), list(c2)]}


def board_of(state):
    return board_for(state["board"], state["tier"])


def boundary(state, region):
    """The in-play edges between ``region`` and the rest of the board, as coordinate pairs."""
    region = {tuple(c) for c in region}
    index = board_of(state).index
    pairs = []
    for q, r in sorted(region):
        for dq, dr in DIRS:
            n = (q + dq, r + dr)
            if n in index and n not in region:
                pairs.append(((q, r), n))
    return pairs


def play(state, pairs):
    """Place borders in order, each by whoever is to move (no tie may be pending)."""
    for c1, c2 in pairs:
        assert state["pending"] == [], "a tie choice is pending"
        seat = RULES.to_move(state)[0]
        state = RULES.apply(state, seat, border(c1, c2))
    return state


def first_seat_for(border_index, closer, players):
    """The first seat that makes border number ``border_index`` (0-based) fall in ``closer``'s
    turn when every border is placed in order."""
    turn, placed = 0, 0
    while True:
        placed += TURN_QUOTAS[min(turn, len(TURN_QUOTAS) - 1)]
        if border_index < placed:
            return (closer - turn) % players
        turn += 1


def set_tokens(state, layout):
    """Move tokens so that county (q, r) holds (party, value) for each entry of ``layout``;
    tokens are swapped, so the token set of the game stays the same."""
    state = json.loads(json.dumps(state))
    index = board_of(state).index
    fixed = set()
    for (q, r), (party, value) in layout.items():
        target = index[(q, r)]
        source = next(
            i for i in range(len(state["party_at"]))
            if i not in fixed and state["party_at"][i] == party and state["value_at"][i] == value
        )
        for key in ("party_at", "value_at"):
            state[key][target], state[key][source] = state[key][source], state[key][target]
        fixed.add(target)
    return state


def district_of(state, coord):
    return RULES.view(state, None)["counties"][board_of(state).index[tuple(coord)]]["district"]


def check_final_position(state):
    """Every county in a district; every district connected, >= 4 and not splittable."""
    board = board_of(state)
    bordered = set(state["borders"])
    assert all(d >= 0 for d in state["district_of"])
    for k, d in enumerate(state["districts"]):
        verts = d["counties"]
        assert len(verts) >= MIN_SIDE
        local = {v: i for i, v in enumerate(verts)}
        adjacency = {i: [] for i in range(len(verts))}
        masks = [0] * len(verts)
        for v in verts:
            assert state["district_of"][v] == k
            for u, e in board.nbrs[v]:
                if e in bordered:
                    continue
                assert u in local, "a border-free edge leaves the district"
                adjacency[local[v]].append(local[u])
                masks[local[v]] |= 1 << local[u]
        seen, todo = {0}, [0]
        while todo:
            x = todo.pop()
            for y in adjacency[x]:
                if y not in seen:
                    seen.add(y)
                    todo.append(y)
        assert len(seen) == len(verts), "district not connected"
        assert not graph_splittable(adjacency)
        if len(verts) <= 14:
            assert not brute_force_splittable(masks)
