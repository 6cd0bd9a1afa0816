"""Berrymandering in a classroom: assigned through the same form as every game (2 players, 3
players, solo; standard or strategy), played to the end, and read back on the dashboard, the
results page, both CSVs and the debrief with its own columns (team, candles, berries eaten)."""

import csv
import io
import random

import pytest
from django.urls import reverse

from classrooms import selectors
from classrooms.models import Assignment
from games import services as game_services
from games.engine import get_rules
from games.models import Game

from .conftest import join, make_teacher, make_user, play_to_end

RULES = get_rules("berrymandering")
LABELS = ["Team", "Candles", "Strawberries eaten", "Blueberries eaten"]


@pytest.fixture
def room(db):
    teacher = make_teacher("teach", "Ms Berry")
    students = [make_user(name) for name in ("ana", "ben", "cy", "dee", "eve", "fay")]
    from classrooms import services

    classroom = services.classroom_create(teacher=teacher, name="6B")
    join(classroom, *students)
    return teacher, classroom, students


def assign(client, classroom, title, game, size, variant=None):
    data = {"title": title, "game": game, "table_size": size, "grouping": "random",
            "bot_level": ""}
    if variant is not None:
        data["opt__berrymandering__variant"] = variant
    response = client.post(reverse("classrooms:assignment_create", args=[classroom.pk]), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    return Assignment.objects.get(title=title)


def csv_rows(response):
    assert response.status_code == 200
    return list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"), newline="")))


def by_player(rows):
    return {r["Player"]: r for r in rows}


def test_the_assignment_form_offers_every_mode_and_the_variant(client, room):
    teacher, classroom, _ = room
    client.force_login(teacher)
    form = client.get(reverse("classrooms:assignment_create", args=[classroom.pk])).content.decode()
    for mode in ("2", "3", "solo"):
        assert f'value="berrymandering:{mode}"' in form
    assert 'name="opt__berrymandering__variant"' in form
    assert 'data-modes="2,solo"' in form and 'value="strategy"' in form


def test_two_player_strategy_tables_end_to_end(client, room):
    teacher, classroom, students = room
    client.force_login(teacher)
    assignment = assign(client, classroom, "Cake cutters", "berrymandering:2", 2, "strategy")
    assert assignment.tables.count() == 3
    for table in assignment.tables.all():
        game = table.game
        assert game.kind == "berrymandering" and game.options["variant"] == "strategy"
        assert game.state["variant"] == "strategy" and game.status == Game.Status.ACTIVE
        assert {s.user for s in game.seats.all()} <= set(students)
    # the dashboard names the game's own columns for every seat
    assert client.get(assignment.get_absolute_url()).status_code == 200
    for row in selectors.dashboard_rows(assignment=assignment):
        for player in row["players"]:
            assert [i["label"] for i in player["summary"]] == LABELS
            assert [i["value"] for i in player["summary"]][1:] == [0, 0, 0]
    for i, table in enumerate(assignment.tables.all()):
        play_to_end(table.game, random.Random(i))
    results = client.get(reverse("classrooms:assignment_results", args=[assignment.pk]))
    html = results.content.decode()
    assert "".join(f"<th>{label}</th>" for label in LABELS) in html
    rows = csv_rows(client.get(reverse("classrooms:assignment_results_csv",
                                       args=[assignment.pk])))
    assert len(rows) == 6
    for table in assignment.tables.all():
        game = table.game
        game.refresh_from_db()
        for seat in game.seats.all():
            row = by_player(rows)[seat.user.first_name]
            team = game.state["team_of_seat"][seat.index]
            assert row["Team"] == ["Strawberry", "Blueberry"][team]
            assert row["Candles"] == str(game.state["candles"][team])
            # 31 berries a team on the cake and, strategy, the 6 Mystery tiles face up on it
            assert (row["Strawberries eaten"], row["Blueberries eaten"]) == ("35", "35")
            assert row["Won"] == ("yes" if seat.index in game.result["winners"] else "no")
            assert row["Decided by"] == RULES.decided_by[game.result["decided_by"]]
    per_student = csv_rows(client.get(reverse("classrooms:class_results_csv",
                                              args=[classroom.pk])))
    assert {r["Candles"] for r in per_student} <= {str(n) for n in range(10)}
    assert all(r["Game"].startswith("Berrymandering") for r in per_student)
    # the class debrief reads every table's lesson: berries as votes, groups as seats
    debrief = client.get(reverse("classrooms:assignment_debrief", args=[assignment.pk]))
    assert debrief.status_code == 200 and "Strawberries" in debrief.content.decode()


def test_three_player_tables_show_the_mystery_keeper(client, room):
    teacher, classroom, students = room
    client.force_login(teacher)
    assignment = assign(client, classroom, "Three", "berrymandering:3", 3)
    assert assignment.tables.count() == 2
    game = assignment.tables.first().game
    assert game.options == {"players": 3} and len(game.state["team_of_seat"]) == 3
    play_to_end(game, random.Random(5))
    game.refresh_from_db()
    keeper = game.seats.get(index=2).user.first_name
    rows = by_player(csv_rows(client.get(reverse("classrooms:assignment_results_csv",
                                                 args=[assignment.pk]))))
    assert rows[keeper]["Team"] == "Mystery keeper"
    assert rows[keeper]["Candles"] == "—"  # the keeper has no candles; never "None"
    html = client.get(reverse("classrooms:assignment_results",
                              args=[assignment.pk])).content.decode()
    assert "None" not in html and "<td>Mystery keeper</td>" in html
    assert rows[keeper]["Won"] == ("yes" if game.result["winners"] == [2] else "no")


def test_solo_tables_one_student_each_with_the_score_sheet(client, room):
    teacher, classroom, students = room
    client.force_login(teacher)
    assignment = assign(client, classroom, "Alone", "berrymandering:solo", 3, "standard")
    assert assignment.table_size == 1 and assignment.tables.count() == 6
    game = assignment.tables.first().game
    assert game.options == {"mode": "solo", "variant": "standard"}
    play_to_end(game, random.Random(2))
    game.refresh_from_db()
    rows = by_player(csv_rows(client.get(reverse("classrooms:assignment_results_csv",
                                                 args=[assignment.pk]))))
    row = rows[game.seats.get().user.first_name]
    assert row["Candles"] == str(game.result["score"])
    assert row["Won"] == ("yes" if game.result["won"] else "no")
    assert row["Decided by"] == "Solo: candles against the score sheet."
    assert sum(r["Won"] == "in play" for r in rows.values()) == 5


def draw_game(game):
    """Set the table's game up to end in a draw (a seed and moves found by playing random
    games on the engine), play it through the services, and return it."""
    for k in range(200):
        state = RULES.setup(game.options, f"draw-{k}")
        rng, moves = random.Random(k), []
        while not RULES.is_over(state):
            seat = RULES.to_move(state)[0]
            moves.append((seat, rng.choice(RULES.legal_moves(state, seat))))
            state = RULES.apply(state, seat, moves[-1][1])
        if state["candles"][0] == state["candles"][1]:
            break
    else:
        pytest.fail("no drawn game among 200 seeds")
    Game.objects.filter(pk=game.pk).update(seed=f"draw-{k}",
                                           state=RULES.setup(game.options, f"draw-{k}"))
    users = {s.index: s.user for s in game.seats.all()}
    for version, (seat, move) in enumerate(moves):
        game_services.move_submit(game_id=game.pk, seat_index=seat, move=move,
                                  expected_version=version, user=users[seat])
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.result["decided_by"] == "draw"
    return game


def test_a_drawn_table_is_a_draw_in_the_results(client, room):
    teacher, classroom, _ = room
    client.force_login(teacher)
    assignment = assign(client, classroom, "Even", "berrymandering:2", 2)
    game = draw_game(assignment.tables.first().game)
    rows = csv_rows(client.get(reverse("classrooms:assignment_results_csv",
                                       args=[assignment.pk])))
    drawn = [r for r in rows if r["Game"] == str(game.pk)]
    assert len(drawn) == 2
    assert {r["Won"] for r in drawn} == {"no"} and {r["Place"] for r in drawn} == {"1"}
    assert {r["Winners"] for r in drawn} == {""}
    assert {r["Decided by"] for r in drawn} == {"Equal candles: a draw."}
    assert drawn[0]["Candles"] == drawn[1]["Candles"]
    row = next(r for r in selectors.dashboard_rows(assignment=assignment)
               if r["game_id"] == game.pk)
    assert row["finished"] and row["winners"] == [] and row["draw"] and row["decided_by"] == \
        "Equal candles: a draw."


def test_a_drawn_table_reads_as_a_draw_on_the_pages(client, room):
    teacher, classroom, students = room
    client.force_login(teacher)
    assignment = assign(client, classroom, "Even", "berrymandering:2", 2)
    game = draw_game(assignment.tables.first().game)
    html = client.get(reverse("classrooms:assignment_results",
                              args=[assignment.pk])).content.decode()
    student = game.seats.get(index=0).user
    mine = selectors.my_game_row(game=game, user=student)
    assert 'data-role="draw"' in html and "Equal candles: a draw." in html
    assert mine["text"] == "finished - a draw"
