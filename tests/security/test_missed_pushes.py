"""A page never waits on a lost push.  Pushes sent while Redis restarts are lost, and
a page used to show the old table until the next move or the turn timer.  Now each
process's ticker compares the versions of the tables it holds sockets of with the
versions those sockets heard of, and announces again, tick after tick, any version
no socket here has heard (``ticker.announce_versions_ahead``).  The test runs a Redis
server of its own, so it restarts nobody else's."""

from __future__ import annotations

import asyncio
import contextlib

import pytest

from games import ticker
from tests.sockets import db, in_own_loop, session_cookie

from .helpers import two_player_table
from .open_sockets import open_caught_up
from .test_layer_loss import move
from .test_redis_restart import own_redis  # noqa: F401  (the fixture)

pytestmark = pytest.mark.django_db(transaction=True)


async def ticking(period: float) -> None:
    """The process's ticker, every ``period`` seconds."""
    while True:
        with contextlib.suppress(Exception):  # as the ticker itself: try again
            await ticker.tick()
        await asyncio.sleep(period)


def test_every_open_page_catches_up_after_a_push_lost_in_a_redis_restart(own_redis) -> None:  # noqa: F811
    match, users = two_player_table()
    cookies = [session_cookie(user) for user in users]

    @in_own_loop
    async def run() -> None:
        sockets = await open_caught_up(match, cookies)
        checker = asyncio.ensure_future(ticking(0.5))
        await asyncio.to_thread(own_redis.stop)
        version = await db(move, match.pk)  # its push is lost: Redis is down
        await asyncio.to_thread(own_redis.start)
        # Nobody moves again; every page still gets the move within a few seconds.
        for sock in sockets:
            await sock.until_version(version, timeout=10)
        checker.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await checker
        for sock in sockets:
            await sock.close()

    run()
