"""Every socket handshake runs the same sign-in check, the lobby's included: a
suspended user's lobby socket used to be accepted and pushed to until its first
heartbeat."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from tests.live.conftest import Socket
from tests.sockets import db, in_own_loop, session_cookie

from .helpers import make_user, two_player_table

pytestmark = pytest.mark.django_db(transaction=True)


def suspended_player() -> tuple[str, list[str]]:
    match, users = two_player_table()
    get_user_model().objects.filter(pk=users[0].pk).update(
        suspended_until=timezone.now() + datetime.timedelta(days=1), suspension_reason="abuse"
    )
    return session_cookie(users[0]), ["/ws/lobby/", f"/ws/games/{match.pk}/"]


@in_own_loop
async def test_a_suspended_user_gets_no_socket_at_all() -> None:
    cookie, paths = await db(suspended_player)
    for path in paths:
        connected, code = await Socket(path, cookie).open()
        assert (connected, code) == (False, 4403), path


@in_own_loop
async def test_a_signed_in_user_gets_the_lobby() -> None:
    cookie = await db(session_cookie, await db(make_user, "lobbyist"))
    sock = Socket("/ws/lobby/", cookie)
    assert (await sock.open())[0]
    assert await sock.receive()
    await sock.close()
