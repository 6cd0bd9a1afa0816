"""Axial hex coordinates shared by the hex-board games (Mapmaker, First Past the Post)."""

NEIGHBOURS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def connected(coords):
    """Do the hexes at ``coords`` ((q, r) pairs) form one piece (no hexes: yes)?"""
    coords = set(coords)
    if not coords:
        return True
    start = next(iter(coords))
    seen, todo = {start}, [start]
    for q, r in todo:
        for dq, dr in NEIGHBOURS:
            c = (q + dq, r + dr)
            if c in coords and c not in seen:
                seen.add(c)
                todo.append(c)
    return len(seen) == len(coords)
