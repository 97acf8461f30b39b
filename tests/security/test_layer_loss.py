"""When the channel layer loses its state (Redis flushed, groups expired), pushes
still reach the open sockets.  A table's sockets join no group: a move is sent to
each socket's own channel, read from the sockets' rows.  A lobby socket rejoins its
groups on the heartbeat.

The in-memory layer forgets a group membership after ``group_expiry``; the tests set
it to a second.  On Redis the tests also flush the layer from outside, as a FLUSHDB
would.  (Flushing the in-memory layer would also drop each socket's own inbox, which
no real layer does, so there expiry alone stands for the loss.)"""

from __future__ import annotations

import asyncio

import pytest
from channels import DEFAULT_CHANNEL_LAYER
from channels.layers import InMemoryChannelLayer, channel_layers, get_channel_layer

from durak.engine import Game
from games import services
from games.models import Match
from tests.live.conftest import Socket
from tests.sockets import db, in_own_loop, session_cookie

from .helpers import make_user, two_player_table

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def quick_heartbeat(settings):
    from channels.layers import channel_layers

    settings.GAMES_SOCKET_HEARTBEAT = 0.3
    layer = settings.CHANNEL_LAYERS["default"]
    settings.CHANNEL_LAYERS = {
        "default": {**layer, "CONFIG": {**layer.get("CONFIG", {}), "group_expiry": 1}}
    }
    settings.GAMES_TICKER = False
    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()
    from asgiref.sync import SyncToAsync
    from django.db import connections

    SyncToAsync.single_thread_executor.submit(connections.close_all).result()


def move(match_id: int) -> int:
    match = Match.objects.get(pk=match_id)
    action = Game.from_snapshot(match.state).legal_actions()[0]
    return services.apply_action(match_id, action.seat, str(action), version=match.version).version


async def open_both(match: Match, users: list) -> list[Socket]:
    sockets = []
    for user in users:
        sock = Socket(f"/ws/games/{match.pk}/", await db(session_cookie, user))
        connected, _ = await sock.open()
        assert connected
        await sock.until_version(match.version)
        await sock.drain()
        sockets.append(sock)
    return sockets


async def flush_from_outside() -> None:
    """What a FLUSHDB does to Redis: from outside, through a layer of its own (flush
    also closes the connections of the layer it is called on)."""
    if not isinstance(get_channel_layer(), InMemoryChannelLayer):
        await channel_layers.make_backend(DEFAULT_CHANNEL_LAYER).flush()


@in_own_loop
async def test_a_move_reaches_the_tables_sockets_after_the_layer_lost_its_state(
    settings,
) -> None:
    settings.GAMES_SOCKET_HEARTBEAT = 3600  # no heartbeat: nothing is joined again
    match, users = await db(two_player_table)
    sockets = await open_both(match, users)
    await flush_from_outside()
    await asyncio.sleep(1.5)  # every group membership has expired
    version = await db(move, match.pk)
    for sock in sockets:
        await sock.until_version(version)
    for sock in sockets:
        await sock.close()


@in_own_loop
async def test_a_lobby_socket_rejoins_its_groups_on_the_heartbeat() -> None:
    user = await db(make_user)
    lobby = Socket("/ws/lobby/", await db(session_cookie, user))
    assert (await lobby.open())[0]
    await lobby.drain()
    await flush_from_outside()
    await asyncio.sleep(2.5)  # the memberships expire; the heartbeats renew them
    await db(services.send_push, services.LOBBY_GROUP, {"type": "lobby.changed"})
    assert 'id="lobby-counts"' in await lobby.until(lambda f: 'id="lobby-counts"' in f)
    await lobby.close()
