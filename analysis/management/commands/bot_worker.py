"""``manage.py bot_worker``: the process that plays the bots' moves and answers hints.

Web processes never search: they only store when a bot is due (``Match.bot_due_at``)
and which hints are asked for (``HintRequest``).  Each bot worker claims one due
item at a time under a lease, searches outside any lock, and applies the move
through the game services, which lock, apply and push on commit.  Any number of
workers may run, on any machine that reaches the database; see docs/deploy.md.
"""

from __future__ import annotations

import logging
import os
import signal
import threading
from typing import Any

from django.core.management.base import BaseCommand
from django.db import close_old_connections

from analysis import hints
from games import services
from games.conf import setting

logger = logging.getLogger(__name__)


def work_once() -> bool:
    """Play one due bot move and answer one waiting hint; False when nothing was due."""
    close_old_connections()  # a loop iteration is this process's request
    try:
        played = services.run_due_bot_turn() is not None
        answered = hints.answer_next_hint()
    except Exception:  # One failed item must not stop the worker; its lease runs out.
        logger.exception("bot worker step failed")
        return False
    return played or answered


class Command(BaseCommand):
    help = "Play due bot moves and answer hints, beside the web processes (one item at a time)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--once", action="store_true", help="play what is due now, then exit (for scripts)"
        )
        parser.add_argument(
            "--nice",
            type=int,
            default=10,
            help="lower this process's CPU priority by this much (default 10; 0 keeps it)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        # Where web processes share the machine, they answer people within
        # milliseconds; a bot waits a second anyway.  The search yields the CPU.
        if options["nice"]:
            os.nice(options["nice"])
        stopping = threading.Event()
        for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            # The move in progress is finished first: it is a fraction of a second.
            signal.signal(signum, lambda *_: stopping.set())
        logger.info("bot worker started")
        while not stopping.is_set():
            if work_once():
                continue
            if options["once"]:
                return
            stopping.wait(setting("GAMES_BOT_WORKER_IDLE_SECONDS"))
        close_old_connections()
