"""What classrooms tell the game page (``games.hooks``): an assigned game is called by its
assignment and table; "Back" leads to My games (a teacher's to the table's dashboard); the
class's teacher watching a table gets that table's controls.  Registered in
``ClassroomsConfig.ready``."""

from django.urls import reverse


def game_page(*, game, user):
    from classrooms.models import AssignmentGame

    table = AssignmentGame.objects.select_related("assignment__classroom").filter(game=game).first()
    if table is None:
        return {"back_url": reverse("classrooms:my_games"), "back_label": "Back to My games"}
    assignment = table.assignment
    context = {"title": f"{assignment.title} - table {table.table}",
               "back_url": reverse("classrooms:my_games"), "back_label": "Back to My games"}
    if assignment.due_at:
        context["due_at"] = assignment.due_at.isoformat()
    if user.is_staff or assignment.classroom.teacher_id == user.pk:
        dashboard = reverse("classrooms:assignment_dashboard", args=[assignment.pk])
        benched = {int(k): v for k, v in (table.benched or {}).items()}
        context.update(back_url=dashboard, back_label="Back to the dashboard", watching={
            "table": table.table, "table_id": table.pk, "dashboard_url": dashboard,
            "seat_url": reverse("classrooms:assignment_seat", args=[assignment.pk]),
            "seats": [{"index": s.index, "name": s.display_name, "is_bot": s.is_bot,
                       "open": s.is_empty, "benched_user_id": benched.get(s.index)}
                      for s in game.seats.select_related("user").order_by("index")],
            "finished": game.status == game.Status.FINISHED,
        })
    return context


def game_titles(*, games):
    from classrooms.models import AssignmentGame

    rows = AssignmentGame.objects.filter(game__in=games).select_related("assignment")
    return {row.game_id: f"{row.assignment.title} - table {row.table}" for row in rows}
