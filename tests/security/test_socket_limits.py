"""Sockets per user are capped (per table and overall); the lobby socket is rate-limited."""

from __future__ import annotations

import asyncio

import pytest
from websockets.exceptions import ConnectionClosed

from tests.scale.wsclient import TableClient
from tests.sockets import ERROR, in_own_loop, session_cookie

from .helpers import make_user, two_player_table
from .realsockets import frames_until_closed, opened_raw

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def small_caps(settings) -> None:
    # Set before the server process forks, so it inherits them.
    settings.GAMES_SOCKETS_PER_TABLE = 2
    settings.GAMES_SOCKETS_PER_USER = 3
    settings.GAMES_LOBBY_FRAME_RATE = (3, 0.1)


def test_a_user_holds_only_so_many_sockets(small_caps, live_server_url) -> None:
    first, _ = two_player_table()
    second, _ = two_player_table()
    spectator = make_user("watcher")
    cookie = session_cookie(spectator)

    @in_own_loop
    async def run():
        at_first = [TableClient(live_server_url, first.pk, cookie) for _ in range(2)]
        await at_first[0].open()
        await at_first[1].open()
        # The third socket at one table: told why, then closed.
        third = await opened_raw(live_server_url, f"/ws/games/{first.pk}/", cookie)
        over_table = await frames_until_closed(third)
        at_second = TableClient(live_server_url, second.pk, cookie)
        await at_second.open()  # the third overall
        fourth = await opened_raw(live_server_url, f"/ws/games/{second.pk}/", cookie)
        over_user = await frames_until_closed(fourth)
        # Closing one frees its place.
        await at_first[0].close()
        # The server releases the closed socket's place as it handles the close.
        for _attempt in range(50):
            again = TableClient(live_server_url, first.pk, cookie)
            try:
                reopened = await again.open()
                break
            except ConnectionClosed:
                await asyncio.sleep(0.1)
        for sock in (at_first[1], at_second, again):
            await sock.close()
        return over_table, over_user, reopened

    over_table, over_user, reopened = run()
    for frames, code in (over_table, over_user):
        assert code == 4429
        assert any(ERROR in f and "too many tables open" in f for f in frames)
    assert 'id="table-version"' in reopened


def test_a_lobby_flood_is_cut_off_without_a_render_per_frame(small_caps, live_server_url):
    user = make_user("flooder")
    cookie = session_cookie(user)

    @in_own_loop
    async def run():
        sock = await opened_raw(live_server_url, "/ws/lobby/", cookie)
        for _ in range(200):
            try:
                await sock.conn.send("{}")
            except Exception:  # closed by the server part-way: that is the point
                break
        return await frames_until_closed(sock)

    frames, code = run()
    assert code == 4429
    # The first render and the burst the limit allows (and any lobby change pushed
    # meanwhile), not one render per frame.
    assert 1 <= len(frames) <= 10
