"""Users for the maps tests: anonymous, a student, a teacher, staff, a superuser."""

import json
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.cache import cache
from rest_framework.test import APIClient

from games.maps_selectors import TEACHERS_GROUP

HERE = Path(__file__).resolve().parent

# A small outline (lon/lat): a rough Colorado-sized rectangle with a notch, and an island.
RECT = [[-109.0, 41.0], [-102.0, 41.0], [-102.0, 37.0], [-105.0, 37.0], [-105.0, 38.0],
        [-106.0, 38.0], [-106.0, 37.0], [-109.0, 37.0], [-109.0, 41.0]]


@pytest.fixture(autouse=True)
def _clear_cache():
    cache.clear()  # throttles and rate limits
    yield
    cache.clear()


def make_user(username, *, teacher=False, staff=False, superuser=False):
    User = get_user_model()
    if superuser:
        user = User.objects.create_superuser(username=username, password="pw-" + username)
    else:
        user = User.objects.create_user(username=username, password="pw-" + username,
                                        is_staff=staff)
    if teacher:
        group, _ = Group.objects.get_or_create(name=TEACHERS_GROUP)
        user.groups.add(group)
    return user


@pytest.fixture
def people(db):
    return {
        "anonymous": None,
        "student": make_user("stu"),
        "teacher": make_user("tea", teacher=True),
        "staff": make_user("sta", staff=True),
        "superuser": make_user("sup", superuser=True),
    }


def client_for(user):
    client = APIClient()
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture
def staff_client(people):
    return client_for(people["staff"])


def outline(coords=None):
    return {"type": "Polygon", "coordinates": [coords or RECT]}


def json_bytes(obj):
    return json.dumps(obj).encode()
