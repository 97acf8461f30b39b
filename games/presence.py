"""Which server process holds each player's table socket.

A socket's open and close are counted in ``Seat.connections``, but a process killed
with SIGKILL never runs its sockets' close.  So each process is a ``ServerProcess``
row that its ticker beats, and each seated socket is a ``SocketPresence`` row of that
process.  When a process stops beating, any other process releases its sockets
(``services.release_dead_servers``): the seats count as away from the dead process's
last beat, and their reconnect budgets and turn clocks run as for any disconnect.

A process that was only slow, and was taken for dead, puts its sockets back at its
next beat, from the registry of the sockets it really holds.
"""

from __future__ import annotations

import os
import secrets
import socket
from datetime import datetime
from typing import Any

from django.utils import timezone

from games.conf import setting

_name: tuple[int, str] | None = None
# channel name -> (match id, user id) of the seated sockets open in this process.
_open: dict[str, tuple[int, int]] = {}


def server_name() -> str:
    """This process's name: host, pid and a random part (pids are reused)."""
    global _name
    pid = os.getpid()
    if _name is None or _name[0] != pid:
        _name = (pid, f"{socket.gethostname()[:60]}:{pid}:{secrets.token_hex(4)}")
        _open.clear()  # A forked child holds none of its parent's sockets.
    return _name[1]


def opened(channel_name: str, match_id: int, user_id: int) -> None:
    server_name()
    _open[channel_name] = (match_id, user_id)


def closed(channel_name: str) -> None:
    _open.pop(channel_name, None)


def held() -> dict[str, tuple[int, int]]:
    """The seated sockets this process holds now."""
    server_name()
    return dict(_open)


def register(now: datetime | None = None) -> None:
    """Record (or refresh) this process as alive."""
    from games.models import ServerProcess

    now = now or timezone.now()
    ServerProcess.objects.update_or_create(
        name=server_name(),
        defaults={"last_beat": now, "pid": os.getpid(), "host": socket.gethostname()[:100]},
    )


def beat(now: datetime | None = None) -> int:
    """Prove this process alive; put back any of its sockets taken for dead.

    Returns how many sockets were put back.
    """
    from games import services
    from games.models import SocketPresence

    now = now or timezone.now()
    register(now)
    mine = held()
    if not mine:
        return 0
    recorded = set(
        SocketPresence.objects.filter(server=server_name()).values_list("channel_name", flat=True)
    )
    restored = 0
    for channel, (match_id, user_id) in mine.items():
        # Still open? It may have closed while this beat was running.
        if channel in recorded or channel not in _open:
            continue
        user = _user(user_id)
        if user is None or services.seat_connected(match_id, user, channel) is None:
            continue
        restored += 1
        if channel not in _open:
            # It closed meanwhile, perhaps before the row was back: close it again.
            services.seat_disconnected(match_id, user, channel)
    return restored


def _user(user_id: int) -> Any:
    from django.contrib.auth import get_user_model

    return get_user_model().objects.filter(pk=user_id).first()


def timeout_seconds() -> float:
    return float(setting("GAMES_SERVER_TIMEOUT"))
