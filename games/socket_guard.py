"""What a socket checks besides the services: the frame's shape, whether its user is
still signed in, and how many sockets one user may hold.

Channels' auth middleware reads the session once, at the handshake.  A socket lives
for hours, so the consumer asks ``signed_in_user`` again when the account changes
(a log-out, a new password, a suspension: ``accounts.socket_news`` tells every
socket of the user at once) and on its heartbeat, the backstop: the socket then
closes with the reason.
"""

from __future__ import annotations

import json
import time
from importlib import import_module
from typing import Any

from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.core.cache import cache
from django.utils.crypto import constant_time_compare
from django.utils.translation import gettext as _

from accounts.notices import suspension_notice
from games.conf import setting

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
    data = import_module(settings.SESSION_ENGINE).SessionStore(session_key).load()
    if str(data.get(SESSION_KEY)) != str(user_id):
        raise ended
    if not constant_time_compare(data.get(HASH_SESSION_KEY, ""), user.get_session_auth_hash()):
        raise ended
    if user.is_suspended:
        raise SignedOut(suspension_notice(user), CLOSE_SUSPENDED)
    return user


# -------------------------------------------------------------------- quotas


class SocketQuota:
    """Counts one user's open sockets, overall and per table, in the cache.

    The cache is Redis in a cluster, so every process sees the same counts.  Each
    socket registers in the current time window and again, on its heartbeat, in
    each new one; a window's count is how many sockets live in it.  A process that
    dies without closing its sockets thus stops counting within two windows.
    """

    def __init__(self, user_id: int, match_id: int | None) -> None:
        self.keys = [f"sockets:{user_id}"]
        if match_id is not None:
            self.keys.append(f"sockets:{user_id}:{match_id}")
        self.limits = [setting("GAMES_SOCKETS_PER_USER"), setting("GAMES_SOCKETS_PER_TABLE")]
        self.windows: list[int] = []

    @staticmethod
    def _window() -> int:
        return int(time.time() // (2 * setting("GAMES_SOCKET_HEARTBEAT")))

    def _add(self, window: int, delta: int) -> list[int]:
        counts = []
        for key in self.keys:
            windowed = f"{key}:{window}"
            cache.add(windowed, 0, timeout=int(6 * setting("GAMES_SOCKET_HEARTBEAT")))
            try:
                counts.append(cache.incr(windowed, delta))
            except ValueError:  # expired between the calls
                counts.append(max(delta, 0))
        return counts

    def admit(self) -> bool:
        """Register this socket unless the user already holds the most allowed."""
        window = self._window()
        counts = self._add(window, 1)
        if any(count > limit for count, limit in zip(counts, self.limits, strict=False)):
            self._add(window, -1)
            return False
        self.windows.append(window)
        return True

    def renew(self) -> None:
        """On the heartbeat: count this socket in the current window too."""
        window = self._window()
        if window not in self.windows:
            self._add(window, 1)
            self.windows = [w for w in self.windows if w >= window - 1] + [window]

    def release(self) -> None:
        for window in self.windows:
            self._add(window, -1)
        self.windows = []
