"""The per-process background ticker: timers, seeks, other processes' moves, the heartbeat.

Each web process runs one ticker task on its event loop.  Under daphne it starts as
soon as the server runs (``start_with_server``); under any other ASGI server, with
the first request or socket (``TickerMiddleware``).  Deadlines live in the database
and are claimed under row locks, so any number of processes may tick and the ticker
never depends on a particular socket staying open.  Each tick also sends
``games.signals.ticked`` for the apps above: matchmaking pairs the waiting seeks
then, as their rating windows widen and the bots' wait runs out while nobody makes
a new seek.  Every few seconds the ticker also beats for this process, renews the
socket-cap rows of all its sockets, and releases the sockets of processes that stopped
beating (``games.presence``).

Bot moves are chosen on bot workers (``manage.py bot_worker``), never here.  A
worker's push after its commit reaches this process's sockets through Redis; the
in-memory layer of the embedded setup reaches no other process, so each tick also
reads the versions of the tables whose sockets this process holds (one indexed
query) and announces any version ahead of what its sockets were last told, the
same announcement a move's commit sends.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import sys
import time
from typing import Any

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from games import presence, services, signals
from games.conf import setting
from games.models import Match
from games.socket_guard import (
    forget_expired_sockets,
    renew_process_sockets,
    tell_sockets_of_expired_sessions,
)

logger = logging.getLogger(__name__)

_task: asyncio.Task | None = None
_last_beat = 0.0


@dataclasses.dataclass
class _Watched:
    """This process's sockets of one table, and the highest version they heard of."""

    channels: set[str]
    heard: int


# Only touched on the event loop's thread.
_watched: dict[int, _Watched] = {}


def watch_table(match_id: int, channel_name: str, version: int) -> None:
    """The socket ``channel_name`` of this process shows ``match_id`` at ``version``."""
    entry = _watched.setdefault(match_id, _Watched(set(), version))
    entry.channels.add(channel_name)
    entry.heard = max(entry.heard, version)


def unwatch_table(match_id: int, channel_name: str) -> None:
    entry = _watched.get(match_id)
    if entry is not None:
        entry.channels.discard(channel_name)
        if not entry.channels:
            del _watched[match_id]


def table_announced(match_id: int, version: int) -> None:
    """This process's sockets of ``match_id`` were told of ``version``."""
    entry = _watched.get(match_id)
    if entry is not None:
        entry.heard = max(entry.heard, version)


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
    await database_sync_to_async(_ticked)()
    await announce_versions_ahead()


async def announce_versions_ahead() -> None:
    """Announce to this process's sockets the versions another process committed.

    A version counts as heard only when a socket here receives its announcement
    (``table_announced``), not when it is sent: an announcement lost on the way (a
    Redis restart) is sent again at the next tick, until a socket hears it.
    """
    if not _watched:
        return
    versions = await database_sync_to_async(_versions)(list(_watched))
    layer = get_channel_layer()
    for match_id, version in versions:
        entry = _watched.get(match_id)
        if entry is None or version <= entry.heard:
            continue
        message = services.match_changed_message(match_id, version)
        # Should the layer be away, the next tick tries again: a version counts as
        # heard only when a socket receives it.
        await services.Push(message, channels=tuple(entry.channels)).send(layer)


def _ticked() -> None:
    signals.ticked.send(sender=None)


def _versions(match_ids: list[int]) -> list[tuple[int, int]]:
    return list(Match.objects.filter(pk__in=match_ids).values_list("pk", "version"))


def _beat() -> None:
    presence.beat()
    renew_process_sockets()
    forget_expired_sockets()
    tell_sockets_of_expired_sessions()
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
