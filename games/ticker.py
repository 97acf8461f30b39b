"""The per-process background ticker: timers, bot moves, seeks and the process's heartbeat.

Each server process runs one ticker task on its event loop.  Under daphne it starts
as soon as the server runs (``start_with_server``); under any other ASGI server, with
the first request or socket (``TickerMiddleware``).  Deadlines and bot turns live in
the database and are claimed under row locks, so any number of processes may tick
and the ticker never depends on a particular socket staying open.  Waiting seeks
are paired on each tick too: their rating windows widen and the bots' wait runs out
while nobody makes a new seek.  Every few seconds
the ticker also beats for this process and releases the sockets of processes that
stopped beating (``games.presence``).
"""

from __future__ import annotations

import asyncio
import logging
import sys
import time
from typing import Any

from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from django.db import close_old_connections

from games import presence, services
from games.conf import setting
from matchmaking import services as matchmaking

logger = logging.getLogger(__name__)

_task: asyncio.Task | None = None
_busy: set[int] = set()
_last_beat = 0.0


def ensure_started(loop: asyncio.AbstractEventLoop | None = None) -> None:
    """Start this process's ticker on ``loop`` (default: the running loop), once."""
    global _task
    if not setting("GAMES_TICKER"):
        return
    loop = loop or asyncio.get_running_loop()
    if _task is None or _task.done() or _task.get_loop() is not loop:
        _task = loop.create_task(_run())


async def _run() -> None:
    while True:
        try:
            await tick()
        except asyncio.CancelledError:
            raise
        except Exception:
            logger.exception("game ticker failed; trying again")
        await asyncio.sleep(setting("GAMES_TICK_SECONDS"))


async def tick() -> None:
    global _last_beat
    if time.monotonic() - _last_beat >= setting("GAMES_SERVER_BEAT_SECONDS"):
        _last_beat = time.monotonic()
        await database_sync_to_async(_beat)()
    await database_sync_to_async(services.expire_deadlines)()
    await database_sync_to_async(matchmaking.pair_all)()
    for match_id in await database_sync_to_async(services.due_bot_matches)():
        if match_id in _busy:
            continue
        _busy.add(match_id)
        task = asyncio.ensure_future(_bot_turn(match_id))
        task.add_done_callback(lambda _t, m=match_id: _busy.discard(m))


async def _bot_turn(match_id: int) -> None:
    # A worker thread of its own: bot search must not hold up the shared database thread.
    await sync_to_async(_bot_turn_sync, thread_sensitive=False)(match_id)


def _bot_turn_sync(match_id: int) -> None:
    close_old_connections()
    try:
        services.run_bot_turn(match_id)
    except Exception:
        logger.exception("bot move at match %s failed", match_id)
    finally:
        close_old_connections()


def _beat() -> None:
    presence.beat()
    released = services.release_dead_servers()
    if released:
        logger.warning("released %d sockets of server processes that stopped beating", released)


def start_with_server() -> None:
    """Under daphne, start the ticker when its reactor starts, before any request.

    Daphne sets the reactor's asyncio loop as the current loop before running it, so
    the task is created on the loop that will serve this process.
    """
    if "twisted.internet.reactor" not in sys.modules:
        return
    from twisted.internet import reactor

    # Not running yet at this point, so the loop is taken as the current one.
    reactor.callWhenRunning(lambda: ensure_started(asyncio.get_event_loop()))


class TickerMiddleware:
    """ASGI wrapper that makes sure the ticker runs in the serving process."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict, receive: Any, send: Any) -> Any:
        ensure_started()
        return await self.app(scope, receive, send)
