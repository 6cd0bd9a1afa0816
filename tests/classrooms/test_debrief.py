"""The class debrief: every table's lesson side by side, with the games' own numbers."""

import json
import random

import pytest
from django.urls import reverse

from classrooms import selectors, services
from games.engine import get_rules
from games.models import GameLesson

from .conftest import join, make_user, play_to_end


@pytest.mark.django_db(transaction=True)
def test_the_debrief_shows_each_tables_own_lesson(client, settings):
    from .conftest import build_school

    settings.LESSON_RUNNER = "sync"
    school = build_school()
    cara, dan = make_user("cara", name="Cara"), make_user("dan", name="Dan")
    join(school.class_a, cara, dan)
    assignment = services.assignment_create(
        classroom=school.class_a, title="Debrief me", kind="mapmaker", mode="2", table_size=2,
        grouping="random", bot_level="")
    tables = list(assignment.tables.select_related("game"))
    assert len(tables) == 2
    for table in tables[:1]:
        play_to_end(table.game)
    data = selectors.debrief(assignment=assignment)
    finished, playing = data["tables"]
    lesson = GameLesson.objects.get(game=tables[0].game)
    assert finished["lesson"] == lesson.lesson and finished["ensemble"] == lesson.summary
    for row, p in zip(finished["parties"], lesson.lesson["parties"], strict=True):
        assert (row["vote_share"], row["seat_share"], row["wasted"]) == (
            p["vote_share"], p["seat_share"], p["wasted"])
    assert playing["lesson"] is None and not playing["finished"]
    assert [q["kind"] for q in data["questions"]] == ["gap", "wasted", "ensemble"]
    client.force_login(school.teach_a)
    page = client.get(reverse("classrooms:assignment_debrief", args=[assignment.pk]))
    text = page.content.decode()
    assert page.status_code == 200 and "To talk about" in text and 'id="names-toggle"' in text
    shown = [p for p in lesson.lesson["parties"]]
    assert f'{selectors.whole_percent(shown[0]["vote_share"])}%' in text
    assert "Still playing" in text
    assert text.count('class="anon-name"') == 4 and text.count('class="real-name"') == 4
    json.dumps(data)


def test_percents_read_the_same_as_on_the_game_page():
    # the game page's script rounds halves up; Python's round() would round 12.5 down
    assert [selectors.whole_percent(x) for x in (0.125, 0.135, 0.005, 0.0, 1.0, 0.994)] == \
        [13, 14, 1, 0, 100, 99]


@pytest.mark.django_db(transaction=True)
def test_the_most_and_least_proportional_tables_are_marked(client, settings):
    from .conftest import build_school

    settings.LESSON_RUNNER = "sync"
    school = build_school()
    join(school.class_a, *[make_user(n, name=n.title()) for n in ("cara", "dan", "eli", "fay")])
    # three parties, so that maps differ in how proportional they are
    assignment = services.assignment_create(
        classroom=school.class_a, title="Two maps", kind="mapmaker", mode="3", table_size=3,
        grouping="random", bot_level="")
    tables = list(assignment.tables.select_related("game"))
    assert len(tables) == 2
    for seed, table in enumerate(tables):  # fixed deals and play: the test is the same every run
        game = table.game
        type(game).objects.filter(pk=game.pk).update(
            seed=f"debrief-{seed}", state=get_rules("mapmaker").setup(game.options, f"debrief-{seed}"))
        game.refresh_from_db()
        play_to_end(game, random.Random(seed))
    data = selectors.debrief(assignment=assignment)
    gallagher = {row["table"]: row["gallagher"] for row in data["tables"]}
    assert None not in gallagher.values() and len(set(gallagher.values())) == 2
    assert data["most_proportional"] == min(gallagher, key=gallagher.get)
    assert data["least_proportional"] == max(gallagher, key=gallagher.get)
    client.force_login(school.teach_a)
    text = client.get(reverse("classrooms:assignment_debrief", args=[assignment.pk])).content.decode()
    for which, table in (("most", data["most_proportional"]), ("least", data["least_proportional"])):
        card = text[text.index(f'data-table="{table}"'):]
        card = card[:card.index("</section>")]
        assert f'data-proportional="{which}"' in card
    assert text.count('data-proportional="most"') == text.count('data-proportional="least"') == 1


@pytest.mark.django_db(transaction=True)
def test_equally_proportional_tables_mark_none(settings):
    from .conftest import build_school

    settings.LESSON_RUNNER = "sync"
    school = build_school()
    join(school.class_a, make_user("cara", name="Cara"), make_user("dan", name="Dan"))
    assignment = services.assignment_create(
        classroom=school.class_a, title="Same maps", kind="mapmaker", mode="2", table_size=2,
        grouping="random", bot_level="")
    first, second = [t.game for t in assignment.tables.select_related("game")]
    # the same deal at both tables, played the same way
    type(second).objects.filter(pk=second.pk).update(seed=first.seed, state=first.state)
    second.refresh_from_db()
    for game in (first, second):
        play_to_end(game, random.Random(0))
    data = selectors.debrief(assignment=assignment)
    assert len({row["gallagher"] for row in data["tables"]}) == 1
    assert data["most_proportional"] is None and data["least_proportional"] is None
