"""The latency benchmark's baselines: a bare echo, and an echo to a whole room via the layer."""

import pytest
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.urls import path, re_path

from games.consumers import EchoConsumer

app = URLRouter([
    path("ws/echo/", EchoConsumer.as_asgi()),
    re_path(r"^ws/echo/(?P<room>[\w-]{1,40})/$", EchoConsumer.as_asgi()),
    re_path(r"^ws/echo-db/(?P<room>[\w-]{1,40})/$", EchoConsumer.as_asgi(through_database=True)),
])


@pytest.mark.parametrize("layer", ["inmemory_layer", pytest.param("redis_layer", marks=pytest.mark.redis)])
async def test_echo_answers_the_sender_and_the_room_echo_reaches_every_socket(layer, request):
    request.getfixturevalue(layer)
    bare = WebsocketCommunicator(app, "/ws/echo/")
    assert (await bare.connect())[0]
    await bare.send_to(text_data="ping")
    assert await bare.receive_from() == "ping"
    await bare.disconnect()

    room = [WebsocketCommunicator(app, "/ws/echo/table-1/") for _ in range(3)]
    other = WebsocketCommunicator(app, "/ws/echo/table-2/")
    for comm in [*room, other]:
        assert (await comm.connect())[0]
    await room[0].send_to(text_data='{"n": 1}')
    assert [await comm.receive_from() for comm in room] == ['{"n": 1}'] * 3
    assert await other.receive_nothing(timeout=0.2)
    for comm in [*room, other]:
        await comm.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_the_database_echo_makes_one_database_round_trip_per_frame(inmemory_layer,
                                                                        monkeypatch):
    from games import consumers

    trips = []
    real = consumers._database_round_trip

    async def counted():
        await real()
        trips.append(1)

    monkeypatch.setattr(consumers, "_database_round_trip", counted)
    room = [WebsocketCommunicator(app, "/ws/echo-db/table-1/") for _ in range(2)]
    for comm in room:
        assert (await comm.connect())[0]
    for n in (1, 2):
        await room[0].send_to(text_data=f'{{"n": {n}}}')
        assert [await comm.receive_from() for comm in room] == [f'{{"n": {n}}}'] * 2
    assert len(trips) == 2
    for comm in room:
        await comm.disconnect()


def test_the_echo_routes_are_off_unless_enabled():
    from games import routing

    assert not any("echo" in str(p.pattern) for p in routing.websocket_urlpatterns)
