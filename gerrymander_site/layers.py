"""The production channel layer: channels_redis's Redis pub/sub layer, plus one batch send.

A move sends one frame to each seat's group and one to the spectators.  The stock layer
publishes group sends one at a time - each ``PUBLISH`` waits for the previous one's reply
under the shard's lock - so the last seat heard about a move a few round trips after the
first.  ``group_send_many`` sends them all in one pipelined round trip per Redis shard, in
order.  Everything else is the stock layer's.

It reaches into channels_redis's pub/sub internals (``_get_layer``, ``_get_shard``,
``_get_group_channel_name`` and the shard's ``_lock``/``_redis``); pyproject pins the
version it was written for, and the Redis socket tests fail if those change.
"""

from channels_redis.pubsub import RedisPubSubChannelLayer


class PubSubChannelLayer(RedisPubSubChannelLayer):
    async def group_send_many(self, events):
        """Send ``[(group, message), ...]``: the same as ``group_send`` for each, in order,
        in one round trip per shard."""
        layer = self._get_layer()
        batches = {}
        for group, message in events:
            channel = layer._get_group_channel_name(group)
            batches.setdefault(layer._get_shard(channel), []).append(
                (channel, self.serialize(message)))
        for shard, batch in batches.items():
            async with shard._lock:
                shard._ensure_redis()
                async with shard._redis.pipeline(transaction=False) as pipe:
                    for channel, data in batch:
                        pipe.publish(channel, data)
                    await pipe.execute()
