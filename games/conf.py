"""Settings of live play, with defaults; any may be set in Django settings.

Those an operator sets from the environment are read in ``durak_site/settings.py``
(and listed in the README); the rest are tuned in code.  Read them through
``setting(name)`` at call time so tests can override them.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings

DEFAULTS: dict[str, Any] = {
    # A claimed bot move that never lands is retried after this long.
    "GAMES_BOT_LEASE_SECONDS": 10.0,
    "GAMES_AUTO_START": True,
    "GAMES_CHAT_MAX_LENGTH": 300,
    # At most this many chat messages per user within this many seconds.
    "GAMES_CHAT_RATE": (5, 10),
    # Largest WebSocket frame a client may send, in bytes.
    "GAMES_MAX_FRAME": 4096,
    # Per socket: a burst of this many frames, refilled at this many a second.
    "GAMES_FRAME_RATE": (20, 10),
    # Per socket, for hints (each one a bot search): burst, then per second.
    "GAMES_HINT_RATE": (3, 0.5),
}


def setting(name: str) -> Any:
    if hasattr(settings, name):
        return getattr(settings, name)
    return DEFAULTS[name]
