"""In-process WebSocket clients and helpers shared by the live and scale tests."""

from __future__ import annotations

import asyncio
import functools
import json
import re
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

CARD = re.compile(r"(?<![A-Za-z0-9])[2-9TJQKA][CDHS](?![A-Za-z0-9])")
VERSION = re.compile(r'id="table-version"[^>]*data-version="(\d+)"')
ERROR = 'id="table-error"'


def frame_version(frame: str) -> int | None:
    found = VERSION.search(frame)
    return int(found.group(1)) if found else None


def card_codes(text: str) -> set[str]:
    return set(CARD.findall(text))


def session_cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


def in_own_loop(test):
    """Run an async test on a fresh event loop in a thread of its own.

    A session-wide Playwright browser keeps an event loop marked as running in the
    main thread, so an async test that lands after a browser test in the same
    worker could not start its loop there.
    """

    @functools.wraps(test)
    def run(*args, **kwargs):
        with ThreadPoolExecutor(max_workers=1) as pool:
            return pool.submit(asyncio.run, test(*args, **kwargs)).result()

    return run


@sync_to_async
def db(fn, *args, **kwargs):
    return fn(*args, **kwargs)


# How long a test waits for the next frame it expects.  Generous: a frame that is
# due arrives in milliseconds, and a loaded CI machine (two test processes beside
# PostgreSQL and Redis) may stall one for seconds; a frame that never comes still
# fails the test.
FRAME_WAIT = 15.0


class Socket:
    """One viewer's WebSocket, keeping every frame it received.

    Subclasses say which ASGI application serves it and how long ``drain`` waits
    for silence.
    """

    drain_quiet = 0.3

    def application(self) -> Any:
        raise NotImplementedError

    def __init__(self, path: str, cookie: str | None, origin: str = "http://testserver") -> None:
        headers = [(b"origin", origin.encode())] if origin else []
        if cookie:
            headers.append((b"cookie", f"sessionid={cookie}".encode()))
        self.comm = WebsocketCommunicator(self.application(), path, headers=headers)
        self.frames: list[str] = []

    async def open(self) -> tuple[bool, Any]:
        # The communicator's own default is one second: a loaded machine's first
        # handshake of a test (a fresh database connection, Redis) may take longer.
        connected, code = await self.comm.connect(timeout=10)
        if not connected:
            # daphne tells a consumer that refused the handshake that the socket is
            # gone; do the same, so its channel-layer receive ends here and is not
            # left for the event loop's shutdown to cancel.
            await self.comm.disconnect()
        return connected, code

    async def close(self) -> None:
        await self.comm.disconnect()

    async def send(self, data: Any) -> None:
        await self.comm.send_to(text_data=data if isinstance(data, str) else json.dumps(data))

    async def receive(self, timeout: float = FRAME_WAIT) -> str:
        frame = await self.comm.receive_from(timeout=timeout)
        self.frames.append(frame)
        return frame

    async def until(self, predicate, timeout: float = FRAME_WAIT) -> str:
        while True:
            frame = await self.receive(timeout)
            if predicate(frame):
                return frame

    async def until_version(self, version: int, timeout: float = FRAME_WAIT) -> str:
        def reached(frame: str) -> bool:
            found = frame_version(frame)
            return found is not None and found >= version

        return await self.until(reached, timeout)

    async def until_error(self, timeout: float = FRAME_WAIT) -> str:
        return await self.until(lambda f: ERROR in f, timeout)

    async def drain(self, quiet: float | None = None) -> None:
        """Read frames until none arrives for ``quiet`` seconds."""
        while not await self.comm.receive_nothing(timeout=quiet or self.drain_quiet):
            await self.receive()

    async def nothing_more(self) -> bool:
        return await self.comm.receive_nothing(timeout=0.2)


async def answer_a_hint() -> None:
    """Play a bot worker's part: answer the hint request a socket sent (once it arrives)."""
    import time

    from analysis import hints

    deadline = time.monotonic() + 30
    while not await db(hints.answer_next_hint):
        assert time.monotonic() < deadline, "no hint request arrived"
        await asyncio.sleep(0.05)
