"""Open sockets belong to a server process; a process that stops beating loses them."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from django.utils import timezone

from games import presence, services
from games.models import Match, Seat, ServerProcess, SocketPresence

from .conftest import Socket, db, in_own_loop, make_user, session_cookie
from .test_timers import table, to_act

pytestmark = pytest.mark.django_db(transaction=True)


def seat_row(match: Match, number: int) -> Seat:
    return Seat.objects.get(match=match, number=number)


def open_sockets(match: Match, number: int) -> int:
    return SocketPresence.objects.filter(seat__match=match, seat__number=number).count()


def test_a_socket_counts_once_and_closes_once():
    match, users = table()
    assert services.seat_connected(match.pk, users[0], "chan-a") == 0
    assert services.seat_connected(match.pk, users[0], "chan-a") == 0  # a repeat
    assert services.seat_connected(match.pk, users[0], "chan-b") == 0
    assert open_sockets(match, 0) == 2
    assert SocketPresence.objects.filter(server=presence.server_name()).count() == 2
    services.seat_disconnected(match.pk, "chan-a")
    services.seat_disconnected(match.pk, "chan-a")  # a repeat changes nothing
    seat = seat_row(match, 0)
    assert open_sockets(match, 0) == 1 and seat.disconnected_since is None
    services.seat_disconnected(match.pk, "chan-b")
    seat = seat_row(match, 0)
    assert open_sockets(match, 0) == 0 and seat.disconnected_since is not None
    assert not SocketPresence.objects.exists()


def _socket_of_dead_server(match: Match, user, last_beat) -> str:
    """A socket opened by a process that has not beaten since ``last_beat``."""
    ServerProcess.objects.create(name="gone:1:abcd", pid=1, last_beat=last_beat)
    services.seat_connected(match.pk, user, "chan-dead")
    SocketPresence.objects.filter(channel_name="chan-dead").update(server="gone:1:abcd")
    return "chan-dead"


def test_sockets_of_a_process_that_stopped_beating_are_released_once():
    match, users = table()
    now = timezone.now()
    last_beat = now - timedelta(seconds=presence.timeout_seconds() + 5)
    _socket_of_dead_server(match, users[0], last_beat)
    services.seat_connected(match.pk, users[1], "chan-alive")  # this process: alive
    presence.register(now)
    assert open_sockets(match, 0) == 1

    assert services.release_dead_servers(now) == 1
    seat = seat_row(match, 0)
    # Away from the dead process's last sign of life, so its budget counts from there.
    assert open_sockets(match, 0) == 0 and seat.disconnected_since == last_beat
    assert not ServerProcess.objects.filter(name="gone:1:abcd").exists()
    assert open_sockets(match, 1) == 1
    assert list(SocketPresence.objects.values_list("channel_name", flat=True)) == ["chan-alive"]
    # Another process sweeping the same moment finds nothing left.
    assert services.release_dead_servers(now) == 0
    assert open_sockets(match, 0) == 0


def test_a_released_seat_forfeits_when_its_budget_runs_out():
    match, users = table()
    Match.objects.filter(pk=match.pk).update(turn_seconds=600)
    match, game = to_act(match.pk)
    seat = game.to_act()[0]
    now = timezone.now()
    # The seat's player was connected through a process that died 40 s ago.
    last_beat = now - timedelta(seconds=40)
    _socket_of_dead_server(match, users[seat], last_beat)
    Match.objects.filter(pk=match.pk).update(turn_started_at=last_beat)
    assert services.release_dead_servers(now) == 1
    match = Match.objects.get(pk=match.pk)
    budget = seat_row(match, seat).reconnect_budget_ms
    assert match.turn_deadline == last_beat + timedelta(milliseconds=budget)
    assert services.expire_deadlines(match.turn_deadline + timedelta(seconds=1)) == 1
    assert Match.objects.get(pk=match.pk).status == Match.Status.FINISHED


@in_own_loop
async def test_a_process_taken_for_dead_puts_its_open_sockets_back_at_its_next_beat():
    match, users = await db(table)
    player = Socket(f"/ws/games/{match.pk}/", await db(session_cookie, users[0]))
    await player.open()
    await player.drain()
    # Another process swept this one while it was frozen.
    stale = timezone.now() - timedelta(seconds=presence.timeout_seconds() + 1)
    await db(lambda: ServerProcess.objects.update(last_beat=stale))
    assert await db(services.release_dead_servers) == 1
    assert await db(open_sockets, match, 0) == 0
    assert await db(presence.beat)  # its row was gone
    for _ in range(50):
        if await db(open_sockets, match, 0) == 1:
            break
        await asyncio.sleep(0.05)
    seat = await db(seat_row, match, 0)
    assert await db(open_sockets, match, 0) == 1 and seat.disconnected_since is None
    assert await db(lambda: SocketPresence.objects.get().server) == presence.server_name()
    assert not await db(presence.beat)  # nothing more to put back
    await player.close()
    assert await db(open_sockets, match, 0) == 0


@in_own_loop
async def test_a_table_socket_is_recorded_for_this_process_until_it_closes():
    match, users = await db(table)
    spectator = await db(make_user, "vera")
    player = Socket(f"/ws/games/{match.pk}/", await db(session_cookie, users[0]))
    watcher = Socket(f"/ws/games/{match.pk}/", await db(session_cookie, spectator))
    await player.open()
    await watcher.open()
    rows = await db(lambda: list(SocketPresence.objects.values_list("server", "seat__number")))
    assert rows == [(presence.server_name(), 0)]  # spectators hold no seat
    assert (await db(seat_row, match, 0)).disconnected_since is None
    await player.close()
    await watcher.close()
    assert await db(lambda: SocketPresence.objects.count()) == 0
    assert (await db(seat_row, match, 0)).disconnected_since is not None
