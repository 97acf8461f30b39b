"""Every way a session ends closes its open sockets at once, not at the heartbeat's
check a minute later: a log-out through any page (the admin's too), the session's row
deleted (by the admin or a shell, or by another user logging in over it), and its
expiry (at the next beat of the socket's process).  And a session signed in under a
key rotated into SECRET_KEY_FALLBACKS keeps its sockets, as it keeps its pages."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.contrib.auth import HASH_SESSION_KEY, get_user_model
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.socket_news import account_changed, account_news
from games.socket_guard import tell_sockets_of_expired_sessions
from tests.live.conftest import Socket
from tests.sockets import ERROR, db, in_own_loop, session_cookie

from .helpers import two_player_table
from .open_sockets import close_code, open_table_and_lobby

pytestmark = pytest.mark.django_db(transaction=True)
User = get_user_model()

OLD_KEY = "an-old-secret-key-" + "o" * 40
NEW_KEY = "a-new-secret-key-" + "n" * 40


@pytest.fixture(autouse=True)
def no_heartbeat_in_time(settings) -> None:
    """The heartbeat, the backstop, comes too late to be what closes a socket here."""
    settings.GAMES_SOCKET_HEARTBEAT = 3600


def client_of(cookie: str) -> Client:
    client = Client()
    client.cookies["sessionid"] = cookie
    return client


def admin_log_out(user, cookie: str) -> None:
    """A staff member logs out of the admin site (not the site's own log-out page)."""
    User.objects.filter(pk=user.pk).update(is_staff=True)
    assert client_of(cookie).post(reverse("admin:logout")).status_code == 302


def session_deleted(user, cookie: str) -> None:
    """The admin, or a shell, deletes the session's row."""
    Session.objects.filter(session_key=cookie).delete()


def another_user_logs_in_over_it(user, cookie: str) -> None:
    """Someone else logs in on the same browser: Django flushes the old session."""
    other = User.objects.create(username=f"other-{user.pk}")
    client_of(cookie).force_login(other)


def session_expired(user, cookie: str) -> None:
    """The session runs out; the socket's process looks on its beat (every 5 s)."""
    tell_sockets_of_expired_sessions()  # the beat before
    Session.objects.filter(session_key=cookie).update(
        expire_date=timezone.now() + timedelta(seconds=0.2)
    )
    time.sleep(0.3)
    assert tell_sockets_of_expired_sessions() == 2  # the beat after: its two sockets


@pytest.mark.parametrize(
    "end",
    [admin_log_out, session_deleted, another_user_logs_in_over_it, session_expired],
    ids=["admin-log-out", "session-deleted", "log-in-over-it", "expiry"],
)
def test_every_way_a_session_ends_closes_its_sockets_at_once(end):
    match, users = two_player_table()
    cookie = session_cookie(users[0])

    @in_own_loop
    async def run():
        table, lobby = await open_table_and_lobby(match.pk, cookie)
        await db(end, users[0], cookie)
        told = await table.until(lambda f: ERROR in f, timeout=10)
        return told, [await close_code(sock) for sock in (table, lobby)]

    told, closed = run()
    assert "session has ended" in told
    assert closed == [4401, 4401]


@pytest.mark.parametrize("page", ["accounts:logout", "admin:logout"])
def test_a_log_outs_news_goes_out_once_its_session_is_gone(page):
    """Django sends ``user_logged_out`` before it ends the session: news sent then
    could reach a socket, on another process, that still finds the session."""
    user = User.objects.create(username="leaving", is_staff=True)
    cookie = session_cookie(user)
    heard = []

    def listener(sender, user_id, message, **kwargs):
        heard.append((user_id, Session.objects.filter(session_key=cookie).exists()))

    account_news.connect(listener)
    try:
        client_of(cookie).post(reverse(page))
    finally:
        account_news.disconnect(listener)
    assert heard == [(user.pk, False)]


def rotate_keys(settings, fallbacks: list[str]) -> None:
    settings.SECRET_KEY = NEW_KEY
    settings.SECRET_KEY_FALLBACKS = fallbacks


@pytest.mark.parametrize(
    ("fallbacks", "kept"), [([OLD_KEY], True), ([], False)], ids=["in-fallbacks", "dropped"]
)
def test_a_session_of_a_rotated_key_is_kept_as_djangos_pages_keep_it(settings, fallbacks, kept):
    settings.SECRET_KEY = OLD_KEY
    match, users = two_player_table()
    cookie = session_cookie(users[0])
    # A second browser, whose first contact after the rotation is a socket's handshake
    # (a page that reconnects after a restart, say), not a page.
    reconnecting = session_cookie(users[0])

    @in_own_loop
    async def run():
        table = Socket(f"/ws/games/{match.pk}/", cookie)
        assert (await table.open())[0]
        await table.drain()
        rotate_keys(settings, fallbacks)
        # Its check now, as on any news of the account (or its heartbeat's).
        await db(account_changed, users[0].pk)
        if not kept:
            return await close_code(table), None
        await table.send({"type": "sync"})
        synced = await table.until(lambda f: 'id="table-version"' in f)
        # Channels' handshake knows the current key only, and flushes a session it
        # cannot verify: the second browser's socket opens, and its session stays.
        again = Socket(f"/ws/games/{match.pk}/", reconnecting)
        opened = (await again.open())[0]
        await again.close()
        await table.close()
        return synced, opened

    first, second = run()
    page_user = client_of(cookie).get(reverse("table:lobby")).wsgi_request.user
    if kept:
        assert first and second
        assert page_user == users[0]
        assert client_of(reconnecting).get(reverse("table:lobby")).wsgi_request.user == users[0]
        # The session took the current key's hash, and kept its key (the browser's cookie).
        session = Session.objects.get(session_key=cookie).get_decoded()
        assert session[HASH_SESSION_KEY] == User.objects.get(pk=users[0].pk).get_session_auth_hash()
    else:
        assert first == 4401
        assert not page_user.is_authenticated
