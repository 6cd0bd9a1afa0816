"""The class debrief: every table's lesson side by side, with the games' own numbers."""

import json

import pytest
from django.urls import reverse

from classrooms import selectors, services
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
    assert f'{round(shown[0]["vote_share"] * 100)}%' in text
    assert "Still playing" in text
    assert text.count('class="anon-name"') == 4 and text.count('class="real-name"') == 4
    json.dumps(data)
