"""Database work of the sockets, on a small pool of threads.

``database_sync_to_async`` runs every call of a process on one thread, so one slow
statement (a commit waiting for the disk) holds up every table of that process.  On
PostgreSQL the socket calls use a pool instead: each thread keeps its own connection,
and the services' row locks keep the changes of one table in order.  SQLite takes
one writer at a time, so there the pool has a single thread.  Calls of one socket
stay in order: a consumer awaits each call before it handles its next message.

The pool's threads do not ping their connection before each call (Django's
``CONN_HEALTH_CHECKS``, which the site's other threads keep): that is one more round
trip on every move.  A connection that died meanwhile (a database restart, an idle
timeout) makes the call fail instead, and the call then runs once more on a new
connection.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from channels.db import database_sync_to_async
from django.db import InterfaceError, OperationalError, connection, connections

from games.conf import setting

_pool: tuple[int, ThreadPoolExecutor] | None = None


def _executor() -> ThreadPoolExecutor:
    global _pool
    # Threads do not survive a fork: a child process makes its own pool.
    if _pool is None or _pool[0] != os.getpid():
        threads = setting("GAMES_DB_THREADS") or (1 if connection.vendor == "sqlite" else 4)
        _pool = (os.getpid(), ThreadPoolExecutor(threads, thread_name_prefix="games-db"))
    return _pool[1]


def on_db_thread(function: Callable[..., Any]) -> Callable[..., Any]:
    """``function`` as a coroutine function run on the pool, with Django's connection care."""

    @functools.wraps(function)
    def call(*args: Any, **kwargs: Any) -> Any:
        for open_connection in connections.all(initialized_only=True):
            open_connection.health_check_enabled = False
        try:
            return function(*args, **kwargs)
        except (InterfaceError, OperationalError):
            if connection.connection is not None and connection.is_usable():
                raise
            # The connection died (Django drops it when even the rollback fails).  The
            # call's transaction went with it, unless the commit itself was lost on
            # the way back; a repeated move is then refused as stale.
            connection.close()
            return function(*args, **kwargs)

    return database_sync_to_async(call, thread_sensitive=False, executor=_executor())
