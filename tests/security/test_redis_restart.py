"""A Redis restart mid-game: once Redis is back, a move reaches both players again
without anyone reloading, because each process subscribes to its groups again when
it reconnects.  The test runs a Redis server of its own, so it restarts nobody
else's."""

from __future__ import annotations

import asyncio
import shutil
import socket
import subprocess
import time

import pytest
from channels.layers import channel_layers

from durak_site.cluster import free_port
from tests.sockets import db, in_own_loop, session_cookie

from .helpers import two_player_table
from .open_sockets import open_caught_up
from .test_layer_loss import move

pytestmark = pytest.mark.django_db(transaction=True)


class RedisServer:
    def __init__(self, port: int) -> None:
        self.port = port
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                shutil.which("redis-server") or "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            stdout=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def stop(self) -> None:
        assert self.process is not None
        self.process.terminate()
        self.process.wait(10)


@pytest.fixture
def own_redis(settings):
    server = RedisServer(free_port())
    server.start()
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {
                **settings.CHANNEL_LAYERS["default"].get("CONFIG", {}),
                "hosts": [
                    {**settings.REDIS_HOST_OPTIONS, "address": f"redis://127.0.0.1:{server.port}/0"}
                ],
            },
        }
    }
    settings.GAMES_SOCKET_HEARTBEAT = 3600  # nothing but the layer itself recovers
    settings.GAMES_TICKER = False
    channel_layers.backends.clear()
    yield server
    channel_layers.backends.clear()
    server.stop()
    from asgiref.sync import SyncToAsync
    from django.db import connections

    SyncToAsync.single_thread_executor.submit(connections.close_all).result()


def test_moves_reach_both_players_again_after_a_redis_restart(own_redis):
    match, users = two_player_table()
    cookies = [session_cookie(user) for user in users]

    @in_own_loop
    async def run() -> None:
        sockets = await open_caught_up(match, cookies)
        version = await db(move, match.pk)
        for sock in sockets:
            await sock.until_version(version)
        await asyncio.to_thread(own_redis.stop)
        await asyncio.to_thread(own_redis.start)
        await asyncio.sleep(3)  # the layer notices, reconnects and subscribes again
        version = await db(move, match.pk)
        for sock in sockets:
            await sock.until_version(version, timeout=10)
        for sock in sockets:
            await sock.close()

    run()
