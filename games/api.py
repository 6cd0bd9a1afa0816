"""HTTP API for games: the same move service as the socket, for scripts and tools."""

from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from games import services
from games.access import game_can_watch, session_keys
from games.models import Game
from games.selectors import game_frame, seat_of_user


class MoveSerializer(serializers.Serializer):
    move = serializers.DictField()
    version = serializers.IntegerField(min_value=0)


def _watchable_game(request, game_id):
    game = get_object_or_404(Game, pk=game_id)
    if not game_can_watch(game=game, user=request.user, keys=session_keys(request.session)):
        from rest_framework.exceptions import NotFound

        raise NotFound("There is no such game.")
    return game


class GameDetailApi(APIView):
    @extend_schema(summary="A game as the caller may see it (their seat's view, or a spectator's)",
                   responses={200: OpenApiTypes.OBJECT})
    def get(self, request, game_id):
        game = _watchable_game(request, game_id)
        return Response(game_frame(game=game, user=request.user))


class GameMoveApi(APIView):
    @extend_schema(summary="Make a move on the board of the given version (the socket's move "
                           "service)", request=MoveSerializer,
                   responses={201: OpenApiTypes.OBJECT, 400: OpenApiTypes.OBJECT,
                              403: OpenApiTypes.OBJECT, 409: OpenApiTypes.OBJECT})
    def post(self, request, game_id):
        game = _watchable_game(request, game_id)
        serializer = MoveSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        seat = seat_of_user(game=game, user=request.user)
        if seat is None:
            return Response(
                {"code": "spectator", "message": "You are watching this game; only players can move."},
                status=status.HTTP_403_FORBIDDEN,
            )
        try:
            game = services.move_submit(
                game_id=game.pk, seat_index=seat, move=serializer.validated_data["move"],
                expected_version=serializer.validated_data["version"], user=request.user,
            )
        except services.StaleVersion as exc:
            game.refresh_from_db()
            return Response(
                {"code": exc.code, "message": exc.message,
                 "game": game_frame(game=game, user=request.user)},
                status=status.HTTP_409_CONFLICT,
            )
        except services.GameError as exc:
            return Response({"code": exc.code, "message": exc.message},
                            status=status.HTTP_400_BAD_REQUEST)
        return Response(game_frame(game=game, user=request.user), status=status.HTTP_201_CREATED)
