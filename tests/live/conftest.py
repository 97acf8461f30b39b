"""Helpers for live-play tests: users, sessions and WebSocket clients on the real stack."""

from __future__ import annotations

import asyncio
import functools
import json
import re
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.auth import AuthMiddlewareStack
from channels.routing import URLRouter
from channels.security.websocket import AllowedHostsOriginValidator
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.test import Client

from durak_site.routing import websocket_urlpatterns

CARD = re.compile(r"(?<![A-Za-z0-9])[2-9TJQKA][CDHS](?![A-Za-z0-9])")
VERSION = re.compile(r'id="table-version"[^>]*data-version="(\d+)"')


@pytest.fixture(autouse=True)
def standard_variants(django_db_blocker):
    """Transactional tests flush the data migration's variants: put them back."""
    import importlib

    from django.apps import apps

    migration = importlib.import_module("games.migrations.0002_standard_variants")
    with django_db_blocker.unblock():
        migration.create_variants(apps, None)


@pytest.fixture(autouse=True)
def fresh_channel_layer():
    """Each async test runs its own event loop; channels-redis binds to one, so start anew."""
    from channels.layers import channel_layers

    from games import live_cache

    channel_layers.backends.clear()
    live_cache._recent.clear()  # Table ids restart with every test's database.
    yield
    channel_layers.backends.clear()
    live_cache._recent.clear()
    # Consumers query from asgiref's one sync thread, which keeps its connection;
    # close it so the test database can be dropped at the end.
    from asgiref.sync import SyncToAsync
    from django.db import connections

    SyncToAsync.single_thread_executor.submit(connections.close_all).result()


@pytest.fixture(autouse=True)
def fast_live_settings(settings):
    settings.GAMES_BOT_DELAY = (0.0, 0.0)
    settings.GAMES_CHAT_RATE = (3, 10)


def make_user(name: str, **extra: Any):
    return get_user_model().objects.create_user(username=name, password="pw-" + name, **extra)


def session_cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


def application():
    return AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns)))


class Socket:
    """One viewer's WebSocket, keeping every frame it received."""

    def __init__(self, path: str, cookie: str | None) -> None:
        headers = [(b"origin", b"http://testserver")]
        if cookie:
            headers.append((b"cookie", f"sessionid={cookie}".encode()))
        self.comm = WebsocketCommunicator(application(), path, headers=headers)
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
        return await self.until(
            lambda f: frame_version(f) is not None and frame_version(f) >= version, timeout
        )

    async def until_error(self, timeout: float = 5) -> str:
        return await self.until(lambda f: 'id="table-error"' in f, timeout)

    async def drain(self) -> None:
        """Read whatever is still on its way (presence pushes after connects)."""
        while not await self.comm.receive_nothing(timeout=0.3):
            await self.receive()

    async def nothing_more(self) -> bool:
        return await self.comm.receive_nothing(timeout=0.2)


def frame_version(frame: str) -> int | None:
    found = VERSION.search(frame)
    return int(found.group(1)) if found else None


def card_codes(frame: str) -> set[str]:
    return set(CARD.findall(frame))


def in_own_loop(test):
    """Run an async test on a fresh event loop in its own thread.

    A session-wide Playwright browser keeps an event loop marked as running in the
    main thread, so an async test scheduled after a browser test in the same worker
    could not start its loop there.
    """

    @functools.wraps(test)
    def run(*args, **kwargs):
        with ThreadPoolExecutor(max_workers=1) as pool:
            return pool.submit(asyncio.run, test(*args, **kwargs)).result()

    return run


@sync_to_async
def db(fn, *args, **kwargs):
    return fn(*args, **kwargs)
