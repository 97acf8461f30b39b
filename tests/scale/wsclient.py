"""A real WebSocket client (the ``websockets`` package) for tests against daphne processes."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any
from urllib.parse import urlsplit

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from tests.sockets import frame_version

HAND_CARD = re.compile(r'class="hand-card"[^>]*data-card="([2-9TJQKA][CDHS])"')


class TableClient:
    """One viewer's socket at ``/ws/games/<id>/`` on one process; keeps every frame."""

    def __init__(self, base_url: str, match_id: int, cookie: str) -> None:
        self.base_url = base_url
        self.match_id = match_id
        self.cookie = cookie
        self.conn: ClientConnection | None = None
        self.frames: list[str] = []
        self.version = -1
        # Times the server closed the socket with 1011 and the client came back.
        self.drops = 0

    async def open(self, base_url: str | None = None) -> str:
        """Connect (or reconnect, possibly elsewhere); returns the full render sent first."""
        if base_url is not None:
            self.base_url = base_url
        parts = urlsplit(self.base_url)
        self.conn = await connect(
            f"ws://{parts.netloc}/ws/games/{self.match_id}/",
            origin=f"{parts.scheme}://{parts.netloc}",
            additional_headers={"Cookie": f"sessionid={self.cookie}"},
            open_timeout=20,
            ping_interval=None,
        )
        return await self.until(lambda f: frame_version(f) is not None)

    async def close(self) -> None:
        if self.conn is not None:
            await self.conn.close()

    async def send(self, data: dict[str, Any]) -> None:
        assert self.conn is not None
        await self.conn.send(json.dumps(data))

    async def act(self, action: str, version: int) -> None:
        await self.send({"type": "action", "action": action, "version": version})

    async def receive(self, timeout: float = 10) -> str:
        assert self.conn is not None
        try:
            frame = await asyncio.wait_for(self.conn.recv(), timeout)
        except ConnectionClosed as closed:
            # Like the page's ws extension: after a server error, reconnect to the same
            # process; the full render sent on connect brings the client up to date.
            if closed.rcvd is None or closed.rcvd.code != 1011:
                raise
            self.drops += 1
            return await self.open()
        if isinstance(frame, bytes):
            frame = frame.decode()
        self.frames.append(frame)
        version = frame_version(frame)
        if version is not None:
            self.version = max(self.version, version)
        return frame

    async def until(self, predicate, timeout: float = 10) -> str:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            frame = await self.receive(max(0.01, deadline - loop.time()))
            if predicate(frame):
                return frame

    async def until_version(self, version: int, timeout: float = 10) -> str:
        if self.version >= version and self.frames:
            return self.frames[-1]
        return await self.until(lambda f: (frame_version(f) or -1) >= version, timeout)


def hand_in(frame: str) -> list[str]:
    return HAND_CARD.findall(frame)
