"""The site's channel layers deliver what the libraries' layers deliver (durak_site.channel_layers)."""

from __future__ import annotations

import asyncio
import os
import uuid

import pytest
from channels.layers import InMemoryChannelLayer as BaseInMemoryChannelLayer
from redis.asyncio import Redis
from redis.exceptions import ResponseError

from durak_site.channel_layers import InMemoryChannelLayer, RedisChannelLayer
from tests.scale.conftest import isolated_redis_url

needs_redis = pytest.mark.skipif(
    not os.environ.get("REDIS_URL"), reason="the Redis layer needs REDIS_URL"
)


def redis_layers(processes: int, **config: int) -> list[RedisChannelLayer]:
    """One layer per simulated server process, all on a key prefix of this test only."""
    prefix = f"durak-test-{uuid.uuid4().hex[:10]}"
    url = isolated_redis_url(os.environ["REDIS_URL"])
    config = {"capacity": 1500, **config}
    return [RedisChannelLayer(hosts=[url], prefix=prefix, **config) for _ in range(processes)]


async def receive_all(layer, channel: str, count: int, timeout: float = 10.0) -> list[dict]:
    return [await asyncio.wait_for(layer.receive(channel), timeout) for _ in range(count)]


@needs_redis
@pytest.mark.parametrize("server", ["Redis 7", "Redis before 7.0"])
def test_a_burst_to_many_sockets_of_one_process_arrives_complete_and_in_order(server, monkeypatch):
    if server == "Redis before 7.0":

        async def unknown(*args, **kwargs):
            raise ResponseError("unknown command 'BZMPOP', with args beginning with: ")

        monkeypatch.setattr(Redis, "bzmpop", unknown)

    async def scenario():
        process, other_process = redis_layers(2)
        channels = [await process.new_channel() for _ in range(5)]
        # More than one batch of the pump, sent by another process, interleaved.
        for number in range(60):
            for channel in channels:
                await other_process.send(channel, {"type": "m", "n": number, "to": channel})
        received = await asyncio.gather(*(receive_all(process, c, 60) for c in channels))
        for channel, messages in zip(channels, received, strict=True):
            assert [m["n"] for m in messages] == list(range(60))
            assert {m["to"] for m in messages} == {channel}
            assert all("__asgi_channel__" not in m for m in messages)
        assert process._blocking_batch_pop is (server == "Redis 7")
        await process.flush()
        await other_process.close_pools()

    asyncio.run(scenario())


@needs_redis
@pytest.mark.parametrize(
    "config",
    [{}, {"channel_capacity": {"other.*": 10}}],
    ids=["one script", "two steps (per-channel capacities)"],
)
def test_a_group_message_reaches_each_member_once_across_processes(config):
    async def scenario():
        first, second = redis_layers(2, **config)
        a1, a2, b1 = (
            await first.new_channel(),
            await first.new_channel(),
            await second.new_channel(),
        )
        for channel, layer in ((a1, first), (a2, first), (b1, second)):
            await layer.group_add("match-1", channel)
        # Separators of the group entry inside the message itself change nothing.
        message = {"type": "match.changed", "version": 7, "text": "a,b\nc!d"}
        await second.group_send("match-1", message)
        for layer, channel in ((first, a1), (first, a2), (second, b1)):
            assert await asyncio.wait_for(layer.receive(channel), 10) == message
        # Nothing more is queued for anybody.
        for layer, channel in ((first, a1), (first, a2), (second, b1)):
            with pytest.raises(TimeoutError):
                await asyncio.wait_for(layer.receive(channel), 0.3)
        await first.flush()
        await second.close_pools()

    asyncio.run(scenario())


@needs_redis
def test_a_group_member_that_is_not_a_process_channel_gets_the_message_too():
    async def scenario():
        layer, sender = redis_layers(2)
        socket = await layer.new_channel()
        await layer.group_add("g", socket)
        await layer.group_add("g", "worker.tasks")
        await sender.group_send("g", {"type": "m", "n": 1})
        assert await asyncio.wait_for(layer.receive(socket), 10) == {"type": "m", "n": 1}
        assert await asyncio.wait_for(layer.receive("worker.tasks"), 10) == {"type": "m", "n": 1}
        await layer.flush()
        await sender.close_pools()

    asyncio.run(scenario())


@needs_redis
def test_a_closed_socket_drops_its_later_messages_and_the_others_still_get_theirs():
    async def scenario():
        (layer,) = redis_layers(1)
        closing, staying = await layer.new_channel(), await layer.new_channel()
        waiting = asyncio.ensure_future(layer.receive(closing))
        await asyncio.sleep(0.1)
        waiting.cancel()
        await asyncio.gather(waiting, return_exceptions=True)
        await layer.send(closing, {"type": "m", "n": 1})
        await layer.send(staying, {"type": "m", "n": 2})
        assert await asyncio.wait_for(layer.receive(staying), 10) == {"type": "m", "n": 2}
        assert closing not in layer._mailboxes
        await layer.flush()

    asyncio.run(scenario())


def test_the_in_memory_layer_still_expires_messages_but_scans_at_most_once_a_second(monkeypatch):
    scans = []
    original = BaseInMemoryChannelLayer._clean_expired

    def counting_clean(self) -> None:
        scans.append(1)
        original(self)

    monkeypatch.setattr(BaseInMemoryChannelLayer, "_clean_expired", counting_clean)

    async def scenario():
        layer = InMemoryChannelLayer(expiry=0.05)
        stale = await layer.new_channel()
        await layer.group_add("g", stale)
        await layer.send(stale, {"type": "old"})
        fresh = await layer.new_channel()
        for number in range(50):
            await layer.send(fresh, {"type": "m", "n": number})
            assert (await layer.receive(fresh))["n"] == number
        assert len(scans) == 1
        await asyncio.sleep(layer.clean_interval + 0.05)
        await layer.send(fresh, {"type": "m", "n": 50})
        await layer.receive(fresh)
        assert len(scans) == 2
        # The expired message is gone, and with it the stale channel's membership.
        assert stale not in layer.channels
        assert stale not in layer.groups.get("g", {})

    asyncio.run(scenario())


@needs_redis
def test_channels_with_different_prefixes_on_one_loop_both_receive():
    # The health check's "healthz." channel and the sockets' "specific." channels are
    # separate queues in Redis, each drained by its own pump.
    async def scenario():
        (layer,) = redis_layers(1)
        health = await layer.new_channel("healthz.")
        await layer.send(health, {"type": "ping"})
        assert await asyncio.wait_for(layer.receive(health), 10) == {"type": "ping"}
        socket = await layer.new_channel()
        await layer.send(socket, {"type": "push"})
        assert await asyncio.wait_for(layer.receive(socket), 10) == {"type": "push"}
        await layer.flush()

    asyncio.run(scenario())


@needs_redis
def test_a_group_send_keeps_the_queue_capacity_and_the_group_expiry():
    async def scenario():
        layer, sender = redis_layers(2, capacity=2, group_expiry=2)
        channel = await layer.new_channel()
        await layer.group_add("g", channel)
        # Nobody receives yet: the process queue fills up at two and drops the third.
        for number in range(3):
            await sender.group_send("g", {"type": "m", "n": number})
        assert [m["n"] for m in await receive_all(layer, channel, 2)] == [0, 1]
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(layer.receive(channel), 0.5)
        # A membership older than the group expiry is dropped instead of served.
        await asyncio.sleep(3.1)
        waiting = asyncio.ensure_future(layer.receive(channel))
        await asyncio.sleep(0.1)
        await sender.group_send("g", {"type": "m", "n": 3})
        await asyncio.sleep(0.5)
        assert not waiting.done()
        # The same wait does get a message sent to the channel itself.
        await sender.send(channel, {"type": "m", "n": 4})
        assert (await asyncio.wait_for(waiting, 10))["n"] == 4
        await layer.flush()
        await sender.close_pools()

    asyncio.run(scenario())
