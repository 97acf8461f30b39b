"""Identity holds on a socket that is already open: a logout, a password change from
another session, a suspension or a mute reaches it at its next message."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.engine import Game
from games.models import ChatMessage
from tests.scale.wsclient import TableClient
from tests.sockets import ERROR, db, in_own_loop, session_cookie
from tests.table_fingerprint import table_fingerprint

from .helpers import two_player_table
from .realsockets import answer, frames_until_closed, handshake_status

pytestmark = pytest.mark.django_db(transaction=True)
User = get_user_model()


def table_with_mover():
    match, users = two_player_table()
    game = Game.from_snapshot(match.state)
    action = game.legal_actions()[0]
    return match, users[action.seat], str(action)


def log_out(cookie: str) -> None:
    client = Client()
    client.cookies["sessionid"] = cookie
    assert client.post(reverse("accounts:logout")).status_code == 302


def change_password_elsewhere(user) -> None:
    other = Client()
    other.force_login(user)
    user.set_password("a-new-secret-0451")
    user.save()


def suspend(user) -> None:
    User.objects.filter(pk=user.pk).update(
        suspended_until=timezone.now() + datetime.timedelta(days=2), suspension_reason="abuse"
    )


@pytest.mark.parametrize(
    ("end", "code", "words"),
    [
        (lambda user, cookie: log_out(cookie), 4401, "session has ended"),
        (lambda user, cookie: change_password_elsewhere(user), 4401, "session has ended"),
        (lambda user, cookie: suspend(user), 4403, "suspended"),
    ],
    ids=["logout", "password-change", "suspension"],
)
def test_an_open_socket_is_closed_at_its_next_message(live_server_url, end, code, words):
    match, mover, action = table_with_mover()
    cookie = session_cookie(mover)
    path = f"/ws/games/{match.pk}/"

    @in_own_loop
    async def run():
        sock = TableClient(live_server_url, match.pk, cookie)
        await sock.open()
        before = await db(table_fingerprint, match.pk)
        await db(end, mover, cookie)
        await sock.send({"type": "action", "action": action, "version": before.version})
        await sock.send({"type": "chat", "text": "still here?"})
        frames, closed_with = await frames_until_closed(sock)
        refused_again = await handshake_status(live_server_url, path, cookie)
        return before, frames, closed_with, refused_again

    before, frames, closed_with, refused_again = run()
    assert closed_with == code
    assert any(ERROR in f and words in f for f in frames), frames
    assert table_fingerprint(match.pk) == before
    # A new socket with the old cookie is refused at the handshake.
    assert refused_again == 403


def test_a_muted_players_open_socket_cannot_chat(live_server_url):
    match, users = two_player_table()
    cookie = session_cookie(users[0])

    @in_own_loop
    async def run():
        sock = TableClient(live_server_url, match.pk, cookie)
        await sock.open()
        await answer(sock, {"type": "chat", "text": "before"})
        await db(
            User.objects.filter(pk=users[0].pk).update,
            muted_until=timezone.now() + datetime.timedelta(hours=1),
        )
        await sock.send({"type": "chat", "text": "after"})
        refused = await sock.until(lambda f: ERROR in f)
        # The socket stays open for play.
        await sock.send({"type": "sync"})
        synced = await sock.until(lambda f: 'id="table-version"' in f)
        await sock.close()
        return refused, synced

    refused, synced = run()
    assert "muted" in refused
    assert synced
    assert list(ChatMessage.objects.filter(match=match).values_list("text", flat=True)) == [
        "before"
    ]
