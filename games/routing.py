from django.conf import settings
from django.urls import path, re_path

from games import consumers

websocket_urlpatterns = [
    path("ws/games/<id:game_id>/", consumers.GameConsumer.as_asgi()),
]
if settings.ENABLE_ECHO_SOCKET:
    websocket_urlpatterns += [
        path("ws/echo/", consumers.EchoConsumer.as_asgi()),
        re_path(r"^ws/echo/(?P<room>[\w-]{1,40})/$", consumers.EchoConsumer.as_asgi()),
        re_path(r"^ws/echo-db/(?P<room>[\w-]{1,40})/$",
                consumers.EchoConsumer.as_asgi(through_database=True)),
    ]
