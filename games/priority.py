"""Lower CPU priority for worker processes, so that the web processes beside them answer
people first."""

from __future__ import annotations

import argparse
import contextlib
import os
from pathlib import Path

# Linux's CPU weight of this process's session (see sched(7), "The autogroup feature").
AUTOGROUP = Path("/proc/self/autogroup")


def lower_priority(by: int, *, autogroup: Path = AUTOGROUP) -> None:
    """Lower this process's CPU priority by ``by`` against the web processes too.

    Where Linux groups processes by session (the autogroup, on by default), a nice
    value weighs only against the processes of the same session, and the launcher
    starts each process in a session of its own: there a niced worker still took a
    full core's share beside daphne.  So a worker that leads its session lowers the
    session's weight as well.  One that shares a session (a terminal's, a test's)
    leaves it alone, for the weight is that of every process in it.
    """
    os.nice(by)
    if os.getsid(0) != os.getpid():
        return
    # No autogroup here (another system, or grouping is off): the nice value is all.
    with contextlib.suppress(OSError):
        autogroup.write_text(str(min(by, 19)))


def add_nice_argument(parser: argparse.ArgumentParser, what: str) -> None:
    """The workers' common ``--nice`` option."""
    parser.add_argument(
        "--nice",
        type=int,
        default=10,
        help=f"lower this process's CPU priority by this much, so that {what} "
        "(default 10; 0 keeps it)",
    )
