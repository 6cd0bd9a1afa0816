"""Read-side queries and the row dicts that pages, sockets and CSV share.

Rows are plain JSON-safe dicts: the same dict renders the first page load (template) and
every live update (socket frame -> a few lines of JS).
"""

import math

from django.urls import reverse

from classrooms.models import (
    TEACHERS_GROUP,
    Assignment,
    AssignmentGame,
    Classroom,
    Membership,
    StudentAccount,
    TeacherProfile,
)
from games.engine import get_rules
from games.models import Game


def decided_by_label(game):
    """The engine's words for how a finished game was decided ("" while in play)."""
    code = (game.result or {}).get("decided_by")
    if not code:
        return ""
    return get_rules(game.kind).decided_by.get(code, str(code).replace("_", " "))


# --- who sees what ----------------------------------------------------------------------

def user_is_teacher(user):
    if not getattr(user, "is_authenticated", False):
        return False
    return user.groups.filter(name=TEACHERS_GROUP).exists()


def is_plain_student(user):
    """May this account be a student (join a class, be reset or renamed by a teacher)?

    Staff, superusers and teachers may not: a class teacher could otherwise reset their
    password (account takeover)."""
    return bool(getattr(user, "is_authenticated", False)) and not (
        user.is_staff or user.is_superuser or user_is_teacher(user)
    )


def teacher_is_approved(user):
    """Admins, and teachers an admin made or approved.  Self-signed-up teachers are not, until
    an admin approves them."""
    if getattr(user, "is_staff", False):
        return True
    return TeacherProfile.objects.filter(user=user, approved=True).exists()


def teacher_manages(*, teacher, student):
    """May ``teacher`` change ``student``'s account (password, name, existence)?  Admins may;
    a teacher only if their class created the account, or an admin granted it."""
    if getattr(teacher, "is_staff", False):
        return True
    account = StudentAccount.objects.filter(user=student).select_related(
        "created_by_class").first()
    if account is None:
        return False
    if account.created_by_class is not None and account.created_by_class.teacher_id == teacher.pk:
        return True
    return account.managers.filter(pk=teacher.pk).exists()


def managed_student_ids(*, teacher, classroom):
    """The ids of the class's students whose accounts ``teacher`` may change (one query)."""
    from django.db.models import Q

    members = Membership.objects.filter(classroom=classroom)
    if getattr(teacher, "is_staff", False):
        return set(members.values_list("student_id", flat=True))
    return set(members.filter(
        Q(student__student_account__created_by_class__teacher=teacher)
        | Q(student__student_account__managers=teacher)
    ).values_list("student_id", flat=True))


def classrooms_visible(*, user):
    """Teacher: their classes; admin: all; anyone else: none (students use ``classes_of_student``)."""
    if user.is_staff:
        return Classroom.objects.select_related("teacher")
    return Classroom.objects.filter(teacher=user).select_related("teacher")


def classroom_for_teacher(*, user, classroom_id):
    """The class if ``user`` teaches it (or is staff), else None."""
    if not getattr(user, "is_authenticated", False):
        return None
    return classrooms_visible(user=user).filter(pk=classroom_id).first()


def assignment_for_teacher(*, user, assignment_id):
    if not getattr(user, "is_authenticated", False):
        return None
    qs = Assignment.objects.select_related("classroom", "classroom__teacher")
    if not user.is_staff:
        qs = qs.filter(classroom__teacher=user)
    return qs.filter(pk=assignment_id).first()


def classes_of_student(*, user):
    return Classroom.objects.filter(memberships__student=user).select_related("teacher")


def game_watch_verdict(*, game, user):
    """Access rule: a game of an assignment is watched by its class teacher, and by a student
    of the class whose seat there was given to a bot (they watch their table until the seat
    comes back); classmates may not watch other tables.  A lobby game is watched by the
    teachers of its players' classes.  (Players and staff are let in by the games app.)"""
    table = AssignmentGame.objects.filter(game=game).select_related("assignment__classroom").first()
    if table is None:
        # a lobby game: the teachers of its players' classes may watch it
        return Membership.objects.filter(
            classroom__teacher=user, student__seats__game=game).exists() or None
    classroom = table.assignment.classroom
    if classroom.teacher_id == user.pk:
        return True
    benched = user.pk in set((table.benched or {}).values())
    return benched and Membership.objects.filter(classroom=classroom, student=user).exists()


def class_students(*, classroom):
    """The active students of a class, as memberships (``m.student`` is the user)."""
    return Membership.objects.filter(classroom=classroom, student__is_active=True) \
        .select_related("student")


def class_plain_students(*, classroom):
    """The active students of a class a teacher may reset (``is_plain_student``), in one
    query: no staff, superuser or teacher accounts."""
    return class_students(classroom=classroom).filter(
        student__is_staff=False, student__is_superuser=False,
    ).exclude(student__groups__name=TEACHERS_GROUP)


def class_student_names(*, classroom, memberships=None):
    """``{student id: {"display", "full", "label", "username"}}`` for the class's active
    students: ``display`` is what games show (the account's first_name, unique in the class
    that made it), ``full`` the name the teacher gave (or the display name), ``label`` what
    the teacher's lists show: the full name, told apart from any namesake (classrooms.names).
    """
    from classrooms.names import labels_unique

    if memberships is None:
        memberships = class_students(classroom=classroom).select_related(
            "student__student_account")
    people = {}
    for m in memberships:
        user = m.student
        account = _account(user)
        display = user.first_name or user.username
        people[user.pk] = {"display": display,
                           "full": (account.full_name if account else "") or display,
                           "username": user.username}
    labels = labels_unique([(pk, p["full"], p["display"], p["username"])
                            for pk, p in people.items()])
    for pk, person in people.items():
        person["label"] = labels[pk]
    return people


def _account(user):
    try:
        return user.student_account
    except StudentAccount.DoesNotExist:
        return None


def signin_links_live(*, classroom):
    """The ids of the class's students who have a QR sign-in link that still works."""
    from django.utils import timezone

    from classrooms.models import SignInLink

    return set(SignInLink.objects.filter(
        classroom=classroom, used_at__isnull=True, revoked_at__isnull=True,
        expires_at__gt=timezone.now()).values_list("student_id", flat=True))


# --- game state in words ----------------------------------------------------------------

def _name(seat):
    return seat.display_name


def _first_name(seat):
    if seat.user_id and not seat.is_bot:
        return (seat.user.first_name or seat.user.username).split()[0]
    return seat.display_name


def result_entries(game):
    """The engine's ranking: [{seat, place, ...}] (empty while the game is in play)."""
    result = game.result or {}
    ranking = result.get("ranking") or []
    return [entry for entry in ranking if isinstance(entry, dict)]


def _ordinal(n):
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def finished_text(game, seat_index):
    """How a finished game ended for the player in ``seat_index``, in a few words."""
    result = game.result or {}
    entries = result_entries(game)
    winners = result.get("winners") or []
    mine = next((e for e in entries if e.get("seat") == seat_index), None)
    if mine is None:
        return "finished"
    how = decided_by_label(game)
    if len(entries) == 1:  # solo: the engine says whether the goal was met
        score = result.get("score")
        said = "you won" if result.get("won") else "not won this time"
        return f"finished - {said}" + (f" (score {score})" if score is not None else "")
    if not winners:
        return "finished - a draw"
    if seat_index in winners and len(winners) > 1:
        return "finished - shared win" + (f" ({how})" if how else "")
    if seat_index in winners:
        return "finished - you won" + (f" ({how})" if how else "")
    return f"finished - you lost: {_ordinal(mine.get('place', len(entries)))} of {len(entries)}"


def my_game_row(*, game, user, seats=None, table=None):
    """One line of a student's "my games": what matters to them right now."""
    seats = seats if seats is not None else list(game.seats.select_related("user"))
    mine = next((s.index for s in seats if s.user_id == user.pk), None)
    to_move = get_rules(game.kind).to_move(game.state) if game.status == Game.Status.ACTIVE else []
    if game.status == Game.Status.FINISHED:
        text, state = finished_text(game, mine), "finished"
    elif game.status == Game.Status.PAUSED:
        text, state = "paused - eyes on your teacher", "paused"
    elif game.status == Game.Status.WAITING:
        text, state = "waiting for players", "waiting"
    elif mine is not None and mine in to_move:
        text, state = "your turn", "your_turn"
    else:
        names = [_first_name(s) for s in seats if s.index in to_move]
        text, state = ("waiting for " + " and ".join(names)) if names else "in play", "waiting"
    if table is None:  # unknown; False means "known: not an assignment game"
        table = AssignmentGame.objects.filter(game=game).select_related("assignment").first()
    closed = bool(table and table.assignment.closed_at and game.status == Game.Status.PAUSED)
    if closed:
        text, state = "closed at the due time", "closed"
    title = f"{table.assignment.title} - table {table.table}" if table else str(game)
    return {
        "game_id": game.pk,
        "url": reverse("games:detail", args=[game.pk]),
        "title": title,
        "state": state,
        "text": text,
        "seated": mine is not None,
        "players": [_name(s) for s in seats],
        "version": game.version,
        "created_at": game.created_at.isoformat(),
        "due_at": table.assignment.due_at.isoformat() if table and table.assignment.due_at else None,
        # the teacher chose to close the games at the due time (and whether that happened)
        "closes_at_due": bool(table and table.assignment.close_at_due),
        "closed": closed,
    }


def my_game_rows(*, user):
    games = Game.objects.filter(seats__user=user).distinct() \
        .prefetch_related("seats__user").select_related("assignment_table__assignment") \
        .order_by("-created_at")[:100]
    rows = []
    for game in games:
        table = game.assignment_table if _has_table(game) else False
        rows.append(my_game_row(game=game, user=user, seats=list(game.seats.all()), table=table))
    return rows


def _has_table(game):
    try:
        return game.assignment_table is not None
    except AssignmentGame.DoesNotExist:
        return False


# --- dashboard and results --------------------------------------------------------------

def game_summaries(game, seats):
    """Every seat's public figures (``rules.summary``), indexed by seat; a yes-or-no figure
    (a bool in the summary) reads "yes" or "no" on every page and in every CSV."""
    rules = get_rules(game.kind)
    return {seat.index: [{**item, "value": _figure(item["value"])}
                         for item in rules.summary(game.state, seat.index)]
            for seat in seats}


def _figure(value):
    if isinstance(value, bool):
        return "yes" if value else "no"
    return "" if value is None else value


def summary_text(items):
    """"Label value, Label value, ..." for one seat's summary items."""
    return ", ".join(f"{item['label']} {item['value']}" for item in items)


def dashboard_row(*, table, seats=None):
    game = table.game
    seats = seats if seats is not None else list(game.seats.select_related("user"))
    rules = get_rules(game.kind)
    to_move = rules.to_move(game.state) if game.status == Game.Status.ACTIVE else []
    summaries = game_summaries(game, seats)
    benched = {int(k): v for k, v in (table.benched or {}).items()}
    players = []
    for seat in seats:
        players.append({
            "index": seat.index,
            "name": _name(seat),
            "user_id": seat.user_id,
            "is_bot": seat.is_bot,
            "open": seat.is_empty,
            "summary": summaries[seat.index],
            "to_move": seat.index in to_move,
            "benched_user_id": benched.get(seat.index) if seat.is_bot else None,
        })
    winners = (game.result or {}).get("winners") or []
    finished = game.status == Game.Status.FINISHED
    progress = 1.0 if finished else rules.progress(game.state)
    since = game.last_move_at or game.created_at
    return {
        "table_id": table.pk,
        "table": table.table,
        "game_id": game.pk,
        "url": reverse("games:detail", args=[game.pk]),
        "status": game.status,
        "status_label": game.get_status_display(),
        "finished": finished,
        "players": players,
        "to_move": [p["name"] for p in players if p["to_move"]],
        "last_move_at": game.last_move_at.isoformat() if game.last_move_at else None,
        # stalled: in play, and nobody has moved since this long (the page counts on)
        "since_at": since.isoformat() if since else None,
        "stalled": _stalled(game),
        "stall_after_s": STALL_AFTER_S,
        "progress": None if progress is None else round(min(1.0, max(0.0, progress)), 3),
        "winners": [p["name"] for p in players if p["index"] in winners],
        "draw": finished and not winners and len(players) > 1,
        "decided_by": decided_by_label(game),
        "version": game.version,
    }


# A table is stalled when nobody has moved for this long; a student is idle when their
# sockets have been quiet for this long.
STALL_AFTER_S = 180
IDLE_AFTER_S = 120


def _stalled(game, now=None):
    from django.utils import timezone

    if game.status != Game.Status.ACTIVE:
        return False
    since = game.last_move_at or game.created_at
    return since is not None and ((now or timezone.now()) - since).total_seconds() > STALL_AFTER_S


def presence(user_ids, now=None):
    """``{user id: {"state": "online" | "idle" | "offline", "last_active": iso or None}}``
    from the sockets' marks (gerrymander_site.sockets): online = a page open and active in
    the last IDLE_AFTER_S; idle = a page open but quiet; offline = no page open."""
    import time
    from datetime import UTC, datetime

    from gerrymander_site.sockets import presence_of

    now = time.time() if now is None else now
    out = {}
    for user_id, (sockets, seen) in presence_of(user_ids).items():
        if not sockets:
            state = "offline"
        elif seen is not None and now - seen <= IDLE_AFTER_S:
            state = "online"
        else:
            state = "idle"
        out[user_id] = {"state": state, "last_active": datetime.fromtimestamp(
            seen, tz=UTC).isoformat() if seen else None}
    return out


# A student's standing in one assignment (results, CSV, the dashboard's room).
NOT_SEATED, REPLACED, PLAYING, FINISHED, CLOSED = (
    "not_seated", "replaced", "playing", "finished", "closed")
STATUS_LABELS = {NOT_SEATED: "Not seated", REPLACED: "Replaced by a bot", PLAYING: "Playing",
                 FINISHED: "Finished", CLOSED: "Not finished (closed)"}


def student_standings(*, assignment, tables):
    """``{student id: {"status", "table" (AssignmentGame or None), "seat" (index or None)}}``
    for every student holding or having held a seat in ``tables`` (the assignment's, seats
    prefetched).  A seat at an unfinished table wins over a finished one, and both over a
    seat given to a bot."""
    rank = {PLAYING: 0, CLOSED: 0, FINISHED: 1, REPLACED: 2}
    out = {}

    def offer(user_id, status, table, seat):
        if user_id is None:
            return
        old = out.get(user_id)
        if old is None or rank[status] < rank[old["status"]]:
            out[user_id] = {"status": status, "table": table, "seat": seat}

    for table in tables:
        game = table.game
        seats = list(game.seats.all())
        if game.status == Game.Status.FINISHED:
            status = FINISHED
        else:
            status = CLOSED if assignment.closed_at else PLAYING
        for seat in seats:
            offer(seat.user_id, status, table, seat.index)
        held = {seat.index: seat for seat in seats}
        for index, user_id in (table.benched or {}).items():
            seat = held.get(int(index))
            if seat is not None and seat.user_id != user_id:
                offer(user_id, REPLACED, table, int(index))
    return out


def _tables(assignment):
    return list(assignment.tables.select_related("game").prefetch_related("game__seats__user"))


def dashboard_room(*, assignment, tables=None):
    """Who is where and who is here, for the dashboard (sent again every few seconds):
    ``{"students": [{"id", "name", "label", "status", "table", "table_id", "presence",
    "last_active"}], "summary": {"tables", "finished", "stalled", "not_seated", "online",
    "idle", "offline"}, "stalled": [table ids], "closed_at", "due_at"}``.  The page words
    it ("3 of 8 tables finished, 2 stalled, 1 student not seated")."""
    from django.utils import timezone

    tables = _tables(assignment) if tables is None else tables
    names = class_student_names(classroom=assignment.classroom)
    standings = student_standings(assignment=assignment, tables=tables)
    here = presence(names)
    students = []
    for student_id, name in sorted(names.items(), key=lambda kv: kv[1]["label"].casefold()):
        standing = standings.get(student_id, {"status": NOT_SEATED, "table": None})
        table = standing["table"]
        students.append({
            "id": student_id, "name": name["display"], "label": name["label"],
            "status": standing["status"],
            "table": table.table if table else None, "table_id": table.pk if table else None,
            "presence": here[student_id]["state"],
            "last_active": here[student_id]["last_active"],
        })
    now = timezone.now()
    stalled = [t.pk for t in tables if _stalled(t.game, now)]
    counts = {state: sum(s["presence"] == state for s in students)
              for state in ("online", "idle", "offline")}
    return {
        "students": students,
        "stalled": stalled,
        "summary": {
            "tables": len(tables),
            "finished": sum(t.game.status == Game.Status.FINISHED for t in tables),
            "stalled": len(stalled),
            "not_seated": sum(s["status"] == NOT_SEATED for s in students),
            "replaced": sum(s["status"] == REPLACED for s in students),
            **counts,
        },
        "closed_at": assignment.closed_at.isoformat() if assignment.closed_at else None,
        "due_at": assignment.due_at.isoformat() if assignment.due_at else None,
        "close_at_due": assignment.close_at_due,
    }


def dashboard_rows(*, assignment):
    tables = assignment.tables.select_related("game").prefetch_related("game__seats__user")
    return [dashboard_row(table=t, seats=list(t.game.seats.all())) for t in tables]


def _when(moment):
    from django.utils import timezone

    return timezone.localtime(moment).strftime("%Y-%m-%d %H:%M") if moment else ""


def result_rows(*, assignment, names=None):
    """Every seat of every table, then every student of the class without a seat (not seated,
    or replaced by a bot): for the results page and the CSV, so nobody vanishes.

    ``summary`` is the game's own per-seat figures (``rules.summary``): its labels are the
    extra columns.  ``status`` is the player's standing in words (``STATUS_LABELS``; a bot's
    is its game's), ``won`` is True/False once the game is over and None before, ``date`` the
    game's end (or last move, or start)."""
    names = class_student_names(classroom=assignment.classroom) if names is None else names
    tables = _tables(assignment)
    standings = student_standings(assignment=assignment, tables=tables)
    rows = []
    for table in tables:
        game = table.game
        entries = {e.get("seat"): e for e in result_entries(game)}
        result = game.result or {}
        winners = result.get("winners") or []
        seats = list(game.seats.all())
        summaries = game_summaries(game, seats)
        finished = game.status == Game.Status.FINISHED
        state = FINISHED if finished else (CLOSED if assignment.closed_at else PLAYING)
        winner_names = [_seat_label(s, names) for s in seats if s.index in winners]
        benched = {int(k): v for k, v in (table.benched or {}).items()}
        date = _when(game.finished_at or game.last_move_at or game.created_at)
        for seat in seats:
            entry = entries.get(seat.index, {})
            stood_in = benched.get(seat.index) if seat.is_bot else None
            rows.append({
                "table": table.table, "game_id": game.pk, "status_code": state,
                "status": STATUS_LABELS[state], "finished": finished, "seat": seat.index,
                "player": _seat_label(seat, names),
                "username": seat.user.username if seat.user_id else "",
                "user_id": seat.user_id, "is_bot": seat.is_bot,
                "bot_for": names[stood_in]["label"] if stood_in in names else "",
                "summary": summaries[seat.index],
                "place": entry.get("place", "") if finished else "",
                "won": (seat.index in winners) if finished else None,
                "winners": ", ".join(winner_names),
                "decided_by": decided_by_label(game), "date": date,
            })
    for student_id, name in sorted(names.items(), key=lambda kv: kv[1]["label"].casefold()):
        standing = standings.get(student_id)
        if standing is not None and standing["status"] != REPLACED:
            continue  # at a table: listed above
        table = standing["table"] if standing else None
        status = standing["status"] if standing else NOT_SEATED
        rows.append({
            "table": table.table if table else "", "game_id": table.game_id if table else None,
            "status_code": status, "status": STATUS_LABELS[status], "finished": False,
            "seat": None, "player": name["label"], "username": name["username"],
            "user_id": student_id, "is_bot": False, "bot_for": "", "summary": [], "place": "",
            "won": None, "winners": "", "decided_by": "", "date": "",
        })
    return rows


def _seat_label(seat, names):
    """A seat's player as the teacher's lists name them (full name, told apart)."""
    if seat.user_id in names and not seat.is_bot:
        return names[seat.user_id]["label"]
    return seat.display_name


def won_text(row):
    """"yes" / "no" once the game is over; "in play" (or "not finished") before; "" for a
    student without a game."""
    if row["won"] is not None:
        return "yes" if row["won"] else "no"
    if row["status_code"] == PLAYING:
        return "in play"
    if row["status_code"] == CLOSED:
        return "not finished"
    return ""


def summary_labels(rows):
    """The summary columns of ``rows``, in order of first appearance (several games' rows may
    mix in one class's results)."""
    labels = []
    for row in rows:
        for item in row["summary"]:
            if item["label"] not in labels:
                labels.append(item["label"])
    return labels


def summary_cells(row, labels):
    values = {item["label"]: item["value"] for item in row["summary"]}
    return [values.get(label, "") for label in labels]


def result_tables(*, assignment):
    """Results grouped per table for the page: ``{"labels", "tables": [{table, game_id,
    status, rows, winners, decided_by}], "unseated": [rows of students without a seat]}``."""
    tables = {}
    rows = result_rows(assignment=assignment)
    labels = summary_labels(rows)
    unseated = []
    for row in rows:
        row = {**row, "cells": summary_cells(row, labels), "won_text": won_text(row)}
        if row["seat"] is None:
            unseated.append(row)
            continue
        t = tables.setdefault(row["table"], {"table": row["table"], "game_id": row["game_id"],
                                             "status": row["status"], "winners": row["winners"],
                                             "draw": row["finished"] and not row["winners"],
                                             "decided_by": row["decided_by"],
                                             "date": row["date"], "rows": []})
        t["rows"].append(row)
    return {"labels": labels, "tables": list(tables.values()), "unseated": unseated}


def student_result_rows(*, classroom, student=None):
    """Every student of the class in every started assignment: their seat(s) there with the
    game's figures, or one row saying why they have none (not seated, replaced by a bot)."""
    names = class_student_names(classroom=classroom)
    if student is not None:
        names = {k: v for k, v in names.items() if k == student.pk}
    rows = []
    assignments = classroom.assignments.filter(status=Assignment.Status.STARTED) \
        .order_by("created_at")
    for assignment in assignments:
        for row in result_rows(assignment=assignment, names=names):
            if row["is_bot"] or row["user_id"] not in names:
                continue
            name = names[row["user_id"]]
            rows.append({**row, "assignment": assignment.title, "assignment_id": assignment.pk,
                         "game_label": assignment.game_label, "student": name["label"],
                         "student_id": row["user_id"], "username": name["username"],
                         "summary_text": summary_text(row["summary"]),
                         "won_text": won_text(row)})
    rows.sort(key=lambda r: (r["student"].casefold(), r["assignment_id"]))
    return rows


def student_totals(rows):
    totals = {}
    for row in rows:
        t = totals.setdefault(row["student_id"], {"student": row["student"],
                                                  "username": row["username"],
                                                  "games": 0, "finished": 0, "wins": 0})
        if row["seat"] is not None:
            t["games"] += 1
        if row["finished"]:
            t["finished"] += 1
            t["wins"] += int(bool(row["won"]))
    return sorted(totals.values(), key=lambda t: t["student"].casefold())


def role_of(user):
    if not getattr(user, "is_authenticated", False):
        return "anonymous"
    if user.is_staff:
        return "admin"
    if user_is_teacher(user):
        return "teacher"
    return "student"



# --- the class debrief --------------------------------------------------------------------

def whole_percent(share):
    """``share`` (0..1) as a whole percent, halves rounded up as the game page's script
    rounds them (Python's round() would make 12.5% read 12 here and 13 on the game page)."""
    return math.floor(float(share) * 100 + 0.5)


def debrief(*, assignment):
    """Every table of an assignment side by side, for the projector after the lesson.

    ``{"tables": [{table, game_id, url, finished, players: [{name, anon}], lesson (the game's
    lesson, as on its end screen), ensemble (its summary, None until drawn), running (maps
    still being drawn), parties: [{name, vote_share, seat_share, seats, at_least, by_system}],
    systems: [{name, played}] (a game counting the same votes several ways, else [])}],
    "most_proportional", "least_proportional" (table numbers, by the Gallagher index),
    "questions": [{"kind", ...}] (what to discuss, from what happened; the template words
    them)}``.  The numbers are the games' own lessons, unchanged.
    """
    from games.lessons import lesson_ensure

    rows = []
    tables = assignment.tables.select_related("game").prefetch_related("game__seats__user")
    for table in tables:
        game = table.game
        seats = sorted(game.seats.all(), key=lambda s: s.index)
        kept = lesson_ensure(game=game)
        lesson = kept.lesson if kept is not None else None
        summary = kept.summary if kept is not None else None
        parties = []
        # a game that counts the same votes several ways (First Past the Post and AV)
        counts = (lesson or {}).get("systems") or []
        if len(counts) < 2:
            counts = []
        if lesson:
            percentile = {p["party"]: p for p in (summary or {}).get("parties", [])}
            for i, p in enumerate(lesson["parties"]):
                parties.append({
                    "party": p["party"], "name": p["name"], "votes": p["votes"],
                    "seats": p["seats"], "vote_share": p["vote_share"],
                    "seat_share": p["seat_share"], "wasted": p["wasted"],
                    "wasted_share": p["wasted_share"], "packed": len(p["packed"]),
                    "cracked": p["cracked"],
                    "at_least": percentile.get(p["party"], {}).get("at_least"),
                    "by_system": [c["seats"][i] for c in counts],
                })
        rows.append({
            "table": table.table, "game_id": game.pk,
            "url": reverse("games:detail", args=[game.pk]),
            "finished": game.status == Game.Status.FINISHED,
            "players": [{"name": s.display_name, "anon": f"Player {s.index + 1}"} for s in seats],
            "lesson": lesson, "ensemble": summary, "parties": parties,
            "systems": [{"name": c["name"], "played": bool(c.get("played"))} for c in counts],
            "running": kept is not None and kept.status == kept.Status.RUNNING,
            "gallagher": (lesson or {}).get("gallagher"),
            "unit": (lesson or {}).get("unit"),
        })
    measured = [r for r in rows if r["gallagher"] is not None]
    most = min(measured, key=lambda r: r["gallagher"]) if measured else None
    least = max(measured, key=lambda r: r["gallagher"]) if measured else None
    if most is not None and most["gallagher"] == least["gallagher"]:
        most = least = None  # equally proportional maps: none stands out
    return {
        "tables": rows,
        "most_proportional": most["table"] if most else None,
        "least_proportional": least["table"] if least and least is not most else None,
        "questions": _debrief_questions(rows),
    }


def _debrief_questions(rows):
    """Three things worth discussing, taken from what happened at the tables: the biggest gap
    between votes and seats, the party that wasted most of its votes, and the map least like
    the random ones."""
    parties = [(r, p) for r in rows if r["lesson"] for p in r["parties"]]
    questions = []
    if parties:
        r, p = max(parties, key=lambda rp: abs(rp[1]["seat_share"] - rp[1]["vote_share"]))
        questions.append({"kind": "gap", "table": r["table"], "party": p["name"],
                          "votes": whole_percent(p["vote_share"]),
                          "seats": whole_percent(p["seat_share"]), "unit": r["unit"]["many"]})
        r, p = max(parties, key=lambda rp: rp[1]["wasted_share"])
        questions.append({"kind": "wasted", "table": r["table"], "party": p["name"],
                          "wasted": p["wasted"], "share": whole_percent(p["wasted_share"]),
                          "packed": p["packed"], "cracked": p["cracked"],
                          "unit": r["unit"]["one" if p["packed"] == 1 else "many"]})
    ranked = [(r, p) for r, p in parties if p["at_least"] is not None and p["seats"]]
    if ranked:
        r, p = min(ranked, key=lambda rp: rp[1]["at_least"])
        questions.append({"kind": "ensemble", "table": r["table"], "party": p["name"],
                          "seats": p["seats"], "share": whole_percent(p["at_least"]),
                          "unit": r["unit"]["many"]})
    elif parties:
        r, p = max(parties, key=lambda rp: rp[1]["seats"])
        questions.append({"kind": "fair", "table": r["table"], "party": p["name"],
                          "unit": r["unit"]["many"]})
    return questions
