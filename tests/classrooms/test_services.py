"""Classroom services: accounts, roster, join codes, assignments, seats, pause, results."""

import pytest
from django.contrib.auth import authenticate

from classrooms import selectors, services
from classrooms.models import JOIN_CODE_ALPHABET, Assignment, AssignmentGame, Membership
from classrooms.services import ClassroomError
from games.engine import get_rules
from games.models import Game

from .conftest import join, make_teacher, make_user, play_to_end

pytestmark = pytest.mark.django_db


def test_teacher_signup_puts_the_user_in_the_teachers_group():
    user = services.teacher_signup(username="mrs_t", password="long-enough-1", name="Mrs T")
    assert selectors.user_is_teacher(user)
    assert not selectors.teacher_is_approved(user)  # a sign-up waits for an admin
    with pytest.raises(ClassroomError):
        services.teacher_signup(username="MRS_T", password="x" * 10)


def test_roster_creates_accounts_with_easy_passwords_that_work():
    teacher = make_teacher("t")
    classroom = services.classroom_create(teacher=teacher, name="7C")
    created = services.roster_add(classroom=classroom,
                                  text="Ana María López\n\n  Zoë O'Brien, Jr. \nБорис\n")
    assert len(created) == 3
    # games show the short name (unique in the class); the teacher keeps the full one
    names = [u.first_name for u, _ in created]
    assert names == ["Ana", "Zoë", "Борис"]
    assert [u.student_account.full_name for u, _ in created] == [
        "Ana María López", "Zoë O'Brien, Jr.", "Борис"]
    usernames = [u.username for u, _ in created]
    assert usernames[0].startswith("ana") and usernames[1].startswith("zoe")
    assert usernames[2].startswith("student")
    for user, password in created:
        assert len(password) >= 6
        assert not set(user.username[-3:]) & set("01")
        assert authenticate(username=user.username, password=password) == user
    assert classroom.memberships.count() == 3


def test_roster_rejects_empty_and_oversized_input():
    classroom = services.classroom_create(teacher=make_teacher("t"), name="7C")
    with pytest.raises(ClassroomError):
        services.roster_add(classroom=classroom, text="  \n \n")
    with pytest.raises(ClassroomError):
        services.roster_add(classroom=classroom, text="\n".join(f"S{i}" for i in range(61)))
    assert classroom.memberships.count() == 0


def test_join_codes_use_the_unambiguous_alphabet():
    assert not set(JOIN_CODE_ALPHABET) & set("0O1lIL")
    teacher = make_teacher("t")
    codes = {services.classroom_create(teacher=teacher, name=f"C{i}").join_code for i in range(40)}
    assert len(codes) == 40
    for code in codes:
        assert len(code) == 6 and set(code) <= set(JOIN_CODE_ALPHABET)


def test_self_join_creates_an_account_and_respects_closed_and_regenerated_codes():
    classroom = services.classroom_create(teacher=make_teacher("t"), name="7C")
    typed = " " + classroom.join_code.lower()[:3] + "-" + classroom.join_code.lower()[3:]
    joined_class, user = services.student_join(code=typed, name="Chloé", password="secret-1")
    assert joined_class == classroom and user.first_name == "Chloé"
    assert authenticate(username=user.username, password="secret-1") == user

    services.join_code_set_open(classroom=classroom, is_open=False)
    with pytest.raises(ClassroomError) as err:
        services.student_join(code=classroom.join_code, name="Dan", password="secret-2")
    assert err.value.code == "bad_code"
    services.join_code_set_open(classroom=classroom, is_open=True)
    old = classroom.join_code
    services.join_code_regenerate(classroom=classroom)
    assert classroom.join_code != old
    with pytest.raises(ClassroomError):
        services.student_join(code=old, name="Dan", password="secret-2")
    # a signed-in student joins a second class with their own account
    other = services.classroom_create(teacher=make_teacher("t2"), name="Chess club")
    services.student_join(code=other.join_code, name="", password="", user=user)
    assert set(selectors.classes_of_student(user=user)) == {classroom, other}


def test_teacher_resets_renames_and_removes_students(school):
    by = school.teach_a
    student, password = services.student_password_reset(classroom=school.class_a,
                                                        student_id=school.ana.pk, by=by)
    assert authenticate(username="ana", password=password) == school.ana
    services.student_rename(classroom=school.class_a, student_id=school.ana.pk, name="Anita",
                            by=by)
    school.ana.refresh_from_db()
    assert school.ana.first_name == "Anita"
    # another class's student cannot be reached through this class
    with pytest.raises(ClassroomError):
        services.student_password_reset(classroom=school.class_a, student_id=school.eve.pk,
                                        by=by)
    services.student_remove(classroom=school.class_a, student_id=school.ana.pk, by=by)
    school.ana.refresh_from_db()
    assert not school.ana.is_active
    assert not Membership.objects.filter(classroom=school.class_a, student=school.ana).exists()
    seat = school.game.seats.get(index=next(
        s.index for s in school.game.seats.all() if s.user_id is None))
    assert seat.is_bot  # her seat went to a bot


def test_random_assignment_makes_balanced_tables_with_bots():
    teacher = make_teacher("t")
    classroom = services.classroom_create(teacher=teacher, name="7C")
    students = [make_user(f"s{i}") for i in range(7)]
    join(classroom, *students)
    assignment = services.assignment_create(classroom=classroom, title="Maps", kind="mapmaker", mode="4",
                                            table_size=3, grouping="random", bot_level="easy")
    assert assignment.status == Assignment.Status.STARTED
    tables = list(assignment.tables.select_related("game"))
    assert len(tables) == 3
    humans = sorted(t.game.seats.filter(user__isnull=False).count() for t in tables)
    assert humans == [2, 2, 3]
    for t in tables:
        assert t.game.seats.count() == 4
        assert t.game.seats.filter(bot_level="easy").count() == 4 - t.game.seats.filter(
            user__isnull=False).count()
        assert t.game.status == Game.Status.ACTIVE and t.game.created_by == teacher
    seated = [s.user_id for t in tables for s in t.game.seats.all() if s.user_id]
    assert sorted(seated) == sorted(s.pk for s in students)


def test_assignment_validation():
    classroom = services.classroom_create(teacher=make_teacher("t"), name="7C")
    with pytest.raises(ClassroomError):
        services.assignment_create(classroom=classroom, title="x", kind="mapmaker", mode="9")
    with pytest.raises(ClassroomError):
        services.assignment_create(classroom=classroom, title="x", kind="mapmaker", mode="2", table_size=3)
    with pytest.raises(ClassroomError) as err:
        services.assignment_create(classroom=classroom, title="x", kind="mapmaker", mode="2")
    assert err.value.code == "no_students"


def test_manual_grouping_starts_with_the_teachers_tables(school):
    extra = make_user("cara")
    join(school.class_a, extra)
    assignment = services.assignment_create(classroom=school.class_a, title="Manual",
                                            kind="mapmaker", mode="2", table_size=2, grouping="manual",
                                            bot_level="medium")
    assert assignment.status == Assignment.Status.DRAFT and not assignment.tables.exists()
    with pytest.raises(ClassroomError):  # a student of another class
        services.assignment_start(assignment=assignment, tables=[[school.eve.pk]])
    with pytest.raises(ClassroomError):  # twice
        services.assignment_start(assignment=assignment, tables=[[school.ana.pk], [school.ana.pk]])
    with pytest.raises(ClassroomError):  # too many at a table
        services.assignment_start(assignment=assignment,
                                  tables=[[school.ana.pk, school.ben.pk, extra.pk]])
    services.assignment_start(assignment=assignment,
                              tables=[[school.ana.pk, extra.pk], [str(school.ben.pk)]])
    t1, t2 = assignment.tables.order_by("table")
    assert {s.user_id for s in t1.game.seats.all()} == {school.ana.pk, extra.pk}
    assert t2.game.seats.filter(bot_level="medium").count() == 1
    with pytest.raises(ClassroomError):
        services.assignment_start(assignment=assignment, tables=[[school.ana.pk]])


def test_seat_to_bot_and_back_and_move_between_tables(school):
    extra = make_user("cara")
    join(school.class_a, extra)
    assignment = services.assignment_create(classroom=school.class_a, title="Moves", kind="mapmaker", mode="2",
                                            table_size=1, grouping="manual", bot_level="easy")
    services.assignment_start(assignment=assignment,
                              tables=[[school.ana.pk], [school.ben.pk], [extra.pk]])
    t1, t2, t3 = assignment.tables.order_by("table")
    ana_seat = t1.game.seats.get(user=school.ana).index
    services.seat_to_bot(assignment=assignment, table_id=t1.pk, index=ana_seat)
    t1.refresh_from_db()
    assert t1.game.seats.get(index=ana_seat).bot_level == "easy"
    assert t1.benched == {str(ana_seat): school.ana.pk}
    row = selectors.dashboard_row(table=t1)
    assert any(p["benched_user_id"] == school.ana.pk for p in row["players"])
    services.seat_to_student(assignment=assignment, table_id=t1.pk, index=ana_seat,
                             student_id=school.ana.pk)
    t1.refresh_from_db()
    assert t1.game.seats.get(index=ana_seat).user == school.ana and t1.benched == {}
    # move Ana to table 2: she takes its bot seat, a bot takes hers at table 1
    services.student_move(assignment=assignment, student_id=school.ana.pk, table_id=t2.pk)
    assert t2.game.seats.filter(user=school.ana).exists()
    assert not t1.game.seats.filter(user=school.ana).exists()
    assert t1.game.seats.get(index=ana_seat).is_bot
    with pytest.raises(ClassroomError):  # table 2 now has no seat for a third student... nor a bot
        services.student_move(assignment=assignment, student_id=extra.pk, table_id=t2.pk)
    with pytest.raises(ClassroomError):  # a student holds it
        services.seat_to_student(assignment=assignment, table_id=t2.pk,
                                 index=t2.game.seats.get(user=school.ben).index,
                                 student_id=extra.pk)
    with pytest.raises(ClassroomError):  # not a member of this class
        services.student_move(assignment=assignment, student_id=school.eve.pk, table_id=t3.pk)
    other_table = AssignmentGame.objects.get(assignment=school.assignment_b)
    with pytest.raises(ClassroomError):  # a table of another assignment
        services.seat_to_bot(assignment=assignment, table_id=other_table.pk, index=0)


def test_pause_and_resume_every_game(school):
    services.assignment_set_paused(assignment=school.assignment, paused=True)
    school.game.refresh_from_db()
    school.assignment.refresh_from_db()
    assert school.game.status == Game.Status.PAUSED and school.assignment.paused
    row = selectors.my_game_row(game=school.game, user=school.ana)
    assert row["state"] == "paused"
    services.assignment_set_paused(assignment=school.assignment, paused=False)
    school.game.refresh_from_db()
    assert school.game.status == Game.Status.ACTIVE


def test_my_game_rows_say_what_matters(school):
    game = school.game
    to_move = game.seats.get(index=__import__("games.engine", fromlist=["get_rules"])
                             .get_rules("mapmaker").to_move(game.state)[0])
    waiting = game.seats.exclude(pk=to_move.pk).get()
    assert selectors.my_game_row(game=game, user=to_move.user)["text"] == "your turn"
    first = to_move.user.first_name.split()[0]
    assert selectors.my_game_row(game=game, user=waiting.user)["text"] == f"waiting for {first}"
    rows = selectors.my_game_rows(user=school.ana)
    assert [r["title"] for r in rows] == ["Lesson 1 - table 1"]

    play_to_end(game)
    game.refresh_from_db()
    result = game.result
    winner = result["winners"][0]
    entries = {e["seat"]: e for e in result["ranking"]}
    loser = next(s for s in entries if s != winner)
    w_user = game.seats.get(index=winner).user
    l_user = game.seats.get(index=loser).user
    text = selectors.my_game_row(game=game, user=w_user)["text"]
    assert text == f"finished - you won ({selectors.decided_by_label(game)})"
    assert selectors.my_game_row(game=game, user=l_user)["text"] == \
        "finished - you lost: 2nd of 2"


def test_results_per_assignment_and_per_student(school):
    play_to_end(school.game)
    rows = selectors.result_rows(assignment=school.assignment)
    assert len(rows) == 2
    winners = [r for r in rows if r["won"]]
    assert winners and all(r["winners"] for r in rows)
    figures = [{i["key"]: i["value"] for i in r["summary"]} for r in rows]
    assert {f["party"] for f in figures} == {"Red Elephants", "Blue Donkeys"}
    assert all(isinstance(f["districts"], int) for f in figures)
    assert selectors.summary_labels(rows) == ["Party", "Districts", "Swing counties",
                                              "Own votes in own districts"]
    assert rows[0]["decided_by"] in get_rules("mapmaker").decided_by.values()
    per_student = selectors.student_result_rows(classroom=school.class_a)
    assert {r["student"] for r in per_student} == {"Ana María", "Ben, Jr."}
    totals = selectors.student_totals(per_student)
    assert sum(t["wins"] for t in totals) >= 1
    dash = selectors.dashboard_row(table=school.table)
    assert dash["finished"] and dash["winners"]
    assert [p["summary"] for p in dash["players"]] == [r["summary"] for r in rows]


def test_tables_propose_sizes_differ_by_at_most_one():
    for n in range(1, 36):
        for size in (1, 2, 3, 4):
            tables = services.tables_propose(students=list(range(n)), table_size=size, seed=n)
            sizes = [len(t) for t in tables]
            assert sum(sizes) == n and max(sizes) <= size and max(sizes) - min(sizes) <= 1


# --- review fixes -------------------------------------------------------------------------

def _superuser(username):
    user = make_user(username)
    user.is_superuser = True
    user.save()
    return user


def test_only_plain_students_can_self_join(school):
    superuser = _superuser("boss")
    for user in (school.teach_b, school.admin, superuser):
        with pytest.raises(ClassroomError) as err:
            services.student_join(code=school.class_a.join_code, name="", password="", user=user)
        assert err.value.code == "not_student"
        assert "cannot join a class as students" in err.value.message
        assert not Membership.objects.filter(classroom=school.class_a, student=user).exists()
    services.student_join(code=school.class_a.join_code, name="", password="", user=school.eve)
    assert Membership.objects.filter(classroom=school.class_a, student=school.eve).exists()


def test_membership_of_a_teacher_or_admin_fails_validation(school):
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError):
        Membership(classroom=school.class_a, student=school.teach_b).full_clean()
    with pytest.raises(ValidationError):
        Membership(classroom=school.class_a, student=school.admin).full_clean()
    Membership(classroom=school.class_a, student=school.eve).full_clean()


def test_teacher_cannot_reset_rename_or_remove_a_teacher_or_admin_member(school):
    superuser = _superuser("boss")
    # memberships from before the join check (or made by hand)
    join(school.class_a, school.teach_b, school.admin, superuser)
    for user in (school.teach_b, school.admin, superuser):
        for action, extra in ((services.student_password_reset, {}),
                              (services.student_rename, {"name": "Pwned"}),
                              (services.student_remove, {})):
            with pytest.raises(ClassroomError) as err:
                action(classroom=school.class_a, student_id=user.pk, by=school.teach_a,
                       **extra)
            assert err.value.code == "protected_account"
            assert "only an admin can change it" in err.value.message
        user.refresh_from_db()
        assert user.check_password("pw-" + user.username) and user.first_name != "Pwned"
        assert user.is_active
        assert Membership.objects.filter(classroom=school.class_a, student=user).exists()
    # new login cards for the class skip them too
    issued, remaining = services.cards_reissue(classroom=school.class_a, by=school.teach_a)
    assert set(issued) == {school.ana.pk, school.ben.pk} and remaining == 0
    school.teach_b.refresh_from_db()
    assert school.teach_b.check_password("pw-teach_b")


def test_roster_paste_is_capped_so_hashing_stays_quick():
    classroom = services.classroom_create(teacher=make_teacher("t"), name="7C")
    with pytest.raises(ClassroomError) as err:
        services.roster_add(classroom=classroom,
                            text="\n".join(f"S{i}" for i in range(services.MAX_ROSTER + 1)))
    assert err.value.code == "roster_large" and f"{services.MAX_ROSTER} names" in err.value.message
    assert services.MAX_ROSTER <= 30
    created = services.roster_add(classroom=classroom,
                                  text="\n".join(f"S{i}" for i in range(services.MAX_ROSTER)))
    assert len(created) == services.MAX_ROSTER
    for user, password in created[:3]:
        assert authenticate(username=user.username, password=password) == user


def test_cards_reissue_goes_in_batches(school, monkeypatch):
    monkeypatch.setattr(services, "MAX_ROSTER", 2)
    join(school.class_a, make_user("cara"), make_user("dan"), make_user("emil"))
    by = school.teach_a
    first, remaining = services.cards_reissue(classroom=school.class_a, by=by)
    assert len(first) == 2 and remaining == 3
    second, remaining = services.cards_reissue(classroom=school.class_a, by=by, skip_ids=first)
    third, remaining = services.cards_reissue(classroom=school.class_a, by=by,
                                              skip_ids=[*first, *second])
    assert remaining == 0 and len(first) + len(second) + len(third) == 5
    from django.contrib.auth import get_user_model

    for pk, password in {**first, **second, **third}.items():
        user = get_user_model().objects.get(pk=pk)
        assert authenticate(username=user.username, password=password) == user


def _take_seat_meanwhile(monkeypatch, game, index, user):
    """Make someone else take seat ``index`` just before the guarded seat_assign runs: what a
    second teacher's click would do between our read and the game's row lock.  (A test runs
    in one transaction, so the refusal also rolls this change back: tests check the refusal.)"""
    from games import services as game_services
    from games.models import Seat

    real = game_services.seat_assign

    def racing(**kwargs):
        if kwargs["game_id"] == game.pk and kwargs["index"] == index:
            Seat.objects.filter(game=game, index=index).update(user=user, bot_level="")
        return real(**kwargs)

    monkeypatch.setattr(game_services, "seat_assign", racing)


def _one_per_table(school, *students):
    assignment = services.assignment_create(classroom=school.class_a, title="Race", kind="mapmaker", mode="2",
                                            table_size=1, grouping="manual", bot_level="easy")
    services.assignment_start(assignment=assignment, tables=[[s.pk] for s in students])
    return assignment, list(assignment.tables.order_by("table").select_related("game"))


@pytest.mark.parametrize("action", ["seat_to_student", "student_move"])
def test_moving_a_student_does_not_overwrite_a_seat_taken_meanwhile(school, monkeypatch, action):
    cara = make_user("cara")
    join(school.class_a, cara)
    assignment, (t1, t2) = _one_per_table(school, school.ana, school.ben)
    bot_seat = t2.game.seats.get(bot_level="easy").index
    _take_seat_meanwhile(monkeypatch, t2.game, bot_seat, cara)
    with pytest.raises(ClassroomError) as err:
        if action == "seat_to_student":
            services.seat_to_student(assignment=assignment, table_id=t2.pk, index=bot_seat,
                                     student_id=school.ana.pk)
        else:
            services.student_move(assignment=assignment, student_id=school.ana.pk,
                                  table_id=t2.pk)
    assert err.value.code == "seat_changed"
    # (the test's single transaction rolls Cara's "meanwhile" back with the refusal)
    # Ana's move was rolled back whole: she is still at table 1
    assert t1.game.seats.filter(user=school.ana).exists()
    assert not t2.game.seats.filter(user=school.ana).exists()


def test_seat_to_bot_does_not_bench_someone_who_left_meanwhile(school, monkeypatch):
    cara = make_user("cara")
    join(school.class_a, cara)
    assignment, (t1, t2) = _one_per_table(school, school.ana, school.ben)
    ana_seat = t1.game.seats.get(user=school.ana).index
    _take_seat_meanwhile(monkeypatch, t1.game, ana_seat, cara)
    with pytest.raises(ClassroomError) as err:
        services.seat_to_bot(assignment=assignment, table_id=t1.pk, index=ana_seat)
    assert err.value.code == "seat_changed"
    t1.refresh_from_db()
    assert t1.benched == {}  # Cara is not benched as if she were Ana


def test_no_bots_is_refused_when_a_table_would_have_empty_seats():
    classroom = services.classroom_create(teacher=make_teacher("t"), name="7C")
    join(classroom, *[make_user(f"s{i}") for i in range(3)])
    with pytest.raises(ClassroomError) as err:  # 3 students at 2-seat tables: 1 seat left open
        services.assignment_create(classroom=classroom, title="Odd", kind="mapmaker", mode="2", table_size=2,
                                   grouping="random", bot_level="")
    assert err.value.code == "empty_seats"
    assert err.value.message == ("Choose a bot level to fill the 1 empty seat, or change the "
                                 "table size.")
    assert not Assignment.objects.filter(title="Odd").exists()  # nothing half-made
    with pytest.raises(ClassroomError) as err:  # 4-seat game, 3 a table: 2 tables, 5 empty
        services.assignment_create(classroom=classroom, title="Odd", kind="mapmaker", mode="4", table_size=2,
                                   grouping="random", bot_level="")
    assert "fill the 5 empty seats" in err.value.message
    # manual tables: checked when they start
    manual = services.assignment_create(classroom=classroom, title="Manual", kind="mapmaker", mode="3",
                                        table_size=3, grouping="manual", bot_level="")
    students = [m.student_id for m in selectors.class_students(classroom=classroom)]
    with pytest.raises(ClassroomError) as err:
        services.assignment_start(assignment=manual, tables=[students[:2], students[2:]])
    assert "fill the 3 empty seats" in err.value.message
    services.assignment_start(assignment=manual, tables=[students])  # full: no bots needed
    assert manual.tables.get().game.status == Game.Status.ACTIVE
    # with bots the odd table is filled and starts
    filled = services.assignment_create(classroom=classroom, title="Bots", kind="mapmaker", mode="2",
                                        table_size=2, grouping="random", bot_level="easy")
    assert all(t.game.status == Game.Status.ACTIVE for t in filled.tables.all())


def test_one_class_students_query_and_no_game_of_its_own():
    """Classrooms show what the engines' contract returns; no code or page of theirs names
    one game or its own keys."""
    from pathlib import Path

    import classrooms

    assert not hasattr(services, "class_students")  # selectors.class_students is the one
    app = Path(classrooms.__file__).parent
    for path in [*app.glob("*.py"), *app.glob("templates/**/*.html"), *app.glob("static/**/*.js")]:
        text = path.read_text().lower()
        for word in ("mapmaker", "party_name", "district", "swing count"):
            assert word not in text, f"{path.name} mentions {word!r}"


