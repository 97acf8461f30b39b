"""The arena page's socket: a change reaches the page at once, a burst of changes sends
one more push at most; a page is sent the board others' results changed, rendered once
for all pages, and fetches its whole part only when its own changed; a socket to no
arena is refused."""

from __future__ import annotations

import asyncio
import re

import pytest

from arena import services, socket
from tests.live.conftest import Socket
from tests.sockets import db, in_own_loop, session_cookie

from .conftest import end_with_fool, person, running_arena, table_of
from .test_arena_shared_standings import templates_rendered

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


def burst_of_joins(arena, count: int) -> list:
    joined = [person() for _ in range(count)]
    for user in joined:
        services.join(user, arena)
    return joined


REFRESH = 'id="arena-refresh"'
BOARD = '<div id="arena-board" hx-swap-oob="true">'
# Generous, so a burst surely falls inside one window on a busy machine.
WINDOW = 3.0


async def quiet_arena_page(monkeypatch, *, joined: bool = False):
    """An arena, its watcher (joined or not) and the watcher's page of it, open and
    quiet for longer than the window."""
    monkeypatch.setattr(socket, "ARENA_PUSH_SECONDS", WINDOW)
    arena = await db(running_arena)
    watcher = await db(person)
    if joined:
        await db(services.join, watcher, arena)
    sock = Socket(f"/ws/arena/{arena.pk}/", await db(session_cookie, watcher))
    connected, _code = await sock.open()
    assert connected
    # As it opens, the page fetches its whole live part once (a change between its
    # render and the socket's join reached nobody).
    await sock.until(lambda f: REFRESH in f)
    await sock.drain()
    await asyncio.sleep(WINDOW + 0.1)
    return arena, watcher, sock


@in_own_loop
async def test_others_changes_reach_the_page_at_once_as_the_board_itself(monkeypatch):
    arena, _watcher, sock = await quiet_arena_page(monkeypatch)
    (newcomer,) = await db(burst_of_joins, arena, 1)
    # Well inside the window: the page is not kept waiting for the window's end, and
    # it is sent the standings with the newcomer in them instead of a fetch.
    frame = await sock.until(lambda f: BOARD in f, timeout=WINDOW / 2)
    assert newcomer.username in frame
    assert REFRESH not in frame
    assert await sock.nothing_more()
    await sock.close()


@in_own_loop
async def test_a_burst_of_joins_pushes_the_board_at_once_and_once_more(monkeypatch):
    arena, _watcher, sock = await quiet_arena_page(monkeypatch)
    joined = await db(burst_of_joins, arena, 3)
    await sock.until(lambda f: BOARD in f, timeout=WINDOW / 2)
    # The rest of the burst: one more board at the window's end, not one a join.
    last = await sock.until(lambda f: BOARD in f, timeout=WINDOW + 2)
    assert all(user.username in last for user in joined)
    assert await sock.comm.receive_nothing(timeout=WINDOW + 0.5)
    await sock.close()


@in_own_loop
async def test_a_change_of_the_viewers_own_part_makes_the_page_fetch_it(monkeypatch):
    arena, watcher, sock = await quiet_arena_page(monkeypatch, joined=True)
    await db(services.set_paused, watcher, arena, True)
    # Their controls changed (Come back instead of Pause): forms the socket does not
    # render, so the page fetches the whole part.
    frame = await sock.until(lambda f: REFRESH in f, timeout=WINDOW / 2)
    assert f'hx-get="/arena/{arena.pk}/standings/"' in frame
    assert 'hx-trigger="load"' in frame
    assert BOARD not in frame
    await sock.close()


@in_own_loop
async def test_the_board_pushed_carries_the_viewers_own_row_and_place(monkeypatch):
    arena, watcher, sock = await quiet_arena_page(monkeypatch, joined=True)
    await db(burst_of_joins, arena, 1)
    frame = await sock.until(lambda f: BOARD in f, timeout=WINDOW / 2)
    (mine,) = re.findall(r'<tr class="arena-mine" data-testid="arena-my-row">.*?</tr>', frame, re.S)
    assert watcher.username in mine
    assert "<td>1</td>" in mine  # both at 0 points: the first to join is first
    assert "csrfmiddlewaretoken" not in frame  # no form: those come with a fetch
    await sock.close()


STANDINGS = {"ru": "Таблица", "en": "Standings"}


def set_language(user, language: str) -> None:
    type(user).objects.filter(pk=user.pk).update(language=language)


def paired_game(arena, players) -> int:
    """Pair ``players`` (the arena's only players not paused): their table's id."""
    (match_id,) = services.pair_waiting(arena)
    assert table_of(match_id) == {user.pk for user in players}
    return match_id


@in_own_loop
async def test_a_game_end_renders_the_table_once_for_all_the_pages_that_watch(monkeypatch):
    monkeypatch.setattr(socket, "ARENA_PUSH_SECONDS", WINDOW)
    arena = await db(running_arena)
    players = [await db(person) for _ in range(2)]
    watchers = [await db(person) for _ in range(3)]
    for user in players + watchers:
        await db(services.join, user, arena)
    for user in watchers:  # joined, with rows of their own, and not paired
        await db(services.set_paused, user, arena, True)
    languages = ["ru", "en", "en"]
    for user, language in zip(watchers, languages, strict=True):
        await db(set_language, user, language)
    match_id = await db(paired_game, arena, players)
    pages = []
    for user in watchers:
        page = Socket(f"/ws/arena/{arena.pk}/", await db(session_cookie, user))
        assert (await page.open())[0]
        await page.until(lambda f: REFRESH in f)
        pages.append(page)
    await asyncio.sleep(WINDOW + 0.1)
    for page in pages:
        await page.drain()

    with templates_rendered() as rendered:
        await db(end_with_fool, match_id, players[1])
        boards = [await page.until(lambda f: BOARD in f, timeout=WINDOW) for page in pages]
    # The five rows once a language for all three pages, then each page's own row: no
    # page renders the table for itself, and none fetches the whole part.
    assert rendered.count("arena/_standing_row.html") == 5 * 2 + 3
    assert "arena/_standings.html" not in rendered
    for language, board in zip(languages, boards, strict=True):
        assert STANDINGS[language] in board
    assert "Standings" not in boards[0]
    for user, board in zip(watchers, boards, strict=True):
        (mine,) = re.findall(
            r'<tr class="arena-mine" data-testid="arena-my-row">.*?</tr>', board, re.S
        )
        assert user.username in mine
        assert players[0].username in board and players[1].username in board
    for page in pages:
        await page.close()


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
