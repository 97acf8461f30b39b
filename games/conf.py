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
    # The hard bot's search per move, in playouts (see durak_site/settings.py).
    "GAMES_BOT_PLAYOUTS": 600,
    # The CPU a search may spend at most, whatever its playouts (ditto).
    "GAMES_SEARCH_CPU_SECONDS": 3.0,
    # Tables with bots one user may have waiting or playing at once (ditto).
    "GAMES_BOT_TABLES_PER_USER": 3,
    # A bot worker claims a bot's turn this long before it is due and searches while
    # the bot "thinks", so the move lands on time rather than a search late.
    "GAMES_BOT_HEAD_START_SECONDS": 1.0,
    # The shortest pause of a bot at a table of many bots (the delay shrinks with their
    # number, games/bot_speed.py): the felt's animations take about 0.4 s.
    "GAMES_BOT_DELAY_FLOOR": 0.4,
    # The longest a bot worker idles between looks for due bot moves and hints.
    "GAMES_BOT_WORKER_IDLE_SECONDS": 0.1,
    "GAMES_AUTO_START": True,
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
    # Seconds between a socket's heartbeats: a lobby socket rejoins its groups (a
    # restarted Redis forgets them; a table's sockets join none).  Its row for the socket
    # caps is renewed on its process's beat.
    "GAMES_SOCKET_HEARTBEAT": 20.0,
    # Every this many heartbeats a socket also checks that its user is still signed in
    # and that it is within the caps (the handshake checked both).  The account's news
    # (a log-out, a suspension, ...) makes it check at once; this is the backstop.
    "GAMES_SOCKET_RECHECK_BEATS": 3,
    # A lobby socket renders the lobby this long after a change, once for all the
    # changes meanwhile.
    "GAMES_LOBBY_PUSH_SECONDS": 0.3,
    # The lobby socket only listens: a burst of this many frames, refilled per second.
    "GAMES_LOBBY_FRAME_RATE": (5, 1),
    # A hint is the hard bot's search at this many playouts, on a bot worker.
    "GAMES_HINT_PLAYOUTS": 1500,
    # A claimed hint that never gets its answer is searched again after this long;
    # one not answered within the second figure is dropped.
    "GAMES_HINT_LEASE_SECONDS": 10.0,
    "GAMES_HINT_EXPIRES_SECONDS": 30.0,
}


def setting(name: str) -> Any:
    if hasattr(settings, name):
        return getattr(settings, name)
    return DEFAULTS[name]
