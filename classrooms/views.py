"""Classroom pages: parse input, check who may, call a service, render.

Denials are 404 for a class or assignment the user may not see (no leak of which ids exist)
and 403 for pages of a role the user does not have.
"""

import csv
import functools
import json
import time

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from classrooms import ratelimit, selectors, services
from classrooms.forms import (
    AssignmentForm,
    ClassroomForm,
    JoinForm,
    RateLimitedAuthenticationForm,
    RenameForm,
    RosterForm,
    TeacherSignupForm,
)
from classrooms.models import Assignment, Membership
from classrooms.selectors import user_is_teacher
from classrooms.services import ClassroomError
from games.catalog import game_titles
from gerrymander_site import jsonsafe
from gerrymander_site.middleware import IDLE_LIMIT

# Passwords just issued stay in the teacher's session only while the cards are printed.
CARDS_TTL_S = 30 * 60


def _cards_key(classroom_id):
    return f"classrooms-cards-{classroom_id}"


def _cards_issued(request, classroom):
    """``{"passwords": {student id: password}, "remaining": n}`` issued in this session for the
    class's cards in the last CARDS_TTL_S (older ones are forgotten)."""
    key = _cards_key(classroom.pk)
    data = request.session.get(key)
    if not isinstance(data, dict) or time.time() - data.get("at", 0) > CARDS_TTL_S:
        request.session.pop(key, None)
        return {"passwords": {}, "remaining": 0}
    return data


def _cards_add(request, classroom, passwords, *, remaining=0, fresh_round=False, links=None):
    """Remember ``passwords`` ({student id: password}) and QR sign-in ``links`` ({student id:
    token}) for the cards; ``fresh_round`` drops what was issued before."""
    data = {"passwords": {}} if fresh_round else _cards_issued(request, classroom)
    data = {"passwords": {**data["passwords"], **{str(k): v for k, v in passwords.items()}},
            "links": {**({} if fresh_round else data.get("links") or {}),
                      **{str(k): v for k, v in (links or {}).items()}},
            "remaining": remaining, "at": time.time()}
    request.session[_cards_key(classroom.pk)] = data


def teacher_required(view):
    """Signed in, and a teacher or admin; then ``classroom``/``assignment`` ids are resolved
    against what this user teaches (404 otherwise)."""

    @functools.wraps(view)
    @login_required
    def wrapper(request, *args, **kwargs):
        if not (request.user.is_staff or user_is_teacher(request.user)):
            raise PermissionDenied("Only teachers can open this page.")
        if "class_id" in kwargs:
            classroom = selectors.classroom_for_teacher(user=request.user,
                                                        classroom_id=kwargs.pop("class_id"))
            if classroom is None:
                raise Http404("No such class.")
            kwargs["classroom"] = classroom
        if "assignment_id" in kwargs:
            assignment = selectors.assignment_for_teacher(user=request.user,
                                                          assignment_id=kwargs.pop("assignment_id"))
            if assignment is None:
                raise Http404("No such assignment.")
            kwargs["assignment"] = assignment
        return view(request, *args, **kwargs)

    return wrapper


# --- accounts ---------------------------------------------------------------------------

class LoginView(auth_views.LoginView):
    form_class = RateLimitedAuthenticationForm
    template_name = "registration/login.html"
    redirect_authenticated_user = True

    def form_valid(self, form):
        response = super().form_valid(form)
        session_start(self.request)
        return ratelimit.login_device_cookie_set(self.request, response)

    def form_invalid(self, form):
        response = super().form_invalid(form)
        if getattr(form, "rate_limited", False):
            response.status_code = 429
        return response


def session_start(request):
    """Sessions on shared classroom devices: a student's ends when the browser closes and
    after a few idle hours; a teacher's after idle hours (gerrymander_site.middleware)."""
    if request.user.is_staff or user_is_teacher(request.user):
        request.session[IDLE_LIMIT] = settings.TEACHER_IDLE_S
    else:
        request.session.set_expiry(0)
        request.session[IDLE_LIMIT] = settings.STUDENT_IDLE_S


def home(request):
    if not request.user.is_authenticated:
        return render(request, "classrooms/home.html", {"game_titles": game_titles()})
    if request.user.is_staff or user_is_teacher(request.user):
        return redirect("classrooms:class_list")
    return redirect("classrooms:my_games")


def teacher_signup(request):
    if request.user.is_authenticated:
        return redirect("home")
    form = TeacherSignupForm(request.POST or None)
    if request.method == "POST" and not ratelimit.signup_allowed(request):
        form.add_error(None, "Too many new accounts from this network: try again in an hour.")
        return render(request, "classrooms/signup.html", {"form": form}, status=429)
    if request.method == "POST" and form.is_valid():
        ratelimit.signup_made(request)
        user = form.save()
        services.teacher_make(user=user, approved=False)
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, "Welcome! Create your first class.")
        return redirect("classrooms:class_list")
    return render(request, "classrooms/signup.html", {"form": form})


def join(request):
    """Self-join with the class code (new account, or the signed-in student's own).

    Wrong codes are counted per device (a signed cookie, set on the first visit) and, with a
    much higher ceiling, per IP: a class behind one school IP is not locked out by ten typos."""
    ratelimit.device_id(request)
    return ratelimit.device_cookie_set(request, _join(request))


def _join(request):
    form = JoinForm(request.POST or None, initial={"code": request.GET.get("code", "")})
    status = 200
    if request.method == "POST":
        if ratelimit.join_blocked(request):
            form.add_error(None, "Too many wrong codes from this device. Wait a few minutes "
                                 "and check the code with your teacher.")
            status = 429
        elif form.is_valid():
            user = request.user if request.user.is_authenticated else None
            try:
                if user is None and not form.cleaned_data["name"]:
                    raise ClassroomError("Tell us your name.", code="name")
                if user is None and not form.cleaned_data["password"]:
                    raise ClassroomError("Choose a password.", code="password")
                if user is None and not ratelimit.join_account_allowed(request):
                    status = 429
                    raise ClassroomError("Too many new accounts from this device or network: "
                                         "ask your teacher, or try again in an hour.",
                                         code="too_many_accounts")
                if user is not None and request.POST.get("confirm") != "yes":
                    # A signed-in student joins another class only after saying yes to it,
                    # by its name and its teacher's.
                    classroom = services.join_target(code=form.cleaned_data["code"], user=user)
                    return render(request, "classrooms/join_confirm.html", {
                        "classroom": classroom, "code": form.cleaned_data["code"],
                        "teacher_name": classroom.teacher.get_full_name()
                        or classroom.teacher.username,
                        "classes": selectors.classes_of_student(user=user),
                    })
                classroom, joined = services.student_join(
                    code=form.cleaned_data["code"], name=form.cleaned_data["name"],
                    password=form.cleaned_data["password"], user=user,
                )
            except ClassroomError as exc:
                if exc.code == "bad_code":
                    ratelimit.join_failed(request)
                form.add_error(None, exc.message)
            else:
                if user is None:
                    ratelimit.join_account_made(request)
                    login(request, joined, backend="django.contrib.auth.backends.ModelBackend")
                    session_start(request)
                    return render(request, "classrooms/join_done.html",
                                  {"classroom": classroom, "username": joined.username})
                messages.success(request, f"You joined {classroom.name}.")
                return redirect("classrooms:my_games")
    return render(request, "classrooms/join.html", {"form": form}, status=status)


# --- students ---------------------------------------------------------------------------

@login_required
def my_games(request):
    services.assignments_close_due()
    return render(request, "classrooms/my_games.html", {
        "rows": selectors.my_game_rows(user=request.user),
        "classes": selectors.classes_of_student(user=request.user),
        "is_teacher": request.user.is_staff or user_is_teacher(request.user),
    })


# --- classes ----------------------------------------------------------------------------

@teacher_required
def class_list(request):
    form = ClassroomForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            classroom = services.classroom_create(teacher=request.user, name=form.cleaned_data["name"])
        except ClassroomError as exc:
            form.add_error(None, exc.message)
        else:
            return redirect(classroom)
    classes = selectors.classrooms_visible(user=request.user)
    return render(request, "classrooms/class_list.html", {"form": form, "classes": classes})


@teacher_required
def class_detail(request, classroom):
    members = list(selectors.class_students(classroom=classroom).select_related(
        "student__student_account"))
    names = selectors.class_student_names(classroom=classroom, memberships=members)
    for m in members:
        m.names = names[m.student_id]
    return render(request, "classrooms/class_detail.html", {
        "classroom": classroom,
        "members": members,
        "live_links": selectors.signin_links_live(classroom=classroom),
        "managed": selectors.managed_student_ids(teacher=request.user, classroom=classroom),
        "approved": selectors.teacher_is_approved(request.user),
        "assignments": classroom.assignments.all(),
        "roster_form": RosterForm(),
        "rename_form": RenameForm(initial={"name": classroom.name}),
        "join_url": request.build_absolute_uri(reverse("classrooms:join")),
    })


@teacher_required
@require_POST
def class_rename(request, classroom):
    form = RenameForm(request.POST)
    if form.is_valid():
        try:
            services.classroom_rename(classroom=classroom, name=form.cleaned_data["name"])
        except ClassroomError as exc:
            messages.error(request, exc.message)
    return redirect(classroom)


@teacher_required
@require_POST
def roster_add(request, classroom):
    """A roster paste is shown first (who will get an account, under which name); only
    ``confirm=1`` (the preview's "Create these N accounts") makes the accounts."""
    form = RosterForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Paste at least one name.")
        return redirect(classroom)
    text = form.cleaned_data["names"]
    try:
        if request.POST.get("confirm") != "1":
            preview = services.roster_preview(classroom=classroom, text=text)
            return render(request, "classrooms/roster_preview.html", {
                "classroom": classroom, "text": text, **preview,
                "edit_form": RosterForm(initial={"names": text}),
            })
        created = services.roster_add(classroom=classroom, text=text)
    except ClassroomError as exc:
        messages.error(request, exc.message)
        return redirect(classroom)
    links = services.signin_links_issue(classroom=classroom, by=request.user,
                                        student_ids=[user.pk for user, _ in created])
    _cards_add(request, classroom, {user.pk: password for user, password in created},
               links=links)
    messages.success(request, f"Added {len(created)} students. Print their login cards now.")
    return redirect(reverse("classrooms:cards", args=[classroom.pk]) + "?show=new")


def _short_login_url(request):
    """The sign-in address as a card prints it: host and a short path, no scheme."""
    return f"{request.get_host()}{reverse('classrooms:login_short')}".rstrip("/")


@teacher_required
@never_cache
def cards(request, classroom):
    """Printable login cards.  Passwords are stored hashed only: a card shows a password (and
    a QR sign-in code) issued in this browser session in the last half hour (roster, reset or
    reprint); the teacher chooses whose cards get new ones.  Never cached: the page holds
    passwords.  ``?show=new`` shows only the cards with something new to print."""
    from classrooms.qr import qr_svg

    issued = _cards_issued(request, classroom)
    links = issued.get("links") or {}
    names = selectors.class_student_names(classroom=classroom)
    live_links = selectors.signin_links_live(classroom=classroom)
    only_new = request.GET.get("show") == "new"
    card_list = []
    for m in selectors.class_students(classroom=classroom):
        key = str(m.student_id)
        password, token = issued["passwords"].get(key), links.get(key)
        if only_new and not (password or token):
            continue
        url = request.build_absolute_uri(reverse("classrooms:signin_link", args=[token])) \
            if token else ""
        name = names[m.student_id]
        card_list.append({
            "id": m.student_id, "name": name["full"], "display": name["display"],
            "username": m.student.username, "password": password, "signin_url": url,
            "qr": qr_svg(url, label=f"Sign in as {name['display']}") if url else "",
            "link_live": m.student_id in live_links,
        })
    return render(request, "classrooms/cards.html", {
        "classroom": classroom, "cards": card_list, "remaining": issued["remaining"],
        "login_url": _short_login_url(request), "only_new": only_new,
        "any_new": bool(issued["passwords"] or links),
        "ttl_minutes": CARDS_TTL_S // 60,
        "link_days": services.SIGNIN_LINK_TTL.days,
        "live_links": len(live_links),
    })


@teacher_required
@require_POST
def cards_reissue(request, classroom):
    """New cards: new passwords (and QR codes) for the chosen students (``only``, several), or
    for the whole class when none is chosen, at most ``services.MAX_ROSTER`` a request
    (hashing is slow on purpose; ``continue=1`` does the students this round has not reached
    yet).  ``what=qr``: new QR codes only, passwords unchanged."""
    going_on = request.POST.get("continue") == "1"
    only = None
    if "only" in request.POST or request.POST.get("chosen") == "1":
        only = {i for i in (_int_or_none(v) for v in request.POST.getlist("only")) if i}
        if not only:
            messages.error(request, "Tick the cards of the students who need a new one first.")
            return redirect("classrooms:cards", class_id=classroom.pk)
    names = selectors.class_student_names(classroom=classroom)
    if request.POST.get("what") == "qr":
        ids = only if only is not None else set(names)
        links = services.signin_links_issue(classroom=classroom, by=request.user,
                                            student_ids=ids)
        _cards_add(request, classroom, {}, links=links)
        messages.success(request, f"New QR codes for {_who(names, links)}. Passwords did not "
                                  "change; older QR codes of these students no longer work.")
        return redirect(reverse("classrooms:cards", args=[classroom.pk]) + "?show=new")
    issued = _cards_issued(request, classroom)["passwords"] if going_on else {}
    fresh, remaining = services.cards_reissue(classroom=classroom, by=request.user,
                                              skip_ids=issued.keys(), only_ids=only)
    links = services.signin_links_issue(classroom=classroom, by=request.user, student_ids=fresh)
    _cards_add(request, classroom, fresh, remaining=remaining, fresh_round=not going_on,
               links=links)
    if remaining:
        messages.warning(request, f"{len(fresh)} new passwords made; {remaining} students still "
                                  "have their old one. Press \"Continue with the rest\".")
    elif only is not None:
        kept = len(names) - len(fresh)
        messages.success(request, f"New passwords for {_who(names, fresh)}. "
                                  f"{kept} other student{'s' if kept != 1 else ''} keep"
                                  f"{'' if kept != 1 else 's'} their password.")
    else:
        messages.success(request, "Every student has a new password: hand out these cards.")
    return redirect(reverse("classrooms:cards", args=[classroom.pk]) + "?show=new")


def _int_or_none(value):
    text = str(value or "").strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 18 else None


def _who(names, ids):
    listed = [names[i]["display"] for i in ids if i in names]
    if not listed:
        return "nobody (accounts made by another class are changed by its teacher)"
    return f"{len(listed)} student{'s' if len(listed) != 1 else ''}: {', '.join(listed)}"


@teacher_required
@require_POST
def signin_revoke(request, classroom):
    """Turn off QR sign-in links: one student's (``student_id``) or the whole class's."""
    student_id = _int_or_none(request.POST.get("student_id"))
    try:
        count = services.signin_links_revoke(classroom=classroom, student_id=student_id)
    except ClassroomError as exc:
        raise Http404(exc.message) from exc
    whose = "this student's card" if student_id else "the class's cards"
    messages.success(request, f"Turned off {count} QR sign-in code{'s' if count != 1 else ''} "
                              f"of {whose}. Passwords still work.")
    back = request.POST.get("back")
    if back == "cards":
        return redirect("classrooms:cards", class_id=classroom.pk)
    return redirect(classroom)


@never_cache
def signin_link(request, token):
    """A card's QR code: "Sign in as Ana?" then (POST) that student is signed in on this
    device, once.  Whoever was signed in here is signed out first."""
    try:
        if request.method != "POST":
            link = services.signin_link_peek(token)
            return render(request, "classrooms/signin_link.html", {
                "student_name": link.student.first_name or link.student.username,
                "classroom": link.classroom, "token": token,
                "current": request.user if request.user.is_authenticated else None})
        student = services.signin_link_use(token)
    except ClassroomError as exc:
        return render(request, "classrooms/signin_link.html", {"error": exc.message},
                      status=410)
    if request.user.is_authenticated:
        logout(request)
    login(request, student, backend="django.contrib.auth.backends.ModelBackend")
    session_start(request)
    return redirect("classrooms:my_games")


@teacher_required
@require_POST
def join_code(request, classroom):
    action = request.POST.get("action")
    if action == "regenerate":
        services.join_code_regenerate(classroom=classroom)
        messages.success(request, "New join code; the old one no longer works.")
    elif action in ("open", "close"):
        services.join_code_set_open(classroom=classroom, is_open=action == "open")
    return redirect(classroom)


@teacher_required
@require_POST
def student_reset(request, classroom, student_id):
    try:
        student, password = services.student_password_reset(classroom=classroom,
                                                            student_id=student_id,
                                                            by=request.user)
    except ClassroomError as exc:
        if exc.code == "not_member":
            raise Http404(exc.message) from exc
        messages.error(request, exc.message)
        return redirect(classroom)
    _cards_add(request, classroom, {student.pk: password})
    messages.success(request, f"New password for {student.username}: {password}")
    return redirect(classroom)


@teacher_required
@require_POST
def student_rename(request, classroom, student_id):
    form = RenameForm(request.POST)
    try:
        if not form.is_valid():
            raise ClassroomError("A name cannot be empty.")
        services.student_rename(classroom=classroom, student_id=student_id,
                                name=form.cleaned_data["name"], by=request.user)
    except ClassroomError as exc:
        if exc.code == "not_member":
            raise Http404(exc.message) from exc
        messages.error(request, exc.message)
    return redirect(classroom)


@teacher_required
@require_POST
def student_remove(request, classroom, student_id):
    try:
        student = services.student_remove(classroom=classroom, student_id=student_id,
                                          by=request.user)
    except ClassroomError as exc:
        if exc.code == "not_member":
            raise Http404(exc.message) from exc
        messages.error(request, exc.message)
        return redirect(classroom)
    messages.success(request, f"Removed {student.first_name or student.username} from the class.")
    return redirect(classroom)


@teacher_required
def student_results(request, classroom, student_id):
    membership = Membership.objects.filter(classroom=classroom, student_id=student_id) \
        .select_related("student").first()
    if membership is None:
        raise Http404("No such student in this class.")
    rows = selectors.student_result_rows(classroom=classroom, student=membership.student)
    return render(request, "classrooms/student_results.html",
                  {"classroom": classroom, "student": membership.student, "rows": rows,
                   "totals": selectors.student_totals(rows)})


@teacher_required
def class_results(request, classroom):
    rows = selectors.student_result_rows(classroom=classroom)
    return render(request, "classrooms/class_results.html",
                  {"classroom": classroom, "rows": rows, "totals": selectors.student_totals(rows)})


def _csv_response(filename, header, rows):
    """UTF-8 with a BOM (Excel then reads accents right), every field quoted."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response.write("\ufeff")
    writer = csv.writer(response, quoting=csv.QUOTE_ALL, lineterminator="\r\n")
    writer.writerow(header)
    writer.writerows(rows)
    return response


def _safe_cell(value):
    """Stop spreadsheet formula injection from a student-chosen name."""
    value = "" if value is None else value
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


@teacher_required
def class_results_csv(request, classroom):
    rows = selectors.student_result_rows(classroom=classroom)
    labels = selectors.summary_labels(rows)
    header = ["Student", "Username", "Assignment", "Game", "Table", "Status", "Date", "Place",
              *labels, "Won", "Winners", "Decided by"]
    data = [[_safe_cell(r["student"]), r["username"], _safe_cell(r["assignment"]),
             r["game_label"], r["table"], r["status"], r["date"], r["place"],
             *map(_safe_cell, selectors.summary_cells(r, labels)),
             selectors.won_text(r), _safe_cell(r["winners"]), r["decided_by"]]
            for r in rows]
    return _csv_response(f"class-{classroom.pk}-results.csv", header, data)


# --- assignments ------------------------------------------------------------------------

@teacher_required
def assignment_create(request, classroom):
    form = AssignmentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            assignment = services.assignment_create(
                classroom=classroom, title=data["title"], kind=data["kind"], mode=data["mode"],
                options=data["options"], table_size=data["table_size"],
                grouping=data["grouping"], bot_level=data.get("bot_level") or "",
                due_at=data.get("due_at"), close_at_due=data.get("close_at_due") or False,
            )
        except ClassroomError as exc:
            form.add_error(None, exc.message)
        else:
            if assignment.status == Assignment.Status.DRAFT:
                return redirect("classrooms:assignment_arrange", assignment_id=assignment.pk)
            return redirect(assignment)
    return render(request, "classrooms/assignment_form.html", {"classroom": classroom, "form": form})


@teacher_required
def assignment_arrange(request, assignment):
    """Manual grouping: drag students between tables, then start (one game per table)."""
    if assignment.status != Assignment.Status.DRAFT:
        return redirect(assignment)
    students = [m.student for m in selectors.class_students(classroom=assignment.classroom)]
    error = None
    if request.method == "POST":
        try:
            tables = jsonsafe.loads(request.POST.get("tables") or "[]")
            if not isinstance(tables, list) or not all(isinstance(t, list) for t in tables):
                raise ClassroomError("Send the tables as a list of lists of student ids.")
            services.assignment_start(assignment=assignment, tables=tables)
        except ValueError as exc:
            error = f"The tables could not be read: {exc}"
        except ClassroomError as exc:
            error = exc.message
        else:
            return redirect(assignment)
    proposal = services.tables_propose(students=students, table_size=assignment.table_size)
    return render(request, "classrooms/assignment_arrange.html", {
        "assignment": assignment, "classroom": assignment.classroom, "error": error,
        "tables": [[{"id": s.pk, "name": s.first_name or s.username} for s in t] for t in proposal],
        "seats": assignment.seat_count(),
    }, status=400 if error else 200)


@teacher_required
def assignment_dashboard(request, assignment):
    if services.assignments_close_due():
        assignment.refresh_from_db()
    return render(request, "classrooms/dashboard.html", {
        "assignment": assignment, "classroom": assignment.classroom,
        "rows": selectors.dashboard_rows(assignment=assignment),
        "room": selectors.dashboard_room(assignment=assignment),
        "students": [{"id": m.student_id, "name": m.student.first_name or m.student.username}
                     for m in selectors.class_students(classroom=assignment.classroom)],
        "ws_path": f"/ws/assignments/{assignment.pk}/",
        "now": timezone.now(),
    })


@teacher_required
@require_POST
def assignment_pause(request, assignment):
    paused = request.POST.get("paused") == "1"
    services.assignment_set_paused(assignment=assignment, paused=paused,
                                   message=request.POST.get("message", "")[:200])
    return _done(request, assignment, "Paused every game: eyes on you." if paused else "Resumed.")


def _done(request, assignment, message=None, error=None):
    if request.headers.get("Accept", "").startswith("application/json"):
        return HttpResponse(json.dumps({"ok": error is None, "message": error or message}),
                            content_type="application/json", status=400 if error else 200)
    if error:
        messages.error(request, error)
    elif message:
        messages.success(request, message)
    back = request.POST.get("next", "")  # e.g. the game page the teacher is watching
    if back and url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()},
                                                require_https=request.is_secure()):
        return redirect(back)
    return redirect(assignment)


def _int(value):
    """A whole number from a form field (at most 18 digits: every id fits the database)."""
    text = str(value or "").strip()
    if not (text.isascii() and text.isdigit() and len(text) <= 18):
        raise ClassroomError("Missing or bad number in the form.", code="bad_request")
    return int(text)


@teacher_required
@require_POST
def assignment_seat(request, assignment):
    """Hand a seat to a bot ("bot") or to a student ("student", with student_id)."""
    try:
        table_id, index = _int(request.POST.get("table_id")), _int(request.POST.get("index"))
        if request.POST.get("action") == "bot":
            services.seat_to_bot(assignment=assignment, table_id=table_id, index=index,
                                 bot_level=request.POST.get("bot_level", ""))
        else:
            services.seat_to_student(assignment=assignment, table_id=table_id, index=index,
                                     student_id=_int(request.POST.get("student_id")))
    except ClassroomError as exc:
        return _done(request, assignment, error=exc.message)
    return _done(request, assignment, "Seat handed over.")


@teacher_required
@require_POST
def assignment_seat_student(request, assignment):
    """One click for a student without a seat (``student_id``), or for every one (``all=1``):
    a free seat, else a bot's seat, else a new table (``services.student_seat``)."""
    names = selectors.class_student_names(classroom=assignment.classroom)
    if request.POST.get("all") == "1":
        done = services.students_seat_all(assignment=assignment)
        seated = [f"{names[i]['display']} at table {t.table}" for i, t in done
                  if not isinstance(t, ClassroomError) and i in names]
        refused = [t.message for _, t in done if isinstance(t, ClassroomError)]
        if not done:
            return _done(request, assignment, "Every student is seated.")
        message = f"Seated {', '.join(seated) or 'nobody'}."
        return _done(request, assignment, message if not refused else None,
                     error=f"{message} {' '.join(refused)}" if refused else None)
    try:
        student_id = _int(request.POST.get("student_id"))
        table = services.student_seat(assignment=assignment, student_id=student_id)
    except ClassroomError as exc:
        return _done(request, assignment, error=exc.message)
    name = names.get(student_id, {}).get("display", "The student")
    return _done(request, assignment, f"{name} is seated at table {table.table}.")


@teacher_required
@require_POST
def assignment_move(request, assignment):
    try:
        services.student_move(assignment=assignment,
                              student_id=_int(request.POST.get("student_id")),
                              table_id=_int(request.POST.get("table_id")))
    except ClassroomError as exc:
        return _done(request, assignment, error=exc.message)
    return _done(request, assignment, "Student moved.")


@teacher_required
def assignment_results(request, assignment):
    return render(request, "classrooms/assignment_results.html", {
        "assignment": assignment, "classroom": assignment.classroom,
        **selectors.result_tables(assignment=assignment),
    })


@teacher_required
def assignment_debrief(request, assignment):
    """The class debrief for the projector: every table's lesson side by side."""
    return render(request, "classrooms/debrief.html", {
        "assignment": assignment, "classroom": assignment.classroom,
        **selectors.debrief(assignment=assignment),
    })


@teacher_required
def assignment_results_csv(request, assignment):
    rows = selectors.result_rows(assignment=assignment)
    labels = selectors.summary_labels(rows)
    header = ["Assignment", "Table", "Game", "Status", "Date", "Player", "Username", "Bot",
              *labels, "Place", "Won", "Winners", "Decided by"]
    data = [[_safe_cell(assignment.title), r["table"], r["game_id"] or "", r["status"],
             r["date"], _safe_cell(r["player"]), r["username"],
             (f"yes (in for {r['bot_for']})" if r["bot_for"] else "yes") if r["is_bot"] else "no",
             *map(_safe_cell, selectors.summary_cells(r, labels)), r["place"],
             selectors.won_text(r), _safe_cell(r["winners"]), r["decided_by"]]
            for r in rows]
    return _csv_response(f"assignment-{assignment.pk}-results.csv", header, data)
