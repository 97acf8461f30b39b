"""Fixtures of the scale tests: standard variants, users with sessions, sockets, a cluster."""

from __future__ import annotations

import asyncio
import functools
import itertools
import json
import os
import re
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth import get_user_model
from django.test import Client

CARD = re.compile(r"(?<![A-Za-z0-9])[2-9TJQKA][CDHS](?![A-Za-z0-9])")
VERSION = re.compile(r'id="table-version"[^>]*data-version="(\d+)"')
ERROR = 'id="table-error"'
needs_cluster_backends = pytest.mark.skipif(
    not (os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL")),
    reason="several processes need DATABASE_URL (PostgreSQL) and REDIS_URL (channels-redis)",
)
_names = itertools.count()


@pytest.fixture(scope="session", autouse=True)
def drop_stray_connections(django_db_setup, django_db_blocker) -> Iterator[None]:
    """Before the test database is dropped, end connections other threads left open.

    Consumers run queries in worker threads that keep their connection (CONN_MAX_AGE);
    PostgreSQL refuses to drop a database somebody is still connected to.
    """
    yield
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )


@pytest.fixture(autouse=True)
def standard_variants(request, django_db_blocker) -> None:
    """Transactional tests flush the data migration's variants: put them back."""
    import importlib

    from django.apps import apps

    if request.node.get_closest_marker("django_db") is None:
        return
    request.getfixturevalue("django_db_setup")

    migration = importlib.import_module("games.migrations.0002_standard_variants")
    with django_db_blocker.unblock():
        migration.create_variants(apps, None)


@pytest.fixture(autouse=True)
def quiet_ticker(settings) -> None:
    # In-process sockets run on the test's event loop: no background ticker there.
    settings.GAMES_TICKER = False
    settings.GAMES_BOT_DELAY = (0.0, 0.0)


# Other suites' cache.clear() is FLUSHDB on the cache's Redis database, which would
# also wipe channel-layer groups living there; these tests talk on a database of their own.
SCALE_REDIS_DB = 9


def isolated_redis_url(url: str) -> str:
    """``url`` with the Redis database number these tests use."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{SCALE_REDIS_DB}"))


def make_user(prefix: str = "u", **extra: Any):
    """A user without a password hash (hashing is slow and nothing here logs in by form)."""
    return get_user_model().objects.create(username=f"{prefix}{next(_names)}", **extra)


def session_cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


def in_own_loop(test):
    """Run an async test on a fresh event loop in a thread of its own.

    The session-wide Playwright browser keeps an event loop marked as running in
    the main thread, so an async test that lands after a browser test in the same
    worker could not start its loop there.
    """

    @functools.wraps(test)
    def run(*args, **kwargs):
        with ThreadPoolExecutor(max_workers=1) as pool:
            return pool.submit(asyncio.run, test(*args, **kwargs)).result()

    return run


def _forget_cached_tables() -> None:
    # Renders are cached per table and version in the process; ids restart per test.
    try:
        from games import live_cache

        live_cache._recent.clear()
    except (ImportError, AttributeError):
        pass


@sync_to_async
def db(fn, *args, **kwargs):
    return fn(*args, **kwargs)


def frame_version(frame: str) -> int | None:
    found = VERSION.search(frame)
    return int(found.group(1)) if found else None


def card_codes(text: str) -> set[str]:
    return set(CARD.findall(text))


class Socket:
    """One viewer's in-process WebSocket through the project's real ASGI application."""

    def __init__(self, path: str, cookie: str | None, origin: str = "http://testserver") -> None:
        from channels.testing import WebsocketCommunicator

        from durak_site.asgi import application

        headers = [(b"origin", origin.encode())] if origin else []
        if cookie:
            headers.append((b"cookie", f"sessionid={cookie}".encode()))
        self.comm = WebsocketCommunicator(application, path, headers=headers)
        self.frames: list[str] = []

    async def open(self) -> tuple[bool, Any]:
        return await self.comm.connect()

    async def close(self) -> None:
        await self.comm.disconnect()

    async def send(self, data: Any) -> None:
        await self.comm.send_to(text_data=data if isinstance(data, str) else json.dumps(data))

    async def receive(self, timeout: float = 5) -> str:
        frame = await self.comm.receive_from(timeout=timeout)
        self.frames.append(frame)
        return frame

    async def until(self, predicate, timeout: float = 5) -> str:
        while True:
            frame = await self.receive(timeout)
            if predicate(frame):
                return frame

    async def until_version(self, version: int, timeout: float = 5) -> str:
        return await self.until(lambda f: (frame_version(f) or -1) >= version, timeout)

    async def until_error(self, timeout: float = 5) -> str:
        return await self.until(lambda f: ERROR in f, timeout)

    async def drain(self, quiet: float = 0.1) -> None:
        """Read frames until none arrives for ``quiet`` seconds."""
        while not await self.comm.receive_nothing(timeout=quiet):
            await self.receive()


@pytest.fixture(autouse=True)
def channels_prefix(settings) -> Iterator[str]:
    """A Redis key prefix of this test only, shared with any child process it starts.

    Test databases of parallel runs reuse match ids, so without it their groups
    ("match-1") would meet in one Redis.
    """
    from channels.layers import channel_layers

    prefix = f"durak-test-{uuid.uuid4().hex[:10]}"
    if os.environ.get("REDIS_URL"):
        layers = json.loads(json.dumps(settings.CHANNEL_LAYERS))
        layers["default"]["CONFIG"]["prefix"] = prefix
        layers["default"]["CONFIG"]["hosts"] = [isolated_redis_url(os.environ["REDIS_URL"])]
        settings.CHANNEL_LAYERS = layers
    channel_layers.backends.clear()
    _forget_cached_tables()
    yield prefix
    channel_layers.backends.clear()
    _forget_cached_tables()
