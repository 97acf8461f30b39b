"""The site's channel layers: the libraries' own, with their hot paths made cheaper.

``RedisChannelLayer``: channels-redis receives a process's messages one at a time.
For each one it runs a script, a BZPOPMIN, a ZADD to a backup set and a ZPOPMIN from
it, four round trips in a row, and it hands a lock from socket to socket in between.
A process with hundreds of sockets gets a push for each of them on every move, and
it fell behind by hundreds of milliseconds under load (docs/performance.md,
"Cluster load").  Here one task per process and event loop drains the process's
queue in batches with BZMPOP, one command that waits for the queue and takes up to a
batch (on Redis before 7.0, ZPOPMIN with a count, then BZPOPMIN when the queue is
empty).  It hands each message to its socket's mailbox.

A group send is one script, one round trip instead of four: it drops the group's
expired members, and appends one entry to each process queue that has members, naming
them.  The entry is this module's own format (a ``g`` tag, a nonce, the channels, the
message), so every process must run this layer; everything else it writes carries an
``m`` tag in front of channels-redis' own format.  The script reads keys it was not
given, which a single Redis server allows: with several hosts, or with per-channel
capacities, a group send takes the two-step path instead (a pipeline for the members,
then a script for the queues).

The backup set is given up.  Without it, a message popped by a process that dies at
that instant is lost.  It was for that process's own sockets, which die with it, and
every reconnect renders the whole table anyway.

``InMemoryChannelLayer``: channels' in-memory layer scans every channel and group for
expired messages on each receive.  With a thousand sockets that scan took a tenth of
the process's time.  Here it runs at most once a second.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
import types
import weakref
from typing import Any

from channels.layers import InMemoryChannelLayer as BaseInMemoryChannelLayer
from channels_redis.core import BoundedQueue
from channels_redis.core import RedisChannelLayer as BaseRedisChannelLayer
from redis.exceptions import ResponseError

logger = logging.getLogger(__name__)


# KEYS: the process queues; ARGV: one message per queue, one capacity per queue,
# then the time and the expiry.  Returns how many queues were full.
_SEND_TO_QUEUES = """
local now = tonumber(ARGV[#ARGV - 1])
local expiry = tonumber(ARGV[#ARGV])
local full = 0
for i = 1, #KEYS do
    redis.call('ZREMRANGEBYSCORE', KEYS[i], 0, math.floor(now) - expiry)
    if redis.call('ZCARD', KEYS[i]) < tonumber(ARGV[#KEYS + i]) then
        redis.call('ZADD', KEYS[i], now, ARGV[i])
        redis.call('EXPIRE', KEYS[i], expiry)
    else
        full = full + 1
    end
end
return full
"""

# KEYS: the group; ARGV: the key prefix, the group's expiry cutoff, the time, the
# message expiry, the queue capacity, the entry's head (tag and nonce), the message.
# Returns how many queues were full, and the members that are not process channels.
_GROUP_SEND = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], 0, tonumber(ARGV[2]))
local queues, order, others = {}, {}, {}
for _, channel in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
    local bang = string.find(channel, '!', 1, true)
    if bang then
        local key = ARGV[1] .. string.sub(channel, 1, bang)
        if queues[key] == nil then
            queues[key] = {}
            table.insert(order, key)
        end
        table.insert(queues[key], channel)
    else
        table.insert(others, channel)
    end
end
local now, expiry, capacity = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local full = 0
for _, key in ipairs(order) do
    redis.call('ZREMRANGEBYSCORE', key, 0, math.floor(now) - expiry)
    if redis.call('ZCARD', key) < capacity then
        redis.call('ZADD', key, now, ARGV[6] .. table.concat(queues[key], ',') .. '\\n' .. ARGV[7])
        redis.call('EXPIRE', key, expiry)
    else
        full = full + 1
    end
end
return {full, others}
"""
_GROUP_ENTRY = b"g"
_MESSAGE_ENTRY = b"m"
# A group entry's nonce keeps two sends of the same message apart in the sorted set.
_NONCE_BYTES = 12


class RedisChannelLayer(BaseRedisChannelLayer):
    """channels-redis, receiving this process's messages in batches."""

    receive_batch = 100

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._mailboxes: dict[str, asyncio.Queue] = {}
        # One pump per event loop and process channel ("specific.<id>!", "healthz.<id>!").
        self._pumps: dict[tuple[asyncio.AbstractEventLoop, str], asyncio.Task] = {}
        self._loops_hooked: weakref.WeakSet[asyncio.AbstractEventLoop] = weakref.WeakSet()
        # BZMPOP (Redis 7) waits for and takes a batch in one command.
        self._blocking_batch_pop = True

    async def new_channel(self, prefix: str = "specific") -> str:
        channel = await super().new_channel(prefix)
        # From now on the pump keeps this socket's messages, even before it first asks.
        self._mailbox(channel)
        return channel

    async def receive(self, channel: str) -> dict[str, Any]:
        if "!" not in channel:
            return await super().receive(channel)
        assert self.require_valid_channel_name(channel)
        self._ensure_pump(self.non_local_name(channel))
        mailbox = self._mailbox(channel)
        try:
            return await mailbox.get()
        except asyncio.CancelledError:
            # The socket is closing: what comes for it later has nobody to go to.
            self._mailboxes.pop(channel, None)
            raise

    def serialize(self, message: dict[str, Any]) -> bytes:
        return _MESSAGE_ENTRY + super().serialize(message)

    def deserialize(self, message: bytes) -> dict[str, Any]:
        return super().deserialize(message[len(_MESSAGE_ENTRY) :])

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        assert self.require_valid_group_name(group), "Group name not valid"
        if len(self.hosts) == 1 and not self.channel_capacity:
            await self._group_send_in_one_script(group, message)
        else:
            await self._group_send_in_two_steps(group, message)

    async def _group_send_in_one_script(self, group: str, message: dict[str, Any]) -> None:
        full, others = await self.connection(0).eval(
            _GROUP_SEND,
            1,
            self._group_key(group),
            self.prefix,
            int(time.time()) - self.group_expiry,
            time.time(),
            int(self.expiry),
            self.capacity,
            _GROUP_ENTRY + secrets.token_bytes(_NONCE_BYTES),
            self._serializer.serialize(message),
        )
        if full:
            logger.info("%s queues full in group %s", full, group)
        for channel in others:
            await self.send(channel.decode(), message)

    async def _group_send_in_two_steps(self, group: str, message: dict[str, Any]) -> None:
        key = self._group_key(group)
        connection = self.connection(self.consistent_hash(group))
        async with connection.pipeline(transaction=False) as pipe:
            pipe.zremrangebyscore(key, min=0, max=int(time.time()) - self.group_expiry)
            pipe.zrange(key, 0, -1)
            _, members = await pipe.execute()
        queues_of, message_of, capacity_of = self._map_channel_keys_to_connection(
            [member.decode() for member in members], message
        )
        for index, queues in queues_of.items():
            args = [message_of[queue] for queue in queues]
            args += [capacity_of[queue] for queue in queues]
            args += [time.time(), int(self.expiry)]
            full = await self.connection(index).eval(_SEND_TO_QUEUES, len(queues), *queues, *args)
            if full:
                logger.info("%s of %s queues full in group %s", full, len(queues), group)

    async def close_pools(self) -> None:
        loop = asyncio.get_running_loop()
        pumps = [self._pumps.pop(key) for key in list(self._pumps) if key[0] is loop]
        for pump in pumps:
            pump.cancel()
        await asyncio.gather(*pumps, return_exceptions=True)
        await super().close_pools()

    def _mailbox(self, channel: str) -> asyncio.Queue:
        mailbox = self._mailboxes.get(channel)
        if mailbox is None:
            mailbox = self._mailboxes[channel] = BoundedQueue(self.get_capacity(channel))
        return mailbox

    def _ensure_pump(self, process_channel: str) -> None:
        loop = asyncio.get_running_loop()
        pump = self._pumps.get((loop, process_channel))
        if pump is not None and not pump.done():
            return
        if loop not in self._loops_hooked:
            self._loops_hooked.add(loop)
            self._stop_pumps_on_close(loop)
        self._pumps = {
            key: task
            for key, task in self._pumps.items()
            if not key[0].is_closed() and not task.done()
        }
        self._pumps[loop, process_channel] = loop.create_task(self._pump(process_channel))

    def _stop_pumps_on_close(self, loop: asyncio.AbstractEventLoop) -> None:
        original_close = loop.close

        def close(this: asyncio.AbstractEventLoop) -> None:
            pumps = [self._pumps.pop(key) for key in list(self._pumps) if key[0] is loop]
            pumps = [pump for pump in pumps if not pump.done()]
            if pumps and not loop.is_running():
                for pump in pumps:
                    pump.cancel()
                loop.run_until_complete(asyncio.gather(*pumps, return_exceptions=True))
            this.close = original_close
            original_close()

        loop.close = types.MethodType(close, loop)

    async def _pump(self, process_channel: str) -> None:
        index = self.consistent_hash(process_channel)
        key = self.prefix + process_channel
        this_task = asyncio.current_task()
        while True:
            # On Python 3.11 redis-py's socket writes go through asyncio.wait_for, which
            # can swallow a cancellation that lands as the write completes: look for
            # one after every call instead of trusting it to be raised.
            if this_task.cancelling():
                raise asyncio.CancelledError
            try:
                contents = await self._pop_batch(self.connection(index), key)
            except asyncio.CancelledError:
                raise
            except Exception:
                if this_task.cancelling():
                    raise asyncio.CancelledError from None
                logger.exception("receiving from Redis failed; trying again in a second")
                await asyncio.sleep(1)
                continue
            for content in contents:
                self._deliver(content)

    async def _pop_batch(self, connection: Any, key: str) -> list[bytes]:
        """Up to a batch of the queue's messages, waiting a while for one if it is empty."""
        if self._blocking_batch_pop:
            try:
                popped = await connection.bzmpop(
                    self.brpop_timeout, 1, [key], min=True, count=self.receive_batch
                )
            except ResponseError as error:
                if "unknown command" not in str(error).lower():
                    raise
                self._blocking_batch_pop = False  # Redis before 7.0
            else:
                return [member for member, _ in popped[1]] if popped else []
        contents = [member for member, _ in await connection.zpopmin(key, self.receive_batch)]
        if not contents and not asyncio.current_task().cancelling():
            popped = await connection.bzpopmin(key, timeout=self.brpop_timeout)
            contents = [popped[1]] if popped is not None else []
        return contents

    def _deliver(self, content: bytes) -> None:
        if content.startswith(_GROUP_ENTRY):
            channels, _, body = content[len(_GROUP_ENTRY) + _NONCE_BYTES :].partition(b"\n")
            targets = channels.decode().split(",")
            message = self._serializer.deserialize(body)
        else:
            message = self.deserialize(content)
            targets = message.pop("__asgi_channel__", None)
            if isinstance(targets, str):
                targets = [targets]
        for channel in targets or ():
            mailbox = self._mailboxes.get(channel)
            if mailbox is not None:
                mailbox.put_nowait(dict(message))


class InMemoryChannelLayer(BaseInMemoryChannelLayer):
    """channels' in-memory layer, looking for expired messages at most once a second."""

    clean_interval = 1.0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._cleaned_at = float("-inf")

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self._cleaned_at < self.clean_interval:
            return
        self._cleaned_at = now
        super()._clean_expired()
