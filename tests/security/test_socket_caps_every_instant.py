"""The socket caps hold at every instant.  They used to be counted per time window
(twice the heartbeat): sockets opened right after a window turned were counted
afresh, beside the ones already open that had not renewed yet, so a user could hold
twice the cap at one table, and a renewal never enforced a cap."""

from __future__ import annotations

import asyncio
import time

import pytest

from tests.live.conftest import Socket
from tests.sockets import ERROR, db, in_own_loop, session_cookie

from .helpers import make_user, two_player_table

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def caps(settings):
    settings.GAMES_SOCKETS_PER_TABLE = 4
    settings.GAMES_SOCKETS_PER_USER = 12
    settings.GAMES_TICKER = False
    return settings


async def opened(path: str, cookie: str) -> Socket | None:
    """An open socket showing the table, or None when the server refused it."""
    sock = Socket(path, cookie)
    connected, _ = await sock.open()
    if not connected:
        return None
    frame = await sock.receive()
    if "too many tables open" in frame:
        await sock.comm.wait()
        return None
    return sock


async def closed_with(sock: Socket, timeout: float = 10) -> tuple[list[str], int]:
    frames = []
    while True:
        output = await sock.comm.receive_output(timeout=timeout)
        if output["type"] == "websocket.close":
            return frames, output["code"]
        frames.append(output["text"])


@in_own_loop
async def test_sockets_opened_as_a_counting_window_turns_are_refused(caps) -> None:
    caps.GAMES_SOCKET_HEARTBEAT = 2.0  # windows of 4 s before; a turn comes soon
    match, _ = await db(two_player_table)
    cookie = await db(session_cookie, await db(make_user, "hoarder"))
    path = f"/ws/games/{match.pk}/"
    first = [await opened(path, cookie) for _ in range(4)]
    assert all(first)
    window = 2 * caps.GAMES_SOCKET_HEARTBEAT
    # Right after the next turn of a window, before the open sockets renew.
    await asyncio.sleep(window - time.time() % window + 0.01)
    second = [await opened(path, cookie) for _ in range(4)]
    assert second == [None, None, None, None]
    for sock in first:
        await sock.close()


@in_own_loop
async def test_a_renewal_past_the_cap_closes_the_newest_sockets(caps) -> None:
    caps.GAMES_SOCKET_HEARTBEAT = 0.3
    match, _ = await db(two_player_table)
    cookie = await db(session_cookie, await db(make_user, "keeper"))
    path = f"/ws/games/{match.pk}/"
    sockets = [await opened(path, cookie) for _ in range(4)]
    assert all(sockets)
    for sock in sockets:
        await sock.drain()
    caps.GAMES_SOCKETS_PER_TABLE = 2  # lowered while four are open
    for sock in sockets[2:]:
        frames, code = await closed_with(sock)
        assert code == 4429
        assert any(ERROR in f and "too many tables open" in f for f in frames)
    # The two oldest stay open through several more heartbeats.
    for sock in sockets[:2]:
        assert await sock.comm.receive_nothing(timeout=1.5)
        await sock.close()
