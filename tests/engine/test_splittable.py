"""The block/cut-vertex splittability test against a brute-force oracle (graph.py)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.graph import analyse_component, brute_force_splittable, graph_splittable
from games.engine.mapmaker import DIRECTIONS


def build(vertices, edges):
    """nbrs in the engine's format for vertices 0..n-1 and a list of (a, b) edges."""
    nbrs = [[] for _ in range(vertices)]
    for e, (a, b) in enumerate(edges):
        nbrs[a].append((b, e))
        nbrs[b].append((a, e))
    return nbrs


def reach(start, nbrs, cut, within=None):
    """The counties reachable from ``start`` without crossing an edge in ``cut`` (nor leaving
    ``within``, when given)."""
    seen = {start}
    todo = [start]
    while todo:
        v = todo.pop()
        for u, e in nbrs[v]:
            if e not in cut and u not in seen and (within is None or u in within):
                seen.add(u)
                todo.append(u)
    return seen


def oracle(root, nbrs, bordered):
    """Component, splittability and unsafe bridges by exhaustive search."""
    comp = reach(root, nbrs, bordered)
    verts = sorted(comp)
    index = {v: i for i, v in enumerate(verts)}
    adj = [0] * len(verts)
    free = set()
    for v in verts:
        for u, e in nbrs[v]:
            if e not in bordered:
                adj[index[v]] |= 1 << index[u]
                free.add(e)
    split = brute_force_splittable(adj)
    unsafe = set()
    for e in free:
        cut = set(bordered) | {e}
        sizes = []
        seen = set()
        for v in verts:
            if v in seen:
                continue
            part = reach(v, nbrs, cut)
            seen |= part
            sizes.append(len(part))
        if min(sizes) < 4:
            unsafe.add(e)
    return comp, free, split, unsafe


def check(root, nbrs, bordered):
    verts, free, split, unsafe, witness = analyse_component(root, nbrs, bordered, {})
    comp, ofree, osplit, ounsafe = oracle(root, nbrs, bordered)
    assert set(verts) == comp and len(verts) == len(comp)
    assert sorted(free) == sorted(ofree)
    assert split == osplit, (len(comp), sorted(comp))
    if len(comp) >= 4:  # the game never has smaller groups
        assert set(unsafe) == ounsafe
    if witness is not None:  # a genuine split: both sides connected and at least 4
        assert split and 4 <= len(witness) <= len(comp) - 4
        assert connected_within(set(witness), nbrs, bordered)
        assert connected_within(comp - set(witness), nbrs, bordered)
    return split


def connected_within(part, nbrs, bordered):
    return reach(next(iter(part)), nbrs, bordered, within=part) == part


@st.composite
def hex_regions(draw, max_size=14):
    """A random connected hex region grown from (0, 0), with random edges bordered."""
    target = draw(st.integers(1, max_size))
    cells = [(0, 0)]
    cellset = {(0, 0)}
    while len(cells) < target:
        q, r = cells[draw(st.integers(0, len(cells) - 1))]
        dq, dr = DIRECTIONS[draw(st.integers(0, 5))]
        c = (q + dq, r + dr)
        if c not in cellset:
            cellset.add(c)
            cells.append(c)
    index = {c: i for i, c in enumerate(cells)}
    edges = []
    for (q, r), i in index.items():
        for dq, dr in DIRECTIONS[:3]:
            j = index.get((q + dq, r + dr))
            if j is not None:
                edges.append((i, j))
    bordered = draw(st.sets(st.integers(0, max(len(edges) - 1, 0)), max_size=len(edges)))
    return len(cells), edges, bordered & set(range(len(edges)))


@settings(max_examples=600, deadline=None)
@given(hex_regions())
def test_hex_regions_with_dangling_borders_match_oracle(region):
    n, edges, bordered = region
    check(0, build(n, edges), bordered)


@settings(max_examples=300, deadline=None)
@given(hex_regions(max_size=13).filter(lambda reg: reg[0] >= 8), st.data())
def test_sparse_borders_near_the_threshold(region, data):
    """Regions of 8-13 counties with few borders: the cases where splits barely exist."""
    n, edges, _ = region
    k = data.draw(st.integers(0, 4))
    bordered = set(data.draw(st.lists(st.integers(0, len(edges) - 1), max_size=k)))
    root = data.draw(st.integers(0, n - 1))
    check(root, build(n, edges), bordered)


@st.composite
def small_graphs(draw):
    n = draw(st.integers(1, 12))
    pairs = [(a, b) for a in range(n) for b in range(a + 1, n)]
    density = draw(st.floats(0.05, 0.6))
    edges = [p for p in pairs if draw(st.floats(0, 1)) < density]
    return n, edges


@settings(max_examples=400, deadline=None)
@given(small_graphs())
def test_random_small_graphs_match_oracle(graph):
    n, edges = graph
    check(0, build(n, edges), set())


def test_known_shapes():
    path8 = {i: [j for j in (i - 1, i + 1) if 0 <= j < 8] for i in range(8)}
    assert graph_splittable(path8)  # 4 + 4
    cycle9 = {i: [(i - 1) % 9, (i + 1) % 9] for i in range(9)}
    assert graph_splittable(cycle9)
    star9 = {0: list(range(1, 9)), **{i: [0] for i in range(1, 9)}}
    assert not graph_splittable(star9)
    seven = {i: [j for j in range(7) if j != i] for i in range(7)}
    assert not graph_splittable(seven)
    # two triangles joined through a centre plus a pendant pair: 8 counties, no 4 + 4 split
    spider = {0: [1, 2, 3, 4, 5, 6], 1: [0, 2], 2: [0, 1], 3: [0, 4], 4: [0, 3],
              5: [0, 6, 7], 6: [0, 5], 7: [5]}
    assert not graph_splittable(spider)
    # 10 and more counties: decided by the block method, not by brute force
    path10 = {i: [j for j in (i - 1, i + 1) if 0 <= j < 10] for i in range(10)}
    assert graph_splittable(path10)
    cycle12 = {i: [(i - 1) % 12, (i + 1) % 12] for i in range(12)}
    assert graph_splittable(cycle12)
    star13 = {0: list(range(1, 13)), **{i: [0] for i in range(1, 13)}}
    assert not graph_splittable(star13)
    k5_k5 = {i: [j for j in range(5) if j != i] for i in range(5)}
    k5_k5.update({i: [j for j in range(5, 10) if j != i] for i in range(5, 10)})
    k5_k5[4].append(5)
    k5_k5[5].append(4)
    assert graph_splittable(k5_k5)  # cut the bridge: 5 + 5
    # a centre with three arms of three counties: 10, and every part without the centre is < 4
    arms = {0: [1, 4, 7]}
    for start in (1, 4, 7):
        arms[start] = [0, start + 1]
        arms[start + 1] = [start, start + 2]
        arms[start + 2] = [start + 1]
    assert not graph_splittable(arms)


def test_seeded_sample_of_larger_regions_matches_oracle():
    """1500 seeded random hex regions of 8-14 counties, up to half their edges bordered."""
    import random

    rng = random.Random(2024)
    for _ in range(1500):
        target = rng.randint(8, 14)
        cells = [(0, 0)]
        cellset = {(0, 0)}
        while len(cells) < target:
            q, r = rng.choice(cells)
            dq, dr = rng.choice(DIRECTIONS)
            if (q + dq, r + dr) not in cellset:
                cellset.add((q + dq, r + dr))
                cells.append((q + dq, r + dr))
        index = {c: i for i, c in enumerate(cells)}
        edges = [(i, index[(q + dq, r + dr)]) for (q, r), i in index.items()
                 for dq, dr in DIRECTIONS[:3] if (q + dq, r + dr) in index]
        p = rng.random() * 0.5
        check(0, build(len(cells), edges), {e for e in range(len(edges)) if rng.random() < p})
