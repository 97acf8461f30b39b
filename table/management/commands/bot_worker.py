"""``manage.py bot_worker``: the process that plays the bots' moves and answers hints.

Web processes never search: they only store when a bot is due (``Match.bot_due_at``)
and which hints are asked for (``HintRequest``).  Each bot worker claims one item
at a time under a lease, searches outside any lock, and applies the move at its due
time through the game services, which lock, apply and push on commit.  Any number of
workers may run, on any machine that reaches the database; see docs/deploy.md.
"""

from __future__ import annotations

import faulthandler
import gc
import logging
import signal
import time
from datetime import datetime, timedelta
from typing import Any

from django.core.management.base import BaseCommand
from django.db import close_old_connections
from django.utils import timezone

from analysis import hints
from analysis.models import HintRequest
from games import services
from games.conf import setting
from games.models import Match
from games.priority import add_nice_argument, lower_priority
from games.stop_flag import StopFlag

logger = logging.getLogger(__name__)


def give_back_turn(claim: services.BotClaim) -> None:
    """Release a claimed bot turn: it is due again at its own time, for another worker
    or this one's successor, instead of when the lease runs out."""
    Match.objects.filter(pk=claim.match_id, bot_due_at=claim.lease).update(bot_due_at=claim.due_at)


def give_back_hint(hint: HintRequest) -> None:
    """Release a claimed hint that has no answer yet, for the next worker to answer."""
    HintRequest.objects.filter(
        pk=hint.pk, claimed_until=hint.claimed_until, answered_at__isnull=True
    ).update(claimed_until=None)


class BotWorker:
    """One worker's loop: searches claimed bot turns ahead, lands each at its time.

    A bot's move waits its delay anyway, so the worker claims a turn as soon as it is
    within ``GAMES_BOT_HEAD_START_SECONDS`` of due and searches during that wait; the
    searched move is held here until its due time.  Should this process die, its
    claims' leases run out and another worker plays those turns.
    """

    def __init__(self) -> None:
        self.held: list[services.PreparedBotMove] = []
        # Bot turns and hints take turns: while bot turns queue (more bot tables than
        # this worker's core can search for), a hint would otherwise wait for all of them.
        self.hint_goes_next = False
        # Set by a stop signal (``request_stop``).  A search in hand polls it and ends
        # within a fraction of a second; the handler itself only sets it, so a signal
        # landing mid-query never breaks the connection the give-back needs.
        self.stopping = StopFlag()

    def request_stop(self, *_signal: object) -> None:
        """The stop signals' handler: stop after this step, cutting a search short (a
        search under load may take seconds; a stopping site waits for none)."""
        self.stopping.set()

    def search_turn(self, claim: services.BotClaim) -> services.PreparedBotMove | None:
        prepared = services.prepare_bot_move(claim, stop=self.stopping.is_set)
        if prepared is None and self.stopping.is_set():
            give_back_turn(claim)  # A no-op if the search ended the turn's claim itself.
        return prepared

    def answer_hint(self) -> bool:
        """Claim and answer one waiting hint; False when none waits."""
        hint = hints.claim_hint()
        if hint is None:
            return False
        if not hints.answer_hint(hint, stop=self.stopping.is_set):
            give_back_hint(hint)
        return True

    def step(self, now: datetime | None = None) -> float:
        """Land what is due, then search one turn or answer one hint; returns how long
        the loop may wait before the next step (0: more work is waiting)."""
        close_old_connections()  # a loop iteration is this process's request
        now = now or timezone.now()
        try:
            self.land_due(now)
            if self.hint_goes_next and self.answer_hint():
                self.hint_goes_next = False
                return 0.0
            ahead = timedelta(seconds=setting("GAMES_BOT_HEAD_START_SECONDS"))
            claim = services.claim_due_bot_turn(now, ahead=ahead)
            if claim is not None:
                self.hint_goes_next = True
                prepared = self.search_turn(claim)
                if prepared is not None:
                    self.held.append(prepared)
                return 0.0
            if self.answer_hint():
                return 0.0
        except Exception:  # One failed item must not stop the worker; its lease runs out.
            logger.exception("bot worker step failed")
        idle = setting("GAMES_BOT_WORKER_IDLE_SECONDS")
        if self.held:
            first_due = min(move.claim.due_at for move in self.held)
            idle = min(idle, max(0.0, (first_due - timezone.now()).total_seconds()))
        return idle

    def land_all(self) -> None:
        """Land every held move at its due time, claiming nothing more."""
        while self.held:
            first_due = min(move.claim.due_at for move in self.held)
            time.sleep(max(0.0, (first_due - timezone.now()).total_seconds()))
            self.land_due(timezone.now())

    def land_due(self, now: datetime) -> None:
        due = [move for move in self.held if move.claim.due_at <= now]
        for move in sorted(due, key=lambda move: move.claim.due_at):
            self.held.remove(move)
            services.play_prepared_bot_move(move)

    def hand_over(self) -> None:
        """On stopping: land the held moves that are due, give back the others' turns.

        A held move waits out the bot's delay (up to a second or two); another worker,
        or this one's successor, claims a given-back turn at once and lands it at the
        same time, so a stop waits for none of them."""
        self.land_due(timezone.now())
        for move in self.held:
            give_back_turn(move.claim)
        self.held.clear()


class Command(BaseCommand):
    help = "Play due bot moves and answer hints, beside the web processes (one item at a time)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--once", action="store_true", help="play what is due now, then exit (for scripts)"
        )
        add_nice_argument(parser, "people's moves come before the bots' searches")

    def handle(self, *args: Any, **options: Any) -> None:
        # Where web processes share the machine, they answer people within
        # milliseconds; a bot waits a second anyway.  The search yields the CPU.
        if options["nice"]:
            lower_priority(options["nice"])
        # A worker that does not stop can be asked where it is: ``kill -USR1 <pid>``
        # prints every thread's stack to its stderr.
        faulthandler.register(signal.SIGUSR1, all_threads=True)
        worker = BotWorker()
        for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            signal.signal(signum, worker.request_stop)
        logger.info("bot worker started")
        while not worker.stopping.is_set():
            wait = worker.step()
            if options["once"] and wait and not worker.held:
                return
            if wait:
                worker.stopping.wait(wait)
        worker.hand_over()
        close_old_connections()
        # All this process made dies with it: frozen, the collector does not walk it all
        # again at exit, which took most of a second of the stop on a loaded machine.
        gc.freeze()
