import pytest

from games.models import GameMap

pytestmark = pytest.mark.django_db


def test_builtin_maps_are_loaded_on_migrate():
    assert GameMap.objects.filter(builtin=True, published=True).count() == 25
