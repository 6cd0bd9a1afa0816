"""The production channel layer's batch send (gerrymander_site.layers) on a real Redis."""

import pytest
from channels.layers import get_channel_layer

pytestmark = pytest.mark.redis


async def test_a_batch_reaches_every_group_member_in_order(redis_layer, monkeypatch):
    from channels_redis.pubsub import RedisSingleShardConnection

    async def one_at_a_time(*args):
        raise AssertionError("a batch must not publish one message per round trip")

    layer = get_channel_layer()
    a1, a2, b = [await layer.new_channel() for _ in range(3)]
    for group, channel in (("a", a1), ("a", a2), ("b", b)):
        await layer.group_add(group, channel)
    monkeypatch.setattr(RedisSingleShardConnection, "publish", one_at_a_time)
    await layer.group_send_many([("a", {"type": "t", "n": 1}), ("b", {"type": "t", "n": 2}),
                                 ("a", {"type": "t", "n": 3}), ("nobody", {"type": "t", "n": 4})])
    for channel in (a1, a2):
        assert [(await layer.receive(channel))["n"] for _ in range(2)] == [1, 3]
    assert (await layer.receive(b))["n"] == 2

