"""The site root: home, sign-in, and everything about classes (namespace "classrooms")."""

from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.views.generic import RedirectView

from classrooms import views

classroom_patterns = [
    path("signup/", views.teacher_signup, name="signup"),
    path("join/", views.join, name="join"),
    path("me/", views.my_games, name="my_games"),
    path("classes/", views.class_list, name="class_list"),
    path("classes/<id:class_id>/", views.class_detail, name="class_detail"),
    path("classes/<id:class_id>/rename/", views.class_rename, name="class_rename"),
    path("classes/<id:class_id>/roster/", views.roster_add, name="roster_add"),
    path("classes/<id:class_id>/cards/", views.cards, name="cards"),
    path("classes/<id:class_id>/cards/new/", views.cards_reissue, name="cards_reissue"),
    path("classes/<id:class_id>/cards/revoke/", views.signin_revoke, name="signin_revoke"),
    # a card's QR code (short: the code stays small enough to scan from paper)
    path("s/<str:token>/", views.signin_link, name="signin_link"),
    path("login/", RedirectView.as_view(pattern_name="login"), name="login_short"),
    path("classes/<id:class_id>/code/", views.join_code, name="join_code"),
    path("classes/<id:class_id>/results/", views.class_results, name="class_results"),
    path("classes/<id:class_id>/results.csv", views.class_results_csv, name="class_results_csv"),
    path("classes/<id:class_id>/assignments/new/", views.assignment_create,
         name="assignment_create"),
    path("classes/<id:class_id>/students/<id:student_id>/reset/", views.student_reset,
         name="student_reset"),
    path("classes/<id:class_id>/students/<id:student_id>/rename/", views.student_rename,
         name="student_rename"),
    path("classes/<id:class_id>/students/<id:student_id>/remove/", views.student_remove,
         name="student_remove"),
    path("classes/<id:class_id>/students/<id:student_id>/results/", views.student_results,
         name="student_results"),
    path("assignments/<id:assignment_id>/", views.assignment_dashboard,
         name="assignment_dashboard"),
    path("assignments/<id:assignment_id>/arrange/", views.assignment_arrange,
         name="assignment_arrange"),
    path("assignments/<id:assignment_id>/pause/", views.assignment_pause, name="assignment_pause"),
    path("assignments/<id:assignment_id>/seat/", views.assignment_seat, name="assignment_seat"),
    path("assignments/<id:assignment_id>/move/", views.assignment_move, name="assignment_move"),
    path("assignments/<id:assignment_id>/seat-student/", views.assignment_seat_student,
         name="assignment_seat_student"),
    path("assignments/<id:assignment_id>/results/", views.assignment_results,
         name="assignment_results"),
    path("assignments/<id:assignment_id>/results.csv", views.assignment_results_csv,
         name="assignment_results_csv"),
    path("assignments/<id:assignment_id>/debrief/", views.assignment_debrief,
         name="assignment_debrief"),
]

urlpatterns = [
    path("", views.home, name="home"),
    path("accounts/login/", views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("", include((classroom_patterns, "classrooms"))),
]
