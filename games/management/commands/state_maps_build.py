"""Build the built-in state maps from real outlines, write them to games/map_data/ and load
them.

The outlines are the US Census Bureau's 2016 cartographic boundary file of the states
(1:500,000, public domain), as the ``plotly-geo`` package ships it, read with ``pyshp``; both
are the optional ``maps`` extra (``pip install -e '.[maps]'``).  Each state becomes a
Berrymandering cake and a Mapmaker board through the same rasteriser as the outline API
(``games.maps_raster``), and every map is checked by its engine before it is written.  First
Past the Post's United-Kingdom-like default map is written beside them.  Safe to rerun: the
output is the same for the same inputs, and loading only updates maps whose data changed.
"""

import json
import time
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils.text import slugify

from games.engine import get_rules
from games.engine.fptp_data import DEFAULT_MAP as FPTP_DEFAULT_MAP
from games.maps import MAP_DATA_DIR, builtin_maps_load, compact_json
from games.maps_raster import MAPMAKER_TARGETS, outline_draft

# The Berrymandering rulebook's "Play a State Variant" list.
RULEBOOK_STATES = ("California", "North Carolina", "Florida", "Kentucky", "Minnesota",
                   "Nebraska", "Ohio", "Pennsylvania", "Texas", "Utah", "West Virginia",
                   "Washington")
BERRY_CELLS = 48  # 12 rounds: a little longer than the standard cake's 9
MAPMAKER_COUNTIES = 73  # every tier: 2, 3 and 4 players
SOURCE = ("US Census Bureau, 2016 cartographic boundary file of the states (1:500,000), as "
          "shipped by the plotly-geo package")


def census_states():
    """{state name: shapely geometry in lon/lat} from the file plotly-geo ships."""
    try:
        import _plotly_geo
        import shapefile
    except ImportError:
        raise CommandError("This command needs the optional 'maps' extra: "
                           "pip install -e '.[maps]'") from None
    from shapely.geometry import shape

    path = Path(_plotly_geo.__file__).parent / "package_data" / "cb_2016_us_state_500k.shp"
    reader = shapefile.Reader(str(path))
    try:
        return {rec.record["NAME"]: shape(rec.shape.__geo_interface__)
                for rec in reader.iterShapeRecords()}
    finally:
        reader.close()


def dump(entry):
    """Stable, diff-friendly JSON: one cell / county / tile count per line."""
    return compact_json(entry) + "\n"


def state_entries(geoms, states, *, berry_cells, mapmaker_counties, out=None):
    """The built-in map entries for ``states`` and a report line per map."""
    entries, report = [], []
    for state in states:
        if state not in geoms:
            raise CommandError(f"There is no state called {state!r} in the Census file.")
        for kind, target in (("berrymandering", berry_cells), ("mapmaker", mapmaker_counties)):
            started = time.perf_counter()
            draft = outline_draft(geoms[state], kind=kind, target=target, name=state)
            took = time.perf_counter() - started
            problems = get_rules(kind).map_check(draft["data"])
            if problems:
                raise CommandError(f"{state} ({kind}) does not pass its check: {problems}")
            if kind == "berrymandering":
                size = (f"{draft['cells']} square cells ({draft['cells'] // 4} rounds)")
            else:
                size = (f"{draft['cells']} hex counties "
                        f"({MAPMAKER_TARGETS[draft['cells']]})")
            description = f"{state}: {size}, from the {SOURCE}."
            if draft["changes"]:
                description += " Changes made so that the map plays: " + " ".join(
                    draft["changes"])
            entries.append({
                "kind": kind, "slug": slugify(state), "name": state,
                "description": description, "source": SOURCE, "target": target,
                "fit": draft["fit"], "changes": draft["changes"], "data": draft["data"],
            })
            report.append((state, kind, draft["cells"], target, draft["fit"],
                           len(draft["changes"]), took))
    return entries, report


def fptp_entry():
    data = json.loads(json.dumps(FPTP_DEFAULT_MAP))
    problems = get_rules("fptp").map_check(data)
    if problems:
        raise CommandError(f"The First Past the Post default map does not pass: {problems}")
    return {"kind": "fptp", "slug": slugify(data["name"]), "name": data["name"],
            "description": "The rulebook's United-Kingdom-like map: England, Scotland, Wales "
                           "and Northern Ireland in eleven constituencies (the default board).",
            "source": "the First Past the Post rulebook", "changes": [], "data": data}


class Command(BaseCommand):
    help = ("Build the rulebook's twelve state maps (Berrymandering and Mapmaker) from the US "
            "Census outlines, write them to games/map_data/ and load them as published "
            "built-in maps.  Needs the 'maps' extra.")

    def add_arguments(self, parser):
        parser.add_argument("--states", default=",".join(RULEBOOK_STATES),
                            help="comma-separated state names (default: the rulebook's 12)")
        parser.add_argument("--berry-cells", type=int, default=BERRY_CELLS)
        parser.add_argument("--mapmaker-counties", type=int, default=MAPMAKER_COUNTIES,
                            choices=sorted(MAPMAKER_TARGETS))
        parser.add_argument("--output", default=str(MAP_DATA_DIR),
                            help="folder for the JSON files (default: games/map_data)")
        parser.add_argument("--no-load", action="store_true",
                            help="write the files only; do not load them into the database")

    def handle(self, *args, **opts):
        started = time.perf_counter()
        states = [s.strip() for s in opts["states"].split(",") if s.strip()]
        geoms = census_states()
        entries, report = state_entries(geoms, states, berry_cells=opts["berry_cells"],
                                        mapmaker_counties=opts["mapmaker_counties"])
        entries.append(fptp_entry())
        out = Path(opts["output"])
        out.mkdir(parents=True, exist_ok=True)
        for entry in entries:
            (out / f"{entry['kind']}-{entry['slug']}.json").write_text(dump(entry),
                                                                        encoding="utf-8")
        self.stdout.write(f"{'state':<16}{'game':<16}{'cells':>6}{'target':>8}{'fit':>7}"
                          f"{'changes':>9}{'seconds':>9}")
        for state, kind, cells, target, fit, changes, took in report:
            self.stdout.write(f"{state:<16}{kind:<16}{cells:>6}{target:>8}{fit:>7.3f}"
                              f"{changes:>9}{took:>9.2f}")
        loaded = ""
        if not opts["no_load"]:
            created, updated = builtin_maps_load(directory=out)
            loaded = f"; loaded: {created} new, {updated} updated"
        self.stdout.write(f"{len(entries)} maps written to {out} in "
                          f"{time.perf_counter() - started:.1f} s{loaded}")
