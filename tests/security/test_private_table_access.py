"""Access to a private table is checked on every push, not only at the handshake:
a player who joined by invite, opened the table and left before the start used to
keep watching the whole game through the socket already open."""

from __future__ import annotations

import pytest

from games import services
from games.models import Match, RuleVariant
from tests.live.conftest import Socket
from tests.sockets import ERROR, db, frame_version, in_own_loop, session_cookie

from .helpers import make_user

pytestmark = pytest.mark.django_db(transaction=True)


def private_table() -> tuple[Match, list]:
    users = [make_user("host"), make_user("leaver"), make_user("third")]
    match = services.create_match(
        users[0], RuleVariant.objects.get(slug="classic"), 3, is_private=True
    )
    services.join_match(match, users[1], token=match.invite_token)
    return match, users


@in_own_loop
async def test_a_socket_of_a_player_who_left_a_private_table_is_closed() -> None:
    match, (host, leaver, third) = await db(private_table)
    path = f"/ws/games/{match.pk}/"
    watching = Socket(path, await db(session_cookie, leaver))
    assert (await watching.open())[0]
    await watching.drain()

    await db(services.leave_match, match.pk, leaver)
    frames = []
    while True:
        output = await watching.comm.receive_output(timeout=5)
        if output["type"] == "websocket.close":
            break
        frames.append(output["text"])
    assert output["code"] == 4403
    assert any(ERROR in f and "no longer have a seat" in f for f in frames)
    # The table as the leave changed it never reached the socket.
    left = (await db(Match.objects.get, pk=match.pk)).version
    assert all((frame_version(f) or 0) < left for f in frames)

    # The game goes on without a word to the socket that was closed.
    await db(services.join_match, match.pk, leaver, token=match.invite_token)
    await db(services.join_match, match.pk, third, token=match.invite_token)
    assert (await db(Match.objects.get, pk=match.pk)).status == Match.Status.PLAYING
    assert await watching.comm.receive_nothing(timeout=0.5)


@in_own_loop
async def test_a_seated_player_of_a_private_table_keeps_getting_pushes() -> None:
    match, (host, leaver, third) = await db(private_table)
    sock = Socket(f"/ws/games/{match.pk}/", await db(session_cookie, host))
    assert (await sock.open())[0]
    await sock.drain()
    await db(services.join_match, match.pk, third, token=match.invite_token)
    started = await db(Match.objects.get, pk=match.pk)
    await sock.until_version(started.version)
    await sock.close()
