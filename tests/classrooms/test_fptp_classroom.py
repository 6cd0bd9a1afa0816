"""First Past the Post in a classroom: assigned through the same form as every game (tables of
2 to 5, First Past the Post or Alternative Vote, news cards on or off), played to the end with
a student leaving and another replaced by a bot mid-game, and read back on the dashboard, the
results page, both CSVs and the class debrief (the game's own columns: colour, constituencies,
hexes won, constituencies under the other voting system, left the game)."""

import csv
import io
import random

import pytest
from django.urls import reverse

from classrooms import selectors
from classrooms.models import Assignment
from games import services as game_services
from games.engine import get_rules
from games.models import Game, GameLesson

from .conftest import join, make_teacher, make_user

RULES = get_rules("fptp")
LABELS = {"fptp": ["Colour", "Constituencies", "Hexes won",
                   "Constituencies under Alternative Vote", "Left the game"],
          "av": ["Colour", "Constituencies", "Hexes won",
                 "Constituencies under First Past the Post", "Left the game"]}
NAMES = ["ana", "ben", "cy", "dee", "eve", "fay", "gus", "hal", "ivy", "jo"]


@pytest.fixture
def room(db):
    teacher = make_teacher("teach", "Ms Poll")
    students = [make_user(name) for name in NAMES]
    from classrooms import services

    classroom = services.classroom_create(teacher=teacher, name="8C")
    join(classroom, *students)
    return teacher, classroom, students


def assign(client, classroom, title, game, size, variant=None, news=None, bot_level=""):
    data = {"title": title, "game": game, "table_size": size, "grouping": "random",
            "bot_level": bot_level}
    if variant is not None:
        data["opt__fptp__variant"] = variant
    if news is not None:
        data["opt__fptp__news"] = str(news)
    response = client.post(reverse("classrooms:assignment_create", args=[classroom.pk]), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    return Assignment.objects.get(title=title)


def csv_rows(response):
    assert response.status_code == 200
    return list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"), newline="")))


def play(game, rng, until=None, leave_at=None):
    """Random legal moves (never leaving) for whoever is to move, students by their user,
    bots without one; ``leave_at``: {ply: seat} leaves at that ply.  Until the end, or until
    ``until(game)``."""
    leave_at = dict(leave_at or {})
    for _ in range(3000):
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED or (until and until(game)):
            return game
        seats = {s.index: s for s in game.seats.all()}
        if game.version in leave_at:
            seat = leave_at.pop(game.version)
            move = {"type": "leave"}
        else:
            seat = rng.choice(RULES.to_move(game.state))
            move = rng.choice([m for m in RULES.legal_moves(game.state, seat)
                               if m["type"] != "leave"])
        game_services.move_submit(game_id=game.pk, seat_index=seat, move=move,
                                  expected_version=game.version, user=seats[seat].user)
    raise AssertionError("the game did not end")


def figures(game, seat):
    return {i["label"]: i["value"] for i in RULES.summary(game.state, seat)}


def test_the_assignment_form_offers_two_to_five_players_the_voting_system_and_news(client,
                                                                                  room):
    teacher, classroom, _ = room
    client.force_login(teacher)
    form = client.get(reverse("classrooms:assignment_create",
                              args=[classroom.pk])).content.decode()
    for mode in ("2", "3", "4", "5"):
        assert f'value="fptp:{mode}"' in form
    assert 'name="opt__fptp__variant"' in form and 'value="av"' in form
    assert 'name="opt__fptp__news"' in form and 'value="False"' in form


@pytest.mark.parametrize("size", [2, 3, 4, 5])
def test_tables_of_every_size_play_to_the_end(client, room, size):
    teacher, classroom, students = room
    client.force_login(teacher)
    assignment = assign(client, classroom, f"Election {size}", f"fptp:{size}", size,
                        news=False, bot_level="random")
    tables = list(assignment.tables.order_by("table"))
    assert len(tables) == -(-len(students) // size)
    for table in tables:
        game = table.game
        assert game.kind == "fptp" and game.status == Game.Status.ACTIVE
        assert game.options == {"players": size, "variant": "fptp", "news": False}
        assert game.state["players"] == size and not game.state["news_on"]
        assert game.seats.count() == size
    seated = [s.user for t in tables for s in t.game.seats.all() if s.user]
    assert sorted(u.username for u in seated) == sorted(NAMES)
    # the dashboard: the game's own columns for every seat, and a progress bar
    assert client.get(assignment.get_absolute_url()).status_code == 200
    for row in selectors.dashboard_rows(assignment=assignment):
        assert row["progress"] == 0.0
        for player in row["players"]:
            assert [i["label"] for i in player["summary"]] == LABELS["fptp"]
    game = play(tables[0].game, random.Random(size),
                until=lambda g: RULES.progress(g.state) >= 0.5)
    row = next(r for r in selectors.dashboard_rows(assignment=assignment)
               if r["game_id"] == game.pk)
    won = sum(1 for s in game.state["stacks"] if s)
    assert row["progress"] == round(won / len(game.state["stacks"]), 3) and 0.5 <= \
        row["progress"] < 1
    # the standings while playing: who leads each constituency now
    for player in row["players"]:
        assert player["summary"][1]["value"] == RULES.view(game.state, None)["seats"][
            player["index"]]["constituencies"]
    game = play(game, random.Random(size))
    assert game.status == Game.Status.FINISHED
    rows = csv_rows(client.get(reverse("classrooms:assignment_results_csv",
                                       args=[assignment.pk])))
    mine = [r for r in rows if r["Game"] == str(game.pk)]
    assert len(mine) == size
    for r in mine:
        assert r["Constituencies"].isdigit() and r["Hexes won"].isdigit()
    total = sum(int(r["Constituencies"]) for r in mine)
    assert total == sum(game.state["final"]["fptp"]["per_seat"]) == 11
    # every hex with a counter is won by someone (the players may agree to stop before all
    # 57 hexes are taken, once no constituency can change hands)
    claimed = sum(1 for stack in game.state["stacks"] if stack)
    assert sum(int(r["Hexes won"]) for r in mine) == claimed
    assert claimed == 57 or game.state["end_reason"] != "all_won"
    winners = set(game.result["winners"])
    assert {r["Won"] for r in mine if r["Place"] == "1"} == {"yes"}
    assert sum(r["Won"] == "yes" for r in mine) == len(winners)


@pytest.mark.django_db(transaction=True)  # the lesson is kept once the game's last move commits
def test_alternative_vote_tables_with_a_leaver_and_a_bot_replacing_a_student(client, room,
                                                                             settings):
    settings.LESSON_RUNNER = "sync"
    teacher, classroom, students = room
    client.force_login(teacher)
    assignment = assign(client, classroom, "Ranked", "fptp:5", 5, variant="av", news=True)
    t1, t2 = assignment.tables.order_by("table")
    for table in (t1, t2):
        assert table.game.options == {"players": 5, "variant": "av", "news": True}
        assert table.game.state["variant"] == "av" and table.game.state["news_on"]
    # table 1: a student leaves after a few turns (their counters stay and count)
    leaver = t1.game.seats.get(index=3)
    game1 = play(t1.game, random.Random(1), leave_at={30: 3})
    assert game1.state["left"][3]
    # table 2: the teacher hands a student's seat to a bot mid-game, from the dashboard
    game2 = play(t2.game, random.Random(2), until=lambda g: g.version >= 40)
    replaced = game2.seats.get(index=1).user
    response = client.post(reverse("classrooms:assignment_seat", args=[assignment.pk]),
                           {"table_id": t2.pk, "index": 1, "action": "bot",
                            "bot_level": "easy"})
    assert response.status_code == 302
    assert game2.seats.get(index=1).is_bot
    game2 = play(game2, random.Random(3))
    assert game2.status == Game.Status.FINISHED
    assert not game2.state["left"][1]  # a bot in a student's seat is not a leaver

    # the dashboard: both tables finished, the game's own figures per seat
    for row in selectors.dashboard_rows(assignment=assignment):
        assert row["finished"] and row["progress"] == 1.0
        for player in row["players"]:
            assert [i["label"] for i in player["summary"]] == LABELS["av"]
    # the results page and the assignment's CSV
    html = client.get(reverse("classrooms:assignment_results",
                              args=[assignment.pk])).content.decode()
    assert "".join(f"<th>{label}</th>" for label in LABELS["av"]) in html
    rows = csv_rows(client.get(reverse("classrooms:assignment_results_csv",
                                       args=[assignment.pk])))
    assert [k for k in rows[0] if k in LABELS["av"]] == LABELS["av"]
    for game in (game1, game2):
        game.refresh_from_db()
        for seat in game.seats.all():
            mine = [r for r in rows if r["Game"] == str(game.pk)]
            row = next(r for r in mine if r["Bot"] == "no" and r["Player"] == seat.user.first_name) \
                if seat.user else next(r for r in mine if r["Bot"] != "no")
            f = figures(game, seat.index)
            assert row["Colour"] == f["Colour"]
            assert row["Constituencies"] == str(f["Constituencies"])
            assert row["Hexes won"] == str(f["Hexes won"])
            assert row["Constituencies under First Past the Post"] == \
                str(f["Constituencies under First Past the Post"])
            assert row["Won"] == ("yes" if seat.index in game.result["winners"] else "no")
    # the leaver still counts, and the constituencies add up under both systems
    leaver_row = next(r for r in rows if r["Player"] == leaver.user.first_name)
    assert leaver_row["Constituencies"] == str(game1.state["final"]["av"]["per_seat"][3])
    for game in (game1, game2):
        assert sum(game.state["final"]["av"]["per_seat"]) == 11
        assert sum(game.state["final"]["fptp"]["per_seat"]) == 11
    # the bot that took over, and the student it replaced
    bot_row = next(r for r in rows if r["Game"] == str(game2.pk) and r["Bot"] != "no")
    assert bot_row["Bot"] == f"yes (in for {replaced.first_name})"
    assert bot_row["Constituencies"] == str(game2.state["final"]["av"]["per_seat"][1])
    student_row = next(r for r in rows if r["Username"] == replaced.username)
    assert student_row["Status"] == "Replaced by a bot" and student_row["Constituencies"] == ""
    # the class CSV: one row per student and assignment, with the same figures
    per_student = csv_rows(client.get(reverse("classrooms:class_results_csv",
                                              args=[classroom.pk])))
    assert len(per_student) == len(students)
    assert all(r["Game"].startswith("First Past the Post") for r in per_student)
    assert all("Alternative Vote" in r["Game"] for r in per_student)
    leaver_class = next(r for r in per_student if r["Username"] == leaver.user.username)
    assert leaver_class["Constituencies"] == leaver_row["Constituencies"]
    # the debrief: every table's lesson, constituencies as seats
    debrief = selectors.debrief(assignment=assignment)
    for table in debrief["tables"]:
        assert table["finished"] and table["unit"]["many"] == "constituencies"
        lesson = GameLesson.objects.get(game_id=table["game_id"]).lesson
        assert [p["seats"] for p in table["parties"]] == [p["seats"] for p in lesson["parties"]]
        game = Game.objects.get(pk=table["game_id"])
        assert [p["seats"] for p in lesson["parties"]] == game.state["final"]["av"]["per_seat"]
        assert table["ensemble"]["maps"] == 1000
    page = client.get(reverse("classrooms:assignment_debrief", args=[assignment.pk]))
    text = page.content.decode()
    assert page.status_code == 200 and "Constituencies" in text and "Red party" in text
    assert text.count('class="card debrief-table"') == 2


def test_news_cards_off_through_the_form(client, room):
    teacher, classroom, _ = room
    client.force_login(teacher)
    assignment = assign(client, classroom, "Quick", "fptp:2", 2, news=False)
    game = assignment.tables.first().game
    assert game.options == {"players": 2, "variant": "fptp", "news": False}
    assert game.state["news_pile"] == [] and game.state["news_card"] is None
    assert assignment.game_label.startswith("First Past the Post, 2 players")
    assert "Without news cards" in assignment.game_label


def test_the_left_the_game_column_reads_yes_or_no(client, room):
    teacher, classroom, _ = room
    client.force_login(teacher)
    assignment = assign(client, classroom, "Leavers", "fptp:2", 2, news=False)
    game = assignment.tables.first().game
    play(game, random.Random(4), leave_at={5: 0})
    rows = csv_rows(client.get(reverse("classrooms:assignment_results_csv",
                                       args=[assignment.pk])))
    left = [r["Left the game"] for r in rows]
    assert left.count("yes") == 1 and set(left) == {"yes", "no"}
    page = client.get(reverse("classrooms:assignment_results", args=[assignment.pk]))
    text = page.content.decode()
    assert "True" not in text and "False" not in text


@pytest.mark.django_db(transaction=True)
def test_the_debrief_shows_both_voting_systems(client, settings):
    settings.LESSON_RUNNER = "sync"
    teacher = make_teacher("teach2", "Mr Count")
    kids = [make_user(n) for n in ("kim", "lee")]
    from classrooms import services

    classroom = services.classroom_create(teacher=teacher, name="9A")
    join(classroom, *kids)
    client.force_login(teacher)
    assignment = assign(client, classroom, "Both ways", "fptp:2", 2, news=False)
    play(assignment.tables.first().game, random.Random(6))
    game = assignment.tables.first().game
    text = client.get(reverse("classrooms:assignment_debrief",
                              args=[assignment.pk])).content.decode()
    table = text[text.index('data-role="systems"'):]
    table = table[:table.index("</table>")]
    assert "First Past the Post (played)" in table and "Alternative Vote" in table
    systems = RULES.lesson(game.state)["systems"]
    for party, (fptp, av) in enumerate(zip(systems[0]["seats"], systems[1]["seats"],
                                           strict=True)):
        row = table[table.index(f'data-party="{party}"'):]
        assert f"<td>{fptp}</td><td>{av}</td>" in row[:row.index("</tr>")]
