from django.urls import path

from games import views

app_name = "games"
urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("<id:game_id>/", views.game_detail, name="detail"),
    path("<id:game_id>/join/", views.game_join, name="join"),
    path("<id:game_id>/again/", views.game_again, name="again"),
    path("learn/<slug:kind>/", views.game_learn, name="learn"),
]
