"""A socket that sends nothing still learns, at its next heartbeat, that its user may
no longer play; the other sockets of the table stay open."""

from __future__ import annotations

import asyncio
import datetime

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from .conftest import Socket, db, in_own_loop
from .test_play import setup_table, state

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def quick_heartbeat(settings):
    settings.GAMES_SOCKET_HEARTBEAT = 0.3
    settings.GAMES_TICKER = False


def suspend(user) -> None:
    get_user_model().objects.filter(pk=user.pk).update(
        suspended_until=timezone.now() + datetime.timedelta(days=1), suspension_reason="abuse"
    )


async def seated_sockets() -> tuple[list, list[Socket], int]:
    """A two-player table's users and their open table sockets, both at its version."""
    match, users, cookies = await db(setup_table)
    sockets = [Socket(f"/ws/games/{match.pk}/", c) for c in cookies]
    version, _snap, _status = await db(state, match.pk)
    for sock in sockets:
        assert (await sock.open())[0]
        await sock.until_version(version)
    return users, sockets, version


@in_own_loop
async def test_an_idle_socket_of_a_suspended_user_is_closed_at_its_next_heartbeat():
    users, sockets, version = await seated_sockets()
    await db(suspend, users[0])
    said = []
    while True:  # within a few heartbeats, without a frame from this socket
        output = await sockets[0].comm.receive_output(timeout=2)
        if output["type"] == "websocket.close":
            break
        said.append(output["text"])
    assert output["code"] == 4403
    assert any("suspended" in text for text in said)
    await sockets[1].send({"type": "sync"})
    assert await sockets[1].until_version(version)
    await sockets[1].close()


def online(user_ids) -> set[int]:
    from games.socket_guard import SocketQuota

    return SocketQuota.online_among(user_ids)


def rows_last_renewed(seconds_ago: float) -> None:
    from games.models import OpenSocket

    then = timezone.now() - datetime.timedelta(seconds=seconds_ago)
    OpenSocket.objects.update(renewed_at=then)


def process_beat() -> None:
    from games.ticker import _beat

    _beat()


@in_own_loop
async def test_the_process_beat_keeps_its_sockets_counted_between_their_checks(settings):
    # The sockets' own beats make no database call between their rechecks: the rows of
    # a process's sockets are renewed by the process's beat, all at once.
    settings.GAMES_SOCKET_RECHECK_BEATS = 1000
    settings.GAMES_SERVER_TIMEOUT = 30
    users, sockets, version = await seated_sockets()
    ids = [u.pk for u in users]
    assert await db(online, ids) == set(ids)
    await db(rows_last_renewed, 31)  # as if the process had not beaten for a while
    await asyncio.sleep(1)  # several socket heartbeats of 0.3 s
    assert await db(online, ids) == set()
    await db(process_beat)
    assert await db(online, ids) == set(ids)
    for sock in sockets:
        await sock.close()
    assert await db(online, ids) == set()


def forget_all_sockets() -> int:
    """Delete every socket's row; how many there were."""
    from games.models import OpenSocket

    deleted, _ = OpenSocket.objects.all().delete()
    return deleted


@in_own_loop
async def test_a_socket_whose_row_was_deleted_makes_it_again_when_it_rechecks(settings):
    # As when its process was taken for dead and another process deleted its rows.
    settings.GAMES_SOCKET_RECHECK_BEATS = 1
    users, sockets, version = await seated_sockets()
    ids = [u.pk for u in users]
    # Counted as they go: a recheck may make a row again before a second query could
    # see the table empty.
    assert await db(forget_all_sockets) == len(sockets)
    await asyncio.sleep(1)  # a few heartbeats of 0.3 s, each a recheck
    assert await db(online, ids) == set(ids)
    for sock in sockets:
        await sock.close()
