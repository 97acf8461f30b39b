"""What a socket checks besides the services: the frame's shape, whether its user is
still signed in, and how many sockets one user may hold (at every instant).

Channels' auth middleware reads the session once, at the handshake.  A socket lives
for hours, so the consumer asks ``signed_in_user`` again when the account changes
(a log-out, a new password, a suspension: ``accounts.socket_news`` tells every
socket of the user at once) and every few heartbeats (``GAMES_SOCKET_RECHECK_BEATS``),
the backstop: the socket then closes with the reason.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from importlib import import_module
from typing import Any

from channels.auth import AuthMiddleware
from channels.db import database_sync_to_async
from channels.middleware import BaseMiddleware
from channels.sessions import CookieMiddleware, SessionMiddleware
from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.sessions.backends.base import SessionBase, UpdateError
from django.contrib.sessions.models import Session
from django.db import transaction
from django.dispatch import receiver
from django.utils import timezone
from django.utils.crypto import constant_time_compare
from django.utils.translation import gettext as _

from accounts.notices import suspension_notice
from accounts.socket_news import account_news
from games import presence
from games.conf import setting
from games.models import OpenSocket
from games.services.common import send_to_channels

FRAME_TYPES = ("action", "chat", "sync", "resign", "rematch", "hint")


class FrameRefused(Exception):
    """A frame the socket will not act on; ``message`` is for the person, ``kind`` for the log."""

    def __init__(self, message: str, kind: str) -> None:
        super().__init__(message)
        self.message = message
        self.kind = kind


def parse_frame(text: str | None) -> dict[str, Any]:
    """The JSON object of a table frame with a known ``type``, or FrameRefused."""
    if text is None:
        raise FrameRefused(_("Send JSON text frames."), "malformed")
    if len(text.encode("utf-8", "surrogatepass")) > setting("GAMES_MAX_FRAME"):
        raise FrameRefused(_("That message is too long."), "oversized")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):  # deep nesting ends in RecursionError
        raise FrameRefused(_("That message is not valid JSON."), "malformed") from None
    if not isinstance(data, dict):
        raise FrameRefused(_("That message is not valid JSON."), "malformed")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in FRAME_TYPES:
        raise FrameRefused(_("Unknown message type."), "unknown")
    return data


# ------------------------------------------------------------------ identity


class SignedOut(Exception):
    """The socket's user may no longer use it; ``message`` says why, ``code`` closes it."""

    def __init__(self, message: str, code: int) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


CLOSE_SIGNED_OUT = 4401
CLOSE_SUSPENDED = 4403
CLOSE_TOO_MANY = 4429


def signed_in_user(session_key: str | None, user_id: int) -> Any:
    """The socket's user as the database holds it now, or SignedOut.

    The session must still exist and name this user, with the auth hash of the
    user's current password (Django's own rule for page requests), and the user
    must be active and not suspended.
    """
    ended = SignedOut(_("Your session has ended; please log in again."), CLOSE_SIGNED_OUT)
    if not session_key:
        raise ended
    user = get_user_model().objects.filter(pk=user_id, is_active=True).first()
    if user is None:
        raise ended
    session = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
    if str(session.get(SESSION_KEY)) != str(user_id):
        raise ended
    if not session_hash_verified(session, user):
        raise ended
    if user.is_suspended:
        raise SignedOut(suspension_notice(user), CLOSE_SUSPENDED)
    return user


def session_hash_verified(session: SessionBase, user: Any) -> bool:
    """Whether the session's auth hash is the user's, as Django's ``get_user`` has it
    for a page: made with ``SECRET_KEY``, or with a key of ``SECRET_KEY_FALLBACKS``
    (a key being rotated out), in which case the session takes the current key's hash.

    Unlike ``get_user`` the session keeps its key: a socket cannot hand the browser a
    new session cookie, and the old one would then name no session.
    """
    session_hash = session.get(HASH_SESSION_KEY)
    if not session_hash:
        return False
    current = user.get_session_auth_hash()
    if constant_time_compare(session_hash, current):
        return True
    if not any(
        constant_time_compare(session_hash, fallback)
        for fallback in user.get_session_auth_fallback_hash()
    ):
        return False
    session[HASH_SESSION_KEY] = current
    try:
        session.save()
    except UpdateError:  # The session ended meanwhile.
        return False
    return True


def upgrade_rotated_session(session: SessionBase) -> None:
    """Give a session signed in under a key of ``SECRET_KEY_FALLBACKS`` the current
    key's hash, before channels' ``AuthMiddleware`` reads it: channels checks the
    current key alone, and flushes (logs out) a session that fails, so after a key's
    rotation every socket that reconnected without a page load first would have
    logged its player out everywhere."""
    if not settings.SECRET_KEY_FALLBACKS or not session.get(HASH_SESSION_KEY):
        return
    user_id = session.get(SESSION_KEY)
    user = get_user_model().objects.filter(pk=user_id).first() if user_id else None
    if user is not None:
        session_hash_verified(session, user)


class RotatedKeySessionMiddleware(BaseMiddleware):
    """Between channels' ``SessionMiddleware`` and ``AuthMiddleware``: see
    ``upgrade_rotated_session``."""

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        session = scope.get("session")
        if session is not None and settings.SECRET_KEY_FALLBACKS:
            await database_sync_to_async(upgrade_rotated_session)(session)
        return await super().__call__(scope, receive, send)


def socket_auth_stack(inner: Any) -> Any:
    """Channels' ``AuthMiddlewareStack`` that also accepts a session signed in under a
    key of ``SECRET_KEY_FALLBACKS``, as Django's pages do."""
    return CookieMiddleware(SessionMiddleware(RotatedKeySessionMiddleware(AuthMiddleware(inner))))


def tell_sockets_of_expired_sessions(now: datetime | None = None) -> int:
    """On this process's beat: tell its sockets whose user's session expired since the
    last beat to check their sign-in now; how many were told.

    An expiry is no event that sends the account's news, and the heartbeat's check may
    come a minute later.  Each process tells its own sockets only, so none hears it
    twice.  (Sessions live in the database: ``SESSION_ENGINE`` is its backend.)
    """
    global _sessions_seen_until
    now = now or timezone.now()
    since, _sessions_seen_until = _sessions_seen_until or now, now
    expired = Session.objects.filter(expire_date__gt=since, expire_date__lte=now)
    user_ids = {row.get_decoded().get(SESSION_KEY) for row in expired}
    user_ids.discard(None)
    if not user_ids:
        return 0
    channels = list(
        OpenSocket.objects.filter(server=presence.server_name(), user_id__in=user_ids).values_list(
            "channel_name", flat=True
        )
    )
    send_to_channels(channels, {"type": "account.changed"})
    return len(channels)


# Where the last look at expired sessions ended, on this process.
_sessions_seen_until: datetime | None = None


# -------------------------------------------------------------------- quotas


def _counted_since(now: datetime) -> datetime:
    """Rows renewed before this belong to a process that stopped beating: a process
    renews its sockets' rows on its beat and is taken for dead after the same time."""
    return now - timedelta(seconds=presence.timeout_seconds())


class SocketQuota:
    """Counts one user's open sockets, overall and per table, as ``OpenSocket`` rows.

    The rows are in the database, so every process counts the same sockets at every
    instant; one user's admissions take turns on the user's row lock.  Each process
    renews the rows of all its sockets at once on its beat (``renew_process_sockets``),
    so a socket's heartbeat costs no database call; every few heartbeats the socket
    checks the caps again (``recheck``): a socket past a cap among the user's sockets
    opened before it closes.  A row not renewed for ``GAMES_SERVER_TIMEOUT`` (its
    process died without closing it) no longer counts.
    """

    def __init__(self, user_id: int, match_id: int | None, channel_name: str) -> None:
        self.user_id = user_id
        self.match_id = match_id
        self.channel_name = channel_name

    def _live(self, now: datetime) -> list[tuple[int, str, int | None]]:
        """The user's sockets renewed in time, oldest first: (row id, channel, table)."""
        rows = OpenSocket.objects.filter(user_id=self.user_id, renewed_at__gte=_counted_since(now))
        return list(rows.order_by("pk").values_list("pk", "channel_name", "match_id"))

    def _within_caps(self, others: list[tuple[int, str, int | None]]) -> bool:
        """Whether one more socket fits beside ``others``, live sockets of the user."""
        if len(others) >= setting("GAMES_SOCKETS_PER_USER"):
            return False
        at_this_table = sum(1 for _pk, _channel, table in others if table == self.match_id)
        return self.match_id is None or at_this_table < setting("GAMES_SOCKETS_PER_TABLE")

    def _create_row(self, now: datetime) -> None:
        OpenSocket.objects.create(
            channel_name=self.channel_name,
            user_id=self.user_id,
            match_id=self.match_id,
            server=presence.server_name(),
            renewed_at=now,
        )

    def admit(self) -> bool:
        """Record this socket unless the user already holds the most allowed."""
        now = timezone.now()
        with transaction.atomic():
            get_user_model().objects.select_for_update().filter(pk=self.user_id).exists()
            if not self._within_caps(self._live(now)):
                return False
            self._create_row(now)
        return True

    def recheck(self) -> None:
        """Every few heartbeats: SignedOut past a cap.  A row its process no longer
        renews (the process was taken for dead) is renewed, or made again."""
        now = timezone.now()
        live = self._live(now)
        mine = next(
            (i for i, (_pk, channel, _table) in enumerate(live) if channel == self.channel_name),
            None,
        )
        if mine is None:  # its process was taken for dead, or has not beaten for long
            if not OpenSocket.objects.filter(channel_name=self.channel_name).update(renewed_at=now):
                self._create_row(now)
            mine = len(live)
        # The sockets opened before this one keep their places; a row made again (its
        # process was taken for dead) counts as the newest.
        if not self._within_caps(live[:mine]):
            raise SignedOut(
                _("You have too many tables open; close one and reload."), CLOSE_TOO_MANY
            )

    @staticmethod
    def online_among(user_ids: Any = None) -> set[int]:
        """Those of ``user_ids`` (None: of everybody) who hold an open socket (a row
        renewed in time)."""
        live = OpenSocket.objects.filter(renewed_at__gte=_counted_since(timezone.now()))
        if user_ids is not None:
            live = live.filter(user_id__in=list(user_ids))
        return set(live.values_list("user_id", flat=True).distinct())

    def release(self) -> None:
        OpenSocket.objects.filter(channel_name=self.channel_name).delete()


def renew_process_sockets(now: datetime | None = None) -> int:
    """On this process's beat: renew the rows of all its open sockets, in one statement."""
    rows = OpenSocket.objects.filter(server=presence.server_name())
    return rows.update(renewed_at=now or timezone.now())


def forget_expired_sockets(now: datetime | None = None) -> int:
    """Delete the rows of sockets that stopped renewing (their process died)."""
    expired = OpenSocket.objects.filter(renewed_at__lt=_counted_since(now or timezone.now()))
    deleted, _ = expired.delete()
    return deleted


@receiver(account_news)
def send_account_news(sender: Any, user_id: int, message: dict[str, Any], **kwargs: Any) -> None:
    """Send the account's news (``accounts.socket_news``) to each open socket of the
    user, on whatever process."""
    channels = OpenSocket.objects.filter(
        user_id=user_id, renewed_at__gte=_counted_since(timezone.now())
    ).values_list("channel_name", flat=True)
    send_to_channels(channels, message)
