from classrooms.routing import websocket_urlpatterns as classroom_ws
from games.routing import websocket_urlpatterns as game_ws

websocket_urlpatterns = [*game_ws, *classroom_ws]
