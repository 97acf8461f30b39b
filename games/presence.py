"""Which server process holds each player's table socket.

Each open table socket of a seated player is a ``SocketPresence`` row of the process
that holds it: those rows are the one record of who is at the table (a seat with
none is away, from ``Seat.disconnected_since``).  A process killed with SIGKILL
never runs its sockets' close, so each process is a ``ServerProcess`` row that its
ticker beats.  When a process stops beating, any other process releases its sockets
(``services.release_dead_servers``): the seats count as away from the dead process's
last beat, and their reconnect budgets and turn clocks run as for any disconnect.

A process that was only slow, and was taken for dead, finds its row gone at its
next beat and tells its own sockets (the channel group ``server_group()``) to
record themselves again.
"""

from __future__ import annotations

import os
import secrets
import socket
from datetime import datetime

from django.utils import timezone

from games.conf import setting

_name: tuple[int, str] | None = None


def server_name() -> str:
    """This process's name: host, pid and a random part (pids are reused)."""
    global _name
    pid = os.getpid()
    if _name is None or _name[0] != pid:
        _name = (pid, f"{socket.gethostname()[:60]}:{pid}:{secrets.token_hex(4)}")
    return _name[1]


def server_group() -> str:
    """The channel group of this process's seated table sockets."""
    return "server." + server_name().replace(":", "_")


def register(now: datetime | None = None) -> bool:
    """Record (or refresh) this process as alive; True if its row was new.

    A new row while sockets are open means another process released them: they are
    told to record themselves again (after the commit, as every push).
    """
    from games.models import ServerProcess
    from games.services.common import send_push

    now = now or timezone.now()
    _, created = ServerProcess.objects.update_or_create(
        name=server_name(),
        defaults={"last_beat": now, "pid": os.getpid(), "host": socket.gethostname()[:100]},
    )
    if created:
        send_push(server_group(), {"type": "presence.restore"})
    return created


def beat(now: datetime | None = None) -> bool:
    """Prove this process alive; True if it had been taken for dead (or just started)."""
    return register(now)


def timeout_seconds() -> float:
    return float(setting("GAMES_SERVER_TIMEOUT"))
