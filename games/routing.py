from django.conf import settings
from django.urls import path

from games import consumers

websocket_urlpatterns = [
    path("ws/games/<int:game_id>/", consumers.GameConsumer.as_asgi()),
]
if settings.ENABLE_ECHO_SOCKET:
    websocket_urlpatterns.append(path("ws/echo/", consumers.EchoConsumer.as_asgi()))
