"""Identity holds on a socket that is already open: a logout, a password change from
another session and a suspension close every socket of the user at once, and a mute
stops its chat, without a message from the socket and without waiting for the
heartbeat (the account's news reaches its sockets through the channel layer)."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from durak.engine import Game
from games.models import ChatMessage
from tests.live.conftest import Socket
from tests.scale.wsclient import TableClient
from tests.sockets import ERROR, db, in_own_loop, session_cookie
from tests.table_fingerprint import table_fingerprint

from .helpers import two_player_table
from .open_sockets import close_code, open_table_and_lobby

pytestmark = pytest.mark.django_db(transaction=True)
User = get_user_model()


@pytest.fixture(autouse=True)
def no_heartbeat_in_time(settings) -> None:
    """The heartbeat, the backstop, comes too late to be what closes a socket here."""
    settings.GAMES_SOCKET_HEARTBEAT = 3600


def table_with_mover():
    match, users = two_player_table()
    game = Game.from_snapshot(match.state)
    action = game.legal_actions()[0]
    return match, users[action.seat], str(action)


def log_out(user, cookie: str) -> None:
    client = Client()
    client.cookies["sessionid"] = cookie
    assert client.post(reverse("accounts:logout")).status_code == 302


def change_password_elsewhere(user, cookie: str) -> None:
    other = Client()
    other.force_login(user)
    user.set_password("a-new-secret-0451")
    user.save()


def suspend(user, cookie: str) -> None:
    """A moderator's suspension through the admin's action."""
    moderator = User.objects.create_superuser("moderator", password="pw-moderator")
    client = Client()
    client.force_login(moderator)
    response = client.post(
        reverse("admin:accounts_user_changelist"),
        {
            "action": "suspend",
            "_selected_action": [user.pk],
            "_apply": "1",
            "duration": "1",
            "reason": "abuse",
        },
    )
    assert response.status_code == 302
    assert User.objects.get(pk=user.pk).is_suspended


@pytest.mark.parametrize(
    ("end", "code", "words"),
    [
        (log_out, 4401, "session has ended"),
        (change_password_elsewhere, 4401, "session has ended"),
        (suspend, 4403, "suspended"),
    ],
    ids=["logout", "password-change", "suspension"],
)
def test_every_open_socket_of_the_user_closes_at_once(end, code, words):
    match, mover, _action = table_with_mover()
    cookie = session_cookie(mover)

    @in_own_loop
    async def run():
        table, lobby = await open_table_and_lobby(match.pk, cookie)
        before = await db(table_fingerprint, match.pk)
        await db(end, mover, cookie)
        # Nothing is sent from the sockets: the account's news alone closes them.
        told = await table.until(lambda f: ERROR in f, timeout=10)
        closed = [await close_code(sock) for sock in (table, lobby)]
        return before, told, closed

    before, told, closed = run()
    assert words in told
    assert closed == [code, code]
    assert table_fingerprint(match.pk) == before


def test_a_log_out_leaves_the_users_other_sessions_open():
    match, mover, _action = table_with_mover()
    ended, kept = session_cookie(mover), session_cookie(mover)

    @in_own_loop
    async def run():
        sockets = [Socket(f"/ws/games/{match.pk}/", cookie) for cookie in (ended, kept)]
        for sock in sockets:
            assert (await sock.open())[0]
            await sock.drain()
        await db(log_out, mover, ended)
        closed = await close_code(sockets[0])
        await sockets[1].send({"type": "sync"})
        synced = await sockets[1].until(lambda f: 'id="table-version"' in f)
        await sockets[1].close()
        return closed, synced

    closed, synced = run()
    assert closed == 4401
    assert synced


def test_a_mute_stops_the_open_sockets_chat_at_once():
    match, users = two_player_table()
    cookie = session_cookie(users[0])
    moderator = User.objects.create_superuser("moderator", password="pw-moderator")

    def mute() -> None:
        client = Client()
        client.force_login(moderator)
        response = client.post(
            reverse("admin:accounts_user_changelist"),
            {
                "action": "mute",
                "_selected_action": [users[0].pk],
                "_apply": "1",
                "minutes": "60",
                "reason": "spam",
            },
        )
        assert response.status_code == 302

    @in_own_loop
    async def run():
        sock = Socket(f"/ws/games/{match.pk}/", cookie)
        assert (await sock.open())[0]
        await sock.drain()
        await db(mute)
        told = await sock.until(lambda f: ERROR in f)
        await sock.send({"type": "chat", "text": "after"})
        refused = await sock.until(lambda f: ERROR in f)
        await sock.send({"type": "sync"})
        synced = await sock.until(lambda f: 'id="table-version"' in f)
        await sock.close()
        return told, refused, synced

    told, refused, synced = run()
    assert "muted" in told
    assert "muted" in refused
    assert synced  # the socket stays open for play
    assert not ChatMessage.objects.filter(match=match).exists()


def test_a_mute_set_behind_the_admins_back_still_stops_chat(live_server_url):
    """No news reaches the socket: the chat service reads the mute itself."""
    match, users = two_player_table()
    cookie = session_cookie(users[0])

    @in_own_loop
    async def run():
        sock = TableClient(live_server_url, match.pk, cookie)
        await sock.open()
        await sock.send({"type": "chat", "text": "before"})
        await sock.until(lambda f: "before" in f)
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
