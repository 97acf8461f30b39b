"""Every push is rendered one way: the table of the pushed version is read once per
process, and each socket renders its own viewer's page from that read."""

from __future__ import annotations

import re

import pytest
from channels.layers import get_channel_layer

from durak.engine import Game
from games import services, table_reads
from games.models import Match

from .conftest import Socket, db, frame_version, in_own_loop, session_cookie
from .test_timers import table

pytestmark = pytest.mark.django_db(transaction=True)

HAND_CARD = re.compile(r'class="hand-card"[^>]*data-card="(\w\w)"')


@pytest.fixture
def reads(monkeypatch) -> list[int]:
    """The match ids of the table reads the sockets make."""
    made: list[int] = []
    load = table_reads.load

    def counted(match_id: int) -> table_reads.Table:
        made.append(match_id)
        return load(match_id)

    monkeypatch.setattr(table_reads, "load", counted)
    return made


async def open_both(match_id: int, users) -> list[Socket]:
    sockets = []
    for user in users:
        sock = Socket(f"/ws/games/{match_id}/", await db(session_cookie, user))
        assert (await sock.open())[0]
        sockets.append(sock)
    for sock in sockets:  # the pages, and the presence pushes of the sockets' arrival
        await sock.drain()
    return sockets


def first_move(match_id: int) -> tuple[int, str, int]:
    match = Match.objects.get(pk=match_id)
    action = Game.from_snapshot(match.state).legal_actions()[0]
    return action.seat, str(action), match.version


def test_a_move_through_a_socket_is_rendered_from_the_table_it_committed(reads):
    match, users = table()

    @in_own_loop
    async def run():
        sockets = await open_both(match.pk, users)
        reads.clear()
        seat, action, version = await db(first_move, match.pk)
        await sockets[seat].send({"type": "action", "action": action, "version": version})
        frames = [await sock.until_version(version + 1) for sock in sockets]
        made = list(reads)  # before the closes' presence pushes
        for sock in sockets:
            await sock.close()
        return frames, version, made

    frames, version, made = run()
    assert [frame_version(frame) for frame in frames] == [version + 1] * 2
    assert made == []


def test_a_move_from_elsewhere_is_read_once_for_all_the_processs_sockets(reads):
    match, users = table()

    def move_elsewhere() -> int:
        # As a bot's or the turn timer's move: committed outside this process's sockets.
        seat, action, version = first_move(match.pk)
        services.apply_action(match.pk, seat, action, version=version)
        return version + 1

    @in_own_loop
    async def run():
        sockets = await open_both(match.pk, users)
        reads.clear()
        version = await db(move_elsewhere)
        frames = [await sock.until_version(version) for sock in sockets]
        made = list(reads)  # before the closes' presence pushes
        for sock in sockets:
            await sock.close()
        return frames, version, made

    frames, version, made = run()
    assert [frame_version(frame) for frame in frames] == [version] * 2
    assert made == [match.pk]


def test_an_older_version_never_replaces_a_newer_one():
    match, users = table()

    @in_own_loop
    async def run():
        sockets = await open_both(match.pk, users)
        seat, action, version = await db(first_move, match.pk)
        await sockets[seat].send({"type": "action", "action": action, "version": version})
        for sock in sockets:
            await sock.until_version(version + 1)
            await sock.drain()
        # The push of the version before arrives late (another process's, say).
        late = {"type": "match.changed", "match_id": match.pk, "version": version, "what": "state"}
        await services.Push(late, channels=await db(services.table_channels, match.pk)).send(
            get_channel_layer()
        )
        quiet = [await sock.nothing_more() for sock in sockets]
        for sock in sockets:
            await sock.close()
        return quiet

    assert run() == [True, True]


def test_each_socket_gets_its_own_seats_cards_from_the_shared_read():
    match, users = table()

    def move_elsewhere() -> tuple[int, dict]:
        seat, action, version = first_move(match.pk)
        services.apply_action(match.pk, seat, action, version=version)
        return version + 1, Match.objects.get(pk=match.pk).state

    @in_own_loop
    async def run():
        sockets = await open_both(match.pk, users)
        version, state = await db(move_elsewhere)
        frames = [await sock.until_version(version) for sock in sockets]
        await sockets[0].send({"type": "sync"})  # the whole page, hand included
        await sockets[1].send({"type": "sync"})
        pages = [await sock.until(lambda f: 'id="table-hand"' in f) for sock in sockets]
        for sock in sockets:
            await sock.close()
        return frames + pages, state

    frames, state = run()
    game = Game.from_snapshot(state)
    hands = [set(game.view(seat)["hand"]) for seat in (0, 1)]
    for index, frame in enumerate(frames):
        seat = index % 2
        shown = set(HAND_CARD.findall(frame))
        assert shown <= hands[seat]
        assert not shown & hands[1 - seat]
    assert set(HAND_CARD.findall(frames[2])) == hands[0]
    assert set(HAND_CARD.findall(frames[3])) == hands[1]
