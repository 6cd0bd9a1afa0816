from django.urls import path

from games import api

urlpatterns = [
    path("games/<id:game_id>/", api.GameDetailApi.as_view(), name="api-game"),
    path("games/<id:game_id>/moves/", api.GameMoveApi.as_view(), name="api-game-moves"),
]
