"""The arena page's socket: a change reaches the page at once, a burst of changes makes
it fetch its standings once more at most; a socket to no arena is refused."""

from __future__ import annotations

import asyncio

import pytest

from arena import services, socket
from tests.live.conftest import Socket
from tests.sockets import db, in_own_loop, session_cookie

from .conftest import person, running_arena

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def fresh_channel_layer():
    from asgiref.sync import SyncToAsync
    from channels.layers import channel_layers
    from django.db import connections

    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()
    SyncToAsync.single_thread_executor.submit(connections.close_all).result()


def burst_of_joins(arena, count: int) -> None:
    for _ in range(count):
        services.join(person(), arena)


REFRESH = 'id="arena-refresh"'
# Generous, so a burst surely falls inside one window on a busy machine.
WINDOW = 3.0


async def quiet_arena_page(monkeypatch):
    """An arena, and a page of it open and quiet for longer than the window."""
    monkeypatch.setattr(socket, "ARENA_PUSH_SECONDS", WINDOW)
    arena = await db(running_arena)
    watcher = await db(person)
    sock = Socket(f"/ws/arena/{arena.pk}/", await db(session_cookie, watcher))
    connected, _code = await sock.open()
    assert connected
    await sock.drain()
    await asyncio.sleep(WINDOW + 0.1)
    return arena, sock


@in_own_loop
async def test_a_change_after_a_quiet_spell_reaches_the_page_at_once(monkeypatch):
    arena, sock = await quiet_arena_page(monkeypatch)
    await db(burst_of_joins, arena, 1)
    # Well inside the window: the page is not kept waiting for the window's end.
    frame = await sock.until(lambda f: REFRESH in f, timeout=WINDOW / 2)
    assert f'hx-get="/arena/{arena.pk}/standings/"' in frame
    assert 'hx-trigger="load"' in frame
    assert await sock.nothing_more()
    await sock.close()


@in_own_loop
async def test_a_burst_of_joins_refreshes_the_page_at_once_and_once_more(monkeypatch):
    arena, sock = await quiet_arena_page(monkeypatch)
    await db(burst_of_joins, arena, 3)
    await sock.until(lambda f: REFRESH in f, timeout=WINDOW / 2)
    # The rest of the burst: one more refresh at the window's end, not one a join.
    await sock.until(lambda f: REFRESH in f, timeout=WINDOW + 2)
    assert await sock.comm.receive_nothing(timeout=WINDOW + 0.5)
    await sock.close()


@in_own_loop
async def test_a_socket_to_a_forged_arena_is_refused():
    user = await db(person)
    sock = Socket("/ws/arena/987654/", await db(session_cookie, user))
    connected, code = await sock.open()
    assert not connected
    assert code == socket.CLOSE_NOT_FOUND


@in_own_loop
async def test_a_socket_without_a_sign_in_is_refused():
    from games.socket_base import CLOSE_UNAUTHENTICATED

    arena = await db(running_arena)
    sock = Socket(f"/ws/arena/{arena.pk}/", None)
    connected, code = await sock.open()
    assert not connected
    assert code == CLOSE_UNAUTHENTICATED


def away_since(arena, user):
    return services.entry_of(arena, user).away_since


@in_own_loop
async def test_closing_the_arena_page_makes_its_player_away_and_opening_it_brings_them_back():
    import asyncio

    arena = await db(running_arena)
    player = await db(person)
    await db(services.join, player, arena)
    cookie = await db(session_cookie, player)
    sock = Socket(f"/ws/arena/{arena.pk}/", cookie)
    assert (await sock.open())[0]
    await sock.drain()
    assert await db(away_since, arena, player) is None
    await sock.close()
    for _ in range(50):  # the close runs after the socket's end
        if await db(away_since, arena, player) is not None:
            break
        await asyncio.sleep(0.1)
    assert await db(away_since, arena, player) is not None
    again = Socket(f"/ws/arena/{arena.pk}/", cookie)
    assert (await again.open())[0]
    await again.drain()
    assert await db(away_since, arena, player) is None
    await again.close()
