"""What the table and lobby sockets share: database calls through channels'
``database_sync_to_async``, the user's socket caps, a heartbeat that rejoins the
groups and checks the sign-in, and the close that says why."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import random
from typing import Any

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.db import connection

from accounts.language import ViewerLanguageMixin
from games.conf import setting
from games.signals import socket_changed
from games.socket_guard import (
    CLOSE_TOO_MANY,
    SignedOut,
    SocketQuota,
    signed_in_user,
)

logger = logging.getLogger(__name__)


CLOSE_UNAUTHENTICATED = 4401
CLOSE_FORBIDDEN = 4403


def db_call(function: Any) -> Any:
    """``function`` as a coroutine function, through channels' ``database_sync_to_async``.

    On PostgreSQL the calls run on the event loop's thread pool, each with a
    connection from Django's pool, so one table's round trips do not wait behind the
    process's other tables; the services' row locks keep each table's changes in
    order, and a socket awaits each call before its next.  SQLite takes one writer
    at a time, so there every call runs on the one database thread.
    """
    return database_sync_to_async(function, thread_sensitive=connection.vendor == "sqlite")


def _recheck(quota: SocketQuota | None, session_key: str | None, user_id: int) -> Any:
    """The backstop of the socket's heartbeat: its caps and its sign-in, checked again;
    the user as just read."""
    if quota is not None:
        quota.recheck()
    return signed_in_user(session_key, user_id)


def socket_changed_for(user_id: int) -> None:
    """Tell the apps above (friends' presence) that a socket of ``user_id`` opened or closed."""
    socket_changed.send(sender=None, user_id=user_id)


class SocketConsumer(AsyncWebsocketConsumer):
    """A WebSocket consumer whose every database call goes through ``db_call``.

    Channels' own ``dispatch`` first checks the database connections
    (``aclose_old_connections``) in a thread hop of its own, for every message a
    consumer receives: a frame, a push.  Here that hop is left out:
    ``database_sync_to_async`` makes the same check in the thread, before and after
    each call, where the connection is used.  With SQLite every hop queues on the
    one database thread, so the left-out hops were three more waits behind other
    tables' moves for every move.

    Two rules keep this safe, and tests/live/test_socket_dispatch.py pins both:
    this body is channels' own less that one line, and no consumer makes an async
    ORM call (those run on the database thread without the check).
    """

    async def dispatch(self, message: dict[str, Any]) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler:
            await handler(message)
        else:
            raise ValueError("No handler for message type %s" % message["type"])  # noqa: UP031


class GuardedSocket(ViewerLanguageMixin, SocketConsumer):
    """What the table and lobby sockets share: the user's socket quota, a heartbeat that
    rejoins the groups and checks the sign-in, and the close that says why."""

    groups_joined: tuple[str, ...] = ()
    quota: SocketQuota | None = None
    heartbeat: asyncio.Task | None = None
    user: Any = None

    def session_key(self) -> str | None:
        session = self.scope.get("session")
        return session.session_key if session is not None else None

    async def open_listener(self) -> bool:
        """The handshake of a socket that only listens (lobby, notices): the user is
        signed in as every handshake checks, and within the socket caps; otherwise
        the socket is closed with the reason's code and False returned."""
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return False
        self.user = user
        try:
            await db_call(signed_in_user)(self.session_key(), user.pk)
        except SignedOut as out:
            await self.close(code=out.code)
            return False
        if not await self.admit(user.pk, None):
            await self.close(code=CLOSE_TOO_MANY)
            return False
        return True

    async def admit(self, user_id: int, match_id: int | None) -> bool:
        """Count this socket against the user's caps; refuse (and say so) past them."""
        quota = SocketQuota(user_id, match_id, self.channel_name)
        if not await db_call(quota.admit)():
            return False
        self.quota = quota
        return True

    async def join_groups(self, *groups: str) -> None:
        """Join ``groups``; the account's news comes to this socket's own channel."""
        self.groups_joined = tuple(groups)
        await self.rejoin()

    async def rejoin(self) -> None:
        # Joining again is harmless, and a Redis that lost its state (a restart, a
        # FLUSHDB, the layer's group expiry) forgot this socket.
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)

    def start_heartbeat(self, user_id: int) -> None:
        self.heartbeat = asyncio.ensure_future(self.beat(user_id))

    async def beat(self, user_id: int) -> None:
        period = setting("GAMES_SOCKET_HEARTBEAT")
        # Sockets that open together (after a restart every page reconnects at once)
        # would beat together, each recheck a database call: the first beat comes at a
        # random point of the first period, so the beats spread out.
        await asyncio.sleep(random.uniform(0, period))
        # The handshake checked the caps and the sign-in, and the account's news makes
        # the socket check at once; the beats are the backstop, every few of them.
        recheck_every = setting("GAMES_SOCKET_RECHECK_BEATS")
        for beat in itertools.count(1):
            user = None
            try:
                await self.rejoin()
                if beat % recheck_every == 0:
                    user = await db_call(_recheck)(self.quota, self.session_key(), user_id)
            except SignedOut as out:
                await self.sign_out(out)
                return
            except Exception:  # The next beat tries again.
                logger.exception("socket heartbeat failed")
            else:
                if user is not None:
                    await self.user_checked(user)
            await asyncio.sleep(period)

    async def account_changed(self, event: dict[str, Any]) -> None:
        """The user logged out, changed their password, or was suspended or muted
        (``accounts.socket_news``): check the sign-in now, as the heartbeat does."""
        try:
            user = await db_call(signed_in_user)(self.session_key(), self.user.pk)
        except SignedOut as out:
            await self.sign_out(out)
            return
        await self.user_checked(user)

    async def user_checked(self, user: Any) -> None:
        """The socket's user as just read, still signed in: kept for its frames."""
        self.user = user

    async def sign_out(self, out: SignedOut) -> None:
        """Tell the person why, then close: the page shows the message."""
        await self.send_notice(out.message)
        await self.close(code=out.code)

    async def send_notice(self, message: str) -> None:
        raise NotImplementedError

    async def leave(self) -> None:
        if self.heartbeat is not None:
            self.heartbeat.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.heartbeat
        for group in self.groups_joined:
            await self.channel_layer.group_discard(group, self.channel_name)
        if self.quota is not None:
            await db_call(self.quota.release)()
            self.quota = None
