"""Real WebSocket helpers for the security tests: close codes and refused handshakes."""

from __future__ import annotations

import asyncio
from urllib.parse import urlsplit

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from tests.scale.wsclient import TableClient
from tests.sockets import ERROR


async def handshake_status(base_url: str, path: str, cookie: str | None) -> int:
    """101 when the server accepts the socket, else the HTTP status it answered."""
    netloc = urlsplit(base_url).netloc
    headers = {"Cookie": f"sessionid={cookie}"} if cookie else {}
    try:
        async with connect(
            f"ws://{netloc}{path}",
            origin=base_url,
            additional_headers=headers,
            open_timeout=10,
        ):
            return 101
    except InvalidStatus as refused:
        return refused.response.status_code


async def frames_until_closed(sock: TableClient, timeout: float = 10) -> tuple[list[str], int]:
    """Every frame the server still sends, and the close code it ends with."""
    assert sock.conn is not None
    frames = []
    try:
        while True:
            frame = await asyncio.wait_for(sock.conn.recv(), timeout)
            frames.append(frame if isinstance(frame, str) else frame.decode())
    except ConnectionClosed as closed:
        return frames, closed.rcvd.code if closed.rcvd else 1006


async def answer(sock: TableClient, frame: dict) -> str:
    """Send a frame and return the first error or table-changing frame back."""
    await sock.send(frame)
    return await sock.until(lambda f: ERROR in f or 'id="table-' in f)


async def opened_raw(base_url: str, path: str, cookie: str) -> TableClient:
    """A socket connected without waiting for a table render (it may be refused after)."""
    sock = TableClient(base_url, 0, cookie)
    sock.conn = await connect(
        f"ws://{urlsplit(base_url).netloc}{path}",
        origin=base_url,
        additional_headers={"Cookie": f"sessionid={cookie}"},
        open_timeout=10,
    )
    return sock
