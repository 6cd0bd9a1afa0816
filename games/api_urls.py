from django.urls import path

from games import api

urlpatterns = [
    path("games/<int:game_id>/", api.GameDetailApi.as_view(), name="api-game"),
    path("games/<int:game_id>/moves/", api.GameMoveApi.as_view(), name="api-game-moves"),
]
