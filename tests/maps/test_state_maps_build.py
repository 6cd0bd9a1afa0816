"""``manage.py state_maps_build``: it rebuilds exactly the built-in maps shipped in
games/map_data/ from the Census outlines (so anyone can rerun it), and loads them.

Needs the optional ``maps`` extra (plotly-geo, pyshp): skipped on a laptop without it, a
failure in CI (``make test`` installs it)."""

import importlib.util
import io
import json

import pytest
from django.core.management import call_command

from games.maps import MAP_DATA_DIR
from games.models import GameMap

from ..conftest import require

pytestmark = pytest.mark.django_db


@pytest.fixture
def maps_extra():
    require(importlib.util.find_spec("_plotly_geo") and importlib.util.find_spec("shapefile"),
            "needs the 'maps' extra: pip install -e '.[maps]'")


def test_the_command_rebuilds_the_shipped_maps_exactly(maps_extra, tmp_path):
    out = io.StringIO()
    call_command("state_maps_build", "--output", str(tmp_path), "--no-load", stdout=out)
    built = sorted(p.name for p in tmp_path.glob("*.json"))
    shipped = sorted(p.name for p in MAP_DATA_DIR.glob("*.json"))
    assert built == shipped and len(built) == 25
    for name in built:
        assert (tmp_path / name).read_text() == (MAP_DATA_DIR / name).read_text(), name
    report = out.getvalue()
    assert "25 maps written" in report
    for line in report.splitlines()[1:-1]:  # state, game, cells, target, fit, changes, s
        state_cells, target = int(line.split()[-5]), int(line.split()[-4])
        assert state_cells == target, line


def test_the_command_loads_what_it_builds(maps_extra, tmp_path):
    GameMap.objects.filter(kind="mapmaker", slug="utah").delete()
    out = io.StringIO()
    call_command("state_maps_build", "--states", "Utah", "--output", str(tmp_path), stdout=out)
    assert "loaded: 1 new, 0 updated" in out.getvalue()
    utah = GameMap.objects.get(kind="mapmaker", slug="utah")
    assert utah.builtin and utah.published
    shipped = json.loads((MAP_DATA_DIR / "mapmaker-utah.json").read_text())
    assert utah.data == shipped["data"]
