"""Exact "can this group of counties be split?" test, in linear time.

A connected group G of n counties is *splittable* when its counties can be divided into two
groups A and B, each connected (through border-free edges) and each of at least 4 counties.
The rulebook says such a group is not (yet) a district; a group that is not splittable is one.

Brute force over all bipartitions is exponential.  This module uses the block structure of G
(its biconnected components and cut vertices), found by one depth-first search:

* n < 8: never splittable (4 + 4 counties are needed).
* In any connected bipartition (A, B) all edges between A and B lie in one block X, and every
  cut vertex v of X takes everything hanging off it (away from X) to its own side.  Give each
  v in X the weight w_X(v) = 1 + (counties hanging off v away from X); the weights of X sum to
  n.  Conversely a split of X into two connected parts extends to a split of G.
* X a bridge {u, v}: splittable via X iff w(u) >= 4 and w(v) >= 4.
* X 2-connected: splittable via X iff n - max_v w_X(v) >= 4, for n >= 10.  Proof: put s = the
  heaviest vertex, t a neighbour of s, and take an st-numbering of X (every prefix and every
  suffix is connected).  If w(s) >= 4, {s} against the rest works.  Otherwise every weight is
  <= 3, the prefix sums climb from <= 3 to >= n - 3 in steps of <= 3 and so cannot jump over
  the >= 3 integers of [4, n - 4].  The condition is necessary because the heaviest vertex's
  side weighs at least w(s).  For n in {8, 9} the interval [4, n - 4] is too short for that
  argument, so those groups are decided by brute force (at most 256 subsets).

In DFS terms (disc/low numbers, subtree sizes): a block is found at the tree edge p -> c with
low[c] >= disc[p]; its top vertex p has weight n - size[c] and every other member x has weight
hang[x] = 1 + the sizes of x's child subtrees that hang off x as separate blocks.  So G is
splittable (n >= 10) iff some block has size[c] >= 4 and all its non-top members have
hang <= n - 4.  The same search also finds the bridges and the sizes of their two sides, which
is exactly what the "never leave fewer than 4 counties" border rule needs.

The tests check all of this against a brute-force oracle (hypothesis, random hex regions with
dangling borders and random small graphs).
"""

MIN_SIDE = 4


def analyse_component(root, nbrs, bordered, memo=None):
    """Depth-first search of the component of ``root``.

    ``nbrs[v]`` is a sequence of ``(u, edge_id)`` pairs; edges whose id is in ``bordered`` are
    not used.  Returns ``(vertices, free_edges, splittable, unsafe_edges)``: the vertices of
    the component (DFS order), the ids of its border-free edges, whether it can be split into
    two connected parts of at least 4 each, and the ids of the bridges whose removal would
    leave a part of fewer than 4.  ``memo`` (a dict) caches the small brute-force cases.
    """
    count = len(nbrs)
    disc = [-1] * count
    low = [0] * count
    size = [1] * count
    hang = [1] * count
    disc[root] = 0
    verts = [root]
    vstack = [root]
    free = []
    blocks = []  # (size of the subtree below the block's top, max hang of the other members)
    bridges = []  # (edge id, size of the side away from the root)
    stack = [(root, -1, iter(nbrs[root]))]
    t = 1
    while stack:
        v, pe, it = stack[-1]
        for u, e in it:
            if e in bordered:
                continue
            du = disc[u]
            if du < 0:  # tree edge
                free.append(e)
                disc[u] = low[u] = t
                t += 1
                verts.append(u)
                vstack.append(u)
                stack.append((u, e, iter(nbrs[u])))
                break
            if e != pe and du < disc[v]:  # back edge, seen from its lower end
                free.append(e)
                if du < low[v]:
                    low[v] = du
        else:
            stack.pop()
            if not stack:
                break
            p = stack[-1][0]
            sv = size[v]
            size[p] += sv
            lv = low[v]
            if lv >= disc[p]:  # v's subtree hangs off p: a block with top p
                hang[p] += sv
                mh = 0
                while True:
                    x = vstack.pop()
                    if hang[x] > mh:
                        mh = hang[x]
                    if x == v:
                        break
                blocks.append((sv, mh))
                if lv > disc[p]:
                    bridges.append((pe, sv))
            elif lv < low[p]:
                low[p] = lv
    n = t
    if n < 2 * MIN_SIDE:
        split = False
    elif n < 10:
        split = _small_splittable(verts, free, nbrs, bordered, memo)
    else:
        limit = n - MIN_SIDE
        split = False
        for sv, mh in blocks:
            if sv >= MIN_SIDE and mh <= limit:
                split = True
                break
    unsafe = [e for e, s in bridges if s < MIN_SIDE or n - s < MIN_SIDE]
    witness = None
    if split:
        best = n
        limit = n - MIN_SIDE
        for v in verts:
            s = size[v]
            if MIN_SIDE <= s < best and s <= limit:
                best = s
                witness = v
        if witness is not None:
            start = disc[witness]
            witness = verts[start:start + best]
    return verts, free, split, unsafe, witness


def _small_splittable(verts, free, nbrs, bordered, memo):
    key = None
    if memo is not None:
        key = tuple(sorted(free))
        hit = memo.get(key)
        if hit is not None:
            return hit
    index = {v: i for i, v in enumerate(verts)}
    adj = []
    for v in verts:
        mask = 0
        for u, e in nbrs[v]:
            if e not in bordered:
                mask |= 1 << index[u]
        adj.append(mask)
    answer = brute_force_splittable(adj)
    if memo is not None:
        if len(memo) > 200_000:
            memo.clear()
        memo[key] = answer
    return answer


def _connected(mask, adj):
    seen = frontier = mask & -mask
    while frontier:
        reach = 0
        while frontier:
            bit = frontier & -frontier
            frontier ^= bit
            reach |= adj[bit.bit_length() - 1]
        frontier = reach & mask & ~seen
        seen |= frontier
    return seen == mask


def brute_force_splittable(adj, min_side=MIN_SIDE):
    """Exhaustive test on a connected graph given as bit masks (``adj[i]``: neighbours of i).

    Tries every vertex set containing vertex 0; exponential, only for small graphs.
    """
    n = len(adj)
    if n < 2 * min_side:
        return False
    full = (1 << n) - 1
    for sub in range(1 << (n - 1)):
        mask = (sub << 1) | 1
        k = mask.bit_count()
        if min_side <= k <= n - min_side and _connected(mask, adj) and _connected(full ^ mask, adj):
            return True
    return False


def graph_splittable(adjacency):
    """Convenience wrapper: ``adjacency`` maps each vertex 0..n-1 of a connected graph to its
    neighbours; returns the exact splittability by the block method."""
    n = len(adjacency)
    if n == 0:
        return False
    nbrs = [[] for _ in range(n)]
    eid = 0
    for v in range(n):
        for u in adjacency[v]:
            if v < u:
                nbrs[v].append((u, eid))
                nbrs[u].append((v, eid))
                eid += 1
    return analyse_component(0, nbrs, frozenset())[2]
