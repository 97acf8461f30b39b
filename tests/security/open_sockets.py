"""The in-process sockets the security tests open, opened one way everywhere."""

from __future__ import annotations

from games.models import Match
from tests.live.conftest import Socket


async def open_table_and_lobby(match_id: int, cookie: str) -> tuple[Socket, Socket]:
    """One session's table and lobby sockets, open and past their first frames."""
    table = Socket(f"/ws/games/{match_id}/", cookie)
    lobby = Socket("/ws/lobby/", cookie)
    assert (await table.open())[0]
    assert (await lobby.open())[0]
    await table.drain()
    await lobby.drain()
    return table, lobby


async def open_caught_up(match: Match, cookies: list[str]) -> list[Socket]:
    """A table socket per cookie, each open and showing the table's current version."""
    sockets = [Socket(f"/ws/games/{match.pk}/", cookie) for cookie in cookies]
    for sock in sockets:
        assert (await sock.open())[0]
        await sock.until_version(match.version)
    return sockets


async def close_code(sock: Socket) -> int:
    """The code the server closes ``sock`` with, past any frame it still sends."""
    while True:
        output = await sock.comm.receive_output(10)
        if output["type"] == "websocket.close":
            return output["code"]
