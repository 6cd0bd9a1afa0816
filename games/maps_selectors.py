"""State maps, read: who may see which maps, and what a map offers.

Staff (``is_staff``) see and change every map.  Teachers (members of the "teachers" group)
read published maps.  Everyone else, students included, gets a map only through a game made
on it.  (The games app never imports classrooms: the group is looked up by name here, and a
test checks that the name is the one classrooms uses.)
"""

from games.engine import get_rules, kinds
from games.engine.base import Rules
from games.models import GameMap

TEACHERS_GROUP = "teachers"


def map_kinds():
    """The registered games that take maps (their engine implements ``map_check``)."""
    return [k for k in kinds() if type(get_rules(k)).map_check is not Rules.map_check]


def can_write_maps(user):
    return bool(getattr(user, "is_authenticated", False) and user.is_staff)


def can_read_maps(user):
    if not getattr(user, "is_authenticated", False):
        return False
    return user.is_staff or user.groups.filter(name=TEACHERS_GROUP).exists()


def maps_for(user, *, kind=None):
    """The maps ``user`` may read (none for students and strangers)."""
    if not can_read_maps(user):
        return GameMap.objects.none()
    maps = GameMap.objects.all() if user.is_staff else GameMap.objects.filter(published=True)
    if kind:
        maps = maps.filter(kind=kind)
    return maps.select_related("created_by")


def map_for(user, map_id):
    """The map ``map_id`` if ``user`` may read it, else None (missing and hidden alike)."""
    if not isinstance(map_id, int) or isinstance(map_id, bool):
        return None
    return maps_for(user).filter(pk=map_id).first()


def map_choices(kind):
    """``[(id, name)]`` of the published maps of ``kind``, for the game forms."""
    return list(GameMap.objects.filter(kind=kind, published=True)
                .order_by("name", "pk").values_list("pk", "name"))


def map_summary(kind, data):
    """A few words on what a checked map offers: sizes, players, mixes."""
    if kind == "berrymandering":
        cells = len(data["cells"])
        tiles = data.get("tiles") or {}
        berries = (tiles.get("berries") or [[0, 0, 0, 0]])[0]
        mystery = sum(sum(side) for side in data.get("mystery") or [])
        words = [f"{cells} cells: {cells // 4} rounds"]
        if tiles:
            words.append(f"{tiles.get('random', 0)} Random tiles; each team "
                         f"{berries[0]} single, {berries[1]} double, {berries[2]} triple and "
                         f"{berries[3]} quadruple berry tiles")
        if mystery:
            words.append(f"{mystery} Mystery tiles")
        return words
    if kind == "mapmaker":
        from games.engine.mapmaker import map_players

        rows = data["counties"]
        offered, _ = map_players(data)
        tiers = [f"{sum(1 for row in rows if row[2] <= p)} counties with {p} players"
                 for p in offered]
        return ["; ".join(tiers), f"for {_players(offered)}"]
    if kind == "fptp":
        consts = data.get("constituencies") or {}
        nations = sorted({c.get("nation") for c in consts.values() if isinstance(c, dict)})
        return [f"{len(data.get('hexes') or [])} hexes", f"{len(consts)} constituencies in "
                f"{len(nations)} nation{'s' if len(nations) != 1 else ''}"]
    return []


def _players(counts):
    counts = [str(c) for c in counts]
    if not counts:
        return "no player count"
    if len(counts) == 1:
        return f"{counts[0]} players"
    return ", ".join(counts[:-1]) + f" or {counts[-1]} players"
