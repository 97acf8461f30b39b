"""Settings of live play, with defaults; any may be set in Django settings.

Read them through ``setting(name)`` at call time so tests can override them.
"""

from __future__ import annotations

import os
from typing import Any

from django.conf import settings


def _floats(name: str, default: str) -> tuple[float, ...]:
    return tuple(float(x) for x in os.environ.get(name, default).split(","))


DEFAULTS: dict[str, Any] = {
    # A bot waits a random time in this range (seconds) before moving, like a person.
    "GAMES_BOT_DELAY": _floats("GAMES_BOT_DELAY", "0.7,1.6"),
    # Thinking time a bot may spend on one move.
    "GAMES_BOT_BUDGET_SECONDS": float(os.environ.get("GAMES_BOT_BUDGET_SECONDS", "0.5")),
    # A claimed bot move that never lands is retried after this long.
    "GAMES_BOT_LEASE_SECONDS": 10.0,
    # How often each process looks for expired timers and due bot moves.
    "GAMES_TICK_SECONDS": float(os.environ.get("GAMES_TICK_SECONDS", "0.5")),
    # Run the ticker in server processes (off for a process that only serves pages).
    "GAMES_TICKER": os.environ.get("GAMES_TICKER", "1") not in ("0", "false", "no"),
    # Each process beats this often; one silent for GAMES_SERVER_TIMEOUT is taken for
    # dead and its sockets are released (their seats count as away).
    "GAMES_SERVER_BEAT_SECONDS": float(os.environ.get("GAMES_SERVER_BEAT_SECONDS", "5")),
    "GAMES_SERVER_TIMEOUT": float(os.environ.get("GAMES_SERVER_TIMEOUT", "30")),
    "GAMES_AUTO_START": True,
    # Threads per process for the sockets' database work (0: 4, or 1 on SQLite).
    "GAMES_DB_THREADS": int(os.environ.get("GAMES_DB_THREADS", "0")),
    "GAMES_CHAT_MAX_LENGTH": 300,
    # At most this many chat messages per user within this many seconds.
    "GAMES_CHAT_RATE": (5, 10),
    # Largest WebSocket frame a client may send, in bytes.
    "GAMES_MAX_FRAME": 4096,
    # Per socket: a burst of this many frames, refilled at this many a second.
    "GAMES_FRAME_RATE": (20, 10),
    # Per user, across HTTP and all their sockets: at most this many hint requests
    # within this many seconds (each one a bot search).
    "GAMES_HINT_RATE": (3, 10),
    # Open sockets one user may hold: at all, and at one table.
    "GAMES_SOCKETS_PER_USER": 12,
    "GAMES_SOCKETS_PER_TABLE": 4,
    # Seconds between a socket's heartbeats: it rejoins its groups (a restarted
    # Redis forgets them) and checks that its user is still signed in.
    "GAMES_SOCKET_HEARTBEAT": 20.0,
    # The lobby socket only listens: a burst of this many frames, refilled per second.
    "GAMES_LOBBY_FRAME_RATE": (5, 1),
    # Hint searches one process runs at once; more are refused until one ends.
    "GAMES_HINT_SEARCHES": 2,
}


def setting(name: str) -> Any:
    return getattr(settings, name, DEFAULTS[name])
