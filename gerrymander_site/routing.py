from django.urls import re_path

from classrooms.routing import websocket_urlpatterns as classroom_ws
from games.routing import websocket_urlpatterns as game_ws
from gerrymander_site.sockets import NotFoundConsumer

# Any other path: accepted, then closed with 4404 (not an unrouted error, seen as 1011).
websocket_urlpatterns = [*game_ws, *classroom_ws, re_path(r"", NotFoundConsumer.as_asgi())]
