"""Tetrominoes on a square grid: the 19 fixed orientations, exact tileability, random tilings.

Cells are ``(x, y)`` pairs of whole numbers, orthogonally adjacent when they differ by one in
one coordinate.  "Reading order" sorts cells by row, then column: ``(y, x)``.

A ``Region`` packs a set of cells into the bits of one Python integer (row ``y`` at bit
``(y - y0) * stride``, with ``stride`` three more than the width, so that a shift never wraps
a piece into the next row).  Every question is then a handful of bit operations on whole
rows at once:

* ``components(mask)``: a flood fill, one whole-set step at a time.
* ``tileable(mask)``: exact backtracking.  It always covers the cell with the fewest ways to
  be covered (a cell that only one piece position can cover first, else the first empty cell
  in reading order): every tiling covers that cell with one of the listed pieces, so trying
  them all is complete.  It prunes, without losing tilings, any region that has a cell no
  piece can cover or a connected part whose size is not a multiple of 4, solves the connected
  parts of what remains one by one, and remembers the regions already decided.
* ``random_tiling(rng, mask)``: the same search with the pieces tried in a random order; it
  returns the first tiling found (not a uniform draw over all tilings).

``node_limit`` bounds the search for uploads (``TooIntricate``): the answer is then unknown,
never guessed.
"""

import random
from functools import lru_cache

# The 7 tetrominoes (one-sided: S/Z and L/J are mirror images) in one orientation each.
SHAPES = {
    "I": ((0, 0), (1, 0), (2, 0), (3, 0)),
    "O": ((0, 0), (1, 0), (0, 1), (1, 1)),
    "T": ((0, 0), (1, 0), (2, 0), (1, 1)),
    "S": ((1, 0), (2, 0), (0, 1), (1, 1)),
    "Z": ((0, 0), (1, 0), (1, 1), (2, 1)),
    "L": ((0, 0), (0, 1), (0, 2), (1, 2)),
    "J": ((1, 0), (1, 1), (1, 2), (0, 2)),
}


def _normal(cells):
    """``cells`` moved so that the top row is 0 and the leftmost column 0, in reading order."""
    x0 = min(x for x, _ in cells)
    y0 = min(y for _, y in cells)
    return tuple(sorted(((x - x0, y - y0) for x, y in cells), key=lambda c: (c[1], c[0])))


def _rotations(cells):
    out = []
    for _ in range(4):
        cells = _normal(cells)
        if cells not in out:
            out.append(cells)
        cells = tuple((-y, x) for x, y in cells)
    return out


# The 19 fixed orientations: (shape letter, cells in reading order, top-left aligned).
ORIENTATIONS = tuple((name, cells) for name, base in SHAPES.items() for cells in _rotations(base))
_SHAPE_OF = {cells: name for name, cells in ORIENTATIONS}


def shape_of(cells):
    """The letter of the tetromino formed by 4 cells, or None if they are not one."""
    cells = [tuple(c) for c in cells]
    if len(cells) != 4 or len(set(cells)) != 4:
        return None
    return _SHAPE_OF.get(_normal(cells))


def connected(cells):
    """Are these cells one orthogonally connected piece?"""
    cells = {tuple(c) for c in cells}
    if not cells:
        return True
    start = next(iter(cells))
    seen, todo = {start}, [start]
    for x, y in todo:
        for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if n in cells and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(cells)


def reading_order(cells):
    return sorted((tuple(c) for c in cells), key=lambda c: (c[1], c[0]))


def islands(cells):
    """The orthogonally connected parts of ``cells``, each in reading order, ordered by their
    first cell."""
    left = {tuple(c) for c in cells}
    out = []
    for start in reading_order(left):
        if start not in left:
            continue
        left.discard(start)
        part, todo = [start], [start]
        for x, y in todo:
            for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if n in left:
                    left.discard(n)
                    part.append(n)
                    todo.append(n)
        out.append(reading_order(part))
    return out


class TooIntricate(Exception):
    """The search passed its node limit: tileability is not known (never guessed)."""


class Region:
    """A set of cells as the bits of one integer, with the tetromino search on it."""

    def __init__(self, cells):
        cells = reading_order(set(map(tuple, cells)))
        if not cells:
            raise ValueError("a region needs at least one cell")
        self.cells = cells
        self.x0 = min(x for x, _ in cells)
        self.y0 = min(y for _, y in cells)
        self.stride = max(x for x, _ in cells) - self.x0 + 4
        self.bits = [1 << self._pos(c) for c in cells]
        self.bit_of = dict(zip(cells, self.bits, strict=True))
        self.cell_at = {b.bit_length() - 1: c for c, b in self.bit_of.items()}
        self.full = sum(self.bits)
        # piece offsets from its first cell (in reading order), one tuple per orientation
        self.offsets = tuple(
            tuple((y - cells_[0][1]) * self.stride + (x - cells_[0][0]) for x, y in cells_)
            for _, cells_ in ORIENTATIONS
        )

    def _pos(self, cell):
        return (cell[1] - self.y0) * self.stride + (cell[0] - self.x0)

    # ------------------------------------------------------------------ conversions
    def mask_of(self, cells):
        m = 0
        for c in cells:
            m |= self.bit_of[tuple(c)]
        return m

    def cells_of(self, mask):
        """The cells of ``mask`` in reading order."""
        out = []
        while mask:
            low = mask & -mask
            out.append(self.cell_at[low.bit_length() - 1])
            mask ^= low
        return out

    # ------------------------------------------------------------------ structure
    def components(self, mask):
        """The connected parts of ``mask`` (as masks), the one holding the lowest bit first."""
        s = self.stride
        out = []
        while mask:
            comp = mask & -mask
            while True:
                grow = (comp | comp << 1 | comp >> 1 | comp << s | comp >> s) & mask
                if grow == comp:
                    break
                comp = grow
            out.append(comp)
            mask ^= comp
        return out

    def placements(self, mask=None):
        """Every piece position (as a mask) lying wholly inside ``mask``."""
        mask = self.full if mask is None else mask
        out = []
        for offs in self.offsets:
            fit = mask
            for off in offs[1:]:
                fit &= mask >> off
            while fit:
                a = fit & -fit
                fit ^= a
                p = 0
                for off in offs:
                    p |= a << off
                out.append(p)
        return out

    # ------------------------------------------------------------------ search
    def tileable(self, mask=None, node_limit=None):
        """Can ``mask`` (default: the whole region) be cut into tetrominoes?  Exact; raises
        ``TooIntricate`` if the search needs more than ``node_limit`` steps in all."""
        mask = self.full if mask is None else mask
        return self._restarts(mask, None, None, node_limit)

    def random_tiling(self, rng, mask=None, node_limit=None):
        """A list of piece masks tiling ``mask`` (pieces tried in an order drawn from ``rng``),
        or None if it cannot be tiled.

        First a quick plain search (first empty cell, pieces in a random order, regions known
        to fail remembered) for a few hundred steps: on a game's cake it nearly always ends
        there; otherwise the full search below decides."""
        mask = self.full if mask is None else mask
        out = []
        try:
            if self._quick(mask, rng, out, set(), [QUICK_STEPS]):
                return out
        except _RunOver:
            pass
        out = []
        return out if self._restarts(mask, rng, out, node_limit) else None

    def _by_low(self):
        """Every piece position in the region, listed under its first cell (lowest bit)."""
        by_low = self.__dict__.get("_by_low_cache")
        if by_low is None:
            by_low = {}
            for p in self.placements():
                by_low.setdefault((p & -p).bit_length() - 1, []).append(p)
            self._by_low_cache = by_low
        return by_low

    def _quick(self, mask, rng, out, bad, steps):
        if not mask:
            return True
        if mask in bad:
            return False
        steps[0] -= 1
        if steps[0] < 0:
            raise _RunOver
        cands = [p for p in self._by_low().get((mask & -mask).bit_length() - 1, ())
                 if p & mask == p]
        rng.shuffle(cands)
        for p in cands:
            out.append(p)
            if self._quick(mask ^ p, rng, out, bad, steps):
                return True
            out.pop()
        bad.add(mask)
        return False

    def _restarts(self, mask, rng, out, node_limit):
        """Runs of the search with growing step limits, each in a new random piece order.

        Backtracking that takes one bad early turn can spend very long below it although
        another order finds a tiling at once; the regions already proven (un)tileable are
        kept from run to run, so every run starts wiser and the last one is complete."""
        bad, good = set(), (set() if out is None else None)
        used, run, limit = 0, 0, RESTART_STEPS
        while True:
            order = rng if rng is not None else (
                None if run == 0 else random.Random(f"tetromino-restart-{run}"))
            budget = limit if node_limit is None else min(limit, node_limit - used)
            counter = [0, budget]
            if out is not None:
                del out[:]
            try:
                return self._tile(mask, bad, good, order, out, counter)
            except _RunOver:
                used += counter[0]
                if node_limit is not None and used >= node_limit:
                    raise TooIntricate from None
            run += 1
            limit *= 2

    def _tile(self, mask, bad, good, rng, out, counter):
        if not mask:
            return True
        if mask.bit_count() & 3 or mask in bad:
            return False
        if good is not None and mask in good:
            return True
        counter[0] += 1
        if counter[0] > counter[1]:
            raise _RunOver
        comps = self.components(mask)
        if len(comps) > 1:
            comps.sort(key=int.bit_count)
            mark = len(out) if out is not None else 0
            for c in comps:
                if not self._tile(c, bad, good, rng, out, counter):
                    if out is not None:
                        del out[mark:]
                    bad.add(mask)
                    return False
            if good is not None:
                good.add(mask)
            return True
        # How often each cell is covered by the pieces that fit (counting to two, bit-parallel).
        ones = twos = 0
        fits = []
        for offs in self.offsets:
            fit = mask
            for off in offs[1:]:
                fit &= mask >> off
            if fit:
                fits.append((offs, fit))
                for off in offs:
                    c = fit << off
                    twos |= ones & c
                    ones |= c
        if ones != mask:  # some cell no piece can cover
            bad.add(mask)
            return False
        single = ones & ~twos
        if single:  # a cell only one piece can cover: no choice there
            cell = single & -single
        else:
            ok, cell = self._cut_vertex(mask) if mask.bit_count() > CUT_VERTEX_MIN else (True, 0)
            if not ok:
                bad.add(mask)
                return False
            cell = cell or mask & -mask
        cands = []
        for offs, fit in fits:
            for off in offs:
                a = cell >> off
                if a & fit:
                    p = 0
                    for o in offs:
                        p |= a << o
                    cands.append(p)
        if rng is not None:
            rng.shuffle(cands)
        for p in cands:
            mark = len(out) if out is not None else 0
            if out is not None:
                out.append(p)
            if self._tile(mask ^ p, bad, good, rng, out, counter):
                if good is not None:
                    good.add(mask)
                return True
            if out is not None:
                del out[mark:]
        bad.add(mask)
        return False

    def _cut_vertex(self, mask):
        """``(possible, cell)`` for a connected ``mask``: a cut vertex (a cell whose removal
        splits the region) as a bit, or 0 if there is none.

        The piece covering a cut vertex v holds 3 more cells, and each part P that removing v
        leaves must give that piece exactly ``|P| mod 4`` of them (the rest of P is tiled on
        its own).  So if those remainders do not add up to 3 at some cut vertex, ``mask``
        cannot be tiled (``possible`` is False).  Otherwise the search branches on a cut
        vertex: whichever piece covers it, the parts fall apart into independent problems.
        Tarjan's depth-first search finds them all in one pass."""
        s = self.stride
        inside = set()
        m = mask
        while m:
            low_bit = m & -m
            inside.add(low_bit.bit_length() - 1)
            m ^= low_bit
        n = len(inside)
        root = (mask & -mask).bit_length() - 1
        disc = {root: 0}
        low = {root: 0}
        size = {root: 1}
        parts = {}
        stack = [(root, -1, iter((root + 1, root - 1, root + s, root - s)))]
        while stack:
            v, parent, it = stack[-1]
            for u in it:
                if u not in inside:
                    continue
                if u not in disc:
                    disc[u] = low[u] = len(disc)
                    size[u] = 1
                    stack.append((u, v, iter((u + 1, u - 1, u + s, u - s))))
                    break
                if u != parent and disc[u] < low[v]:
                    low[v] = disc[u]
            else:
                stack.pop()
                if parent >= 0:
                    if low[v] < low[parent]:
                        low[parent] = low[v]
                    size[parent] += size[v]
                    if low[v] >= disc[parent]:
                        parts.setdefault(parent, []).append(size[v])
        best = 0
        for v, sizes in parts.items():
            if v == root:
                if len(sizes) < 2:
                    continue
            else:
                sizes = sizes + [n - 1 - sum(sizes)]
            if sum(x % 4 for x in sizes) != 3:
                return False, 0
            if not best:
                best = 1 << v
        return True, best


class _RunOver(Exception):
    """One run of the search used its steps (the next run starts in another order)."""


# Steps of the first run of the search; every further run gets twice as many.
RESTART_STEPS = 500
# Steps of the quick plain search a random tiling tries first.
QUICK_STEPS = 400
# Regions up to this size skip the cut-vertex test (small searches are cheaper than it).
CUT_VERTEX_MIN = 32


@lru_cache(maxsize=64)
def region_for(cells):
    """A cached ``Region`` for a tuple of cells (a game's board is built once)."""
    return Region(cells)
