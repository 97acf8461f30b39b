"""Which server process holds each player's table socket.

Each open table socket of a seated player is a ``SocketPresence`` row of the process
that holds it: those rows are the one record of who is at the table (a seat with
none is away, from ``Seat.disconnected_since``).  A process killed with SIGKILL
never runs its sockets' close, so each process is a ``ServerProcess`` row that its
ticker beats.  When a process stops beating, any other process releases its sockets
(``services.release_dead_servers``): the seats count as away from the dead process's
last beat, and their reconnect budgets and turn clocks run as for any disconnect.

A process that was only slow, and was taken for dead, finds its row gone at its
next beat and tells each of its own seated sockets (``hold``) to record itself again.
They are kept in a set of this process, not a channel group: the in-memory channel
layer walks every member of every group whenever it delivers a message, and one group
holding all of a process's sockets made every push cost more the more tables were open.
"""

from __future__ import annotations

import os
import secrets
import socket
import threading
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from games.conf import setting

_name: tuple[int, str] | None = None
_seated_sockets: set[str] = set()
_seated_lock = threading.Lock()


def server_name() -> str:
    """This process's name: host, pid and a random part (pids are reused)."""
    global _name
    pid = os.getpid()
    if _name is None or _name[0] != pid:
        _name = (pid, f"{socket.gethostname()[:60]}:{pid}:{secrets.token_hex(4)}")
    return _name[1]


def hold(channel_name: str) -> None:
    """A seated player's table socket opened in this process."""
    with _seated_lock:
        _seated_sockets.add(channel_name)


def let_go(channel_name: str) -> None:
    with _seated_lock:
        _seated_sockets.discard(channel_name)


def _restore_seated_sockets() -> None:
    """Tell each seated socket of this process to record itself again."""
    from games.services.common import send_to_channels

    with _seated_lock:
        channels = list(_seated_sockets)
    send_to_channels(channels, {"type": "presence.restore"})


def register(now: datetime | None = None) -> bool:
    """Record (or refresh) this process as alive; True if its row was new.

    A new row while sockets are open means another process released them: they are
    told to record themselves again (after the commit, as every push).
    """
    from games.models import ServerProcess

    now = now or timezone.now()
    _, created = ServerProcess.objects.update_or_create(
        name=server_name(),
        defaults={"last_beat": now, "pid": os.getpid(), "host": socket.gethostname()[:100]},
    )
    if created:
        transaction.on_commit(_restore_seated_sockets)
    return created


def beat(now: datetime | None = None) -> bool:
    """Prove this process alive; True if it had been taken for dead (or just started)."""
    return register(now)


def timeout_seconds() -> float:
    return float(setting("GAMES_SERVER_TIMEOUT"))
