"""Builders for the classrooms tests: two classes, their teachers and students, an admin."""

import random
from types import SimpleNamespace

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client

from classrooms import services
from games import services as game_services
from games.engine import get_rules
from games.models import Game


@pytest.fixture(autouse=True)
def _clear_cache():
    cache.clear()
    yield
    cache.clear()


def make_user(username, *, name="", staff=False):
    user = get_user_model().objects.create_user(
        username=username, password="pw-" + username, first_name=name or username.title(),
        is_staff=staff, is_superuser=staff,
    )
    return user


def make_teacher(username, name=""):
    return services.teacher_make(user=make_user(username, name=name))


def join(classroom, *users):
    """Put ``users`` in ``classroom``; an account not made by a class yet counts as made by
    this one (as a roster or a code sign-up would)."""
    from classrooms.models import Membership, StudentAccount

    for user in users:
        Membership.objects.create(classroom=classroom, student=user)
        StudentAccount.objects.get_or_create(user=user,
                                             defaults={"created_by_class": classroom})


def cookie_for(user):
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}".encode()


def build_school():
    """Class A (teacher ``teach_a``; students Ana and Ben seated at one 2-player table) and
    class B (teacher ``teach_b``; student Eve); plus an admin."""
    teach_a = make_teacher("teach_a", "Ms Adams")
    teach_b = make_teacher("teach_b", "Mr Brown")
    admin = make_user("root", staff=True)
    ana = make_user("ana", name="Ana María")
    ben = make_user("ben", name="Ben, Jr.")
    eve = make_user("eve", name="Eve")
    class_a = services.classroom_create(teacher=teach_a, name="7A")
    class_b = services.classroom_create(teacher=teach_b, name="7B")
    join(class_a, ana, ben)
    join(class_b, eve)
    assignment = services.assignment_create(classroom=class_a, title="Lesson 1", kind="mapmaker", mode="2",
                                            table_size=2, grouping="random", bot_level="")
    table = assignment.tables.get()
    assignment_b = services.assignment_create(classroom=class_b, title="B lesson", kind="mapmaker", mode="solo-easy",
                                              grouping="random")
    return SimpleNamespace(
        teach_a=teach_a, teach_b=teach_b, admin=admin, ana=ana, ben=ben, eve=eve,
        class_a=class_a, class_b=class_b, assignment=assignment, table=table, game=table.game,
        assignment_b=assignment_b,
    )


@pytest.fixture
def school(db):
    return build_school()


def play_to_end(game, rng=None, max_plies=500):
    """Play random legal moves for whoever is to move (humans by their user) until the end."""
    rng = rng or random.Random(1)
    rules = get_rules(game.kind)
    for _ in range(max_plies):
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            return game
        seat_index = rules.to_move(game.state)[0]
        seat = game.seats.get(index=seat_index)
        move = rng.choice(rules.legal_moves(game.state, seat_index))
        game_services.move_submit(game_id=game.pk, seat_index=seat_index, move=move,
                                  expected_version=game.version, user=seat.user)
    raise AssertionError("game did not finish")


def join_by_code(page, code, name, password):
    """A newcomer joins a class with its code on ``page`` (a browser page, signed out)."""
    page.goto("/join/")
    page.fill("#id_code", code)
    page.fill("#id_name", name)
    page.fill("#id_password", password)
    page.click("#join-submit")
    page.wait_for_selector("#new-username")
