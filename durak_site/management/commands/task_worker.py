"""The task worker (post-game analyses, puzzle searches): django-tasks' database worker
at a lower CPU priority than the web processes beside it, which gives its task back to
the queue when it is stopped.

django-tasks' worker, told to stop, finishes the task in hand, however long it takes
(an analysis runs up to a minute); a second signal ends the task, which it then
records as failed.  This one lets the task finish within ``--finish-within`` seconds
of the stop; past that it ends the task as the second signal does and puts it back in
the queue, for another worker or the next start to run from the beginning.
"""

from __future__ import annotations

import faulthandler
import gc
import logging
import signal
import threading
from types import FrameType
from typing import Any

from django_tasks import TaskResultStatus
from django_tasks.signals import task_finished, task_started
from django_tasks_db.management.commands import db_worker
from django_tasks_db.models import DBTaskResult

from games.priority import add_nice_argument, lower_priority

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)

logger = logging.getLogger(__name__)


class TaskInHand:
    """The task this worker runs, and what ends it on a stop."""

    def __init__(self, finish_within: float) -> None:
        self.finish_within = finish_within
        self.task_id: str | None = None
        self.cut_short: str | None = None
        # django-tasks' own handlers of the stop signals, which ours go around.
        self.worker_handlers: dict[int, Any] = {}
        self.stop_signal: int | None = None

    def started(self, sender: Any, task_result: Any, **kwargs: Any) -> None:
        self.task_id = str(task_result.id)
        # Only the main thread may handle signals; under --reload the worker runs in
        # another, and django-tasks' handling stays as it is.
        if threading.current_thread() is not threading.main_thread():
            return
        for signum in STOP_SIGNALS:
            handler = signal.getsignal(signum)
            if handler != self.on_stop:
                # django-tasks sets its handlers once it starts, before the first task.
                self.worker_handlers[signum] = handler
                signal.signal(signum, self.on_stop)

    def finished(self, sender: Any, task_result: Any, **kwargs: Any) -> None:
        if self.task_id == str(task_result.id):
            self.task_id = None
            signal.setitimer(signal.ITIMER_REAL, 0)

    def on_stop(self, signum: int, frame: FrameType | None) -> None:
        """A stop: django-tasks' worker stops after the task in hand, which has
        ``finish_within`` seconds left before it is ended and given back; a second
        stop ends it at once."""
        if self.task_id is not None:
            if self.stop_signal is None:
                signal.signal(signal.SIGALRM, self.end_task)
                signal.setitimer(signal.ITIMER_REAL, max(self.finish_within, 0.001))
            else:
                self.cut_short = self.task_id
        self.stop_signal = signum
        self.worker_handlers[signum](signum, frame)

    def end_task(self, signum: int, frame: FrameType | None) -> None:
        if self.task_id is None or self.stop_signal is None:
            return
        self.cut_short = self.task_id
        # django-tasks' answer to a second stop signal: SystemExit in the task, which
        # its worker records as the task's failure, and then it exits.
        self.worker_handlers[self.stop_signal](self.stop_signal, frame)

    def give_back(self) -> None:
        """Put the task that was ended by the stop back in the queue, as it was."""
        if self.cut_short is None:
            return
        given_back = DBTaskResult.objects.filter(
            pk=self.cut_short, status=TaskResultStatus.FAILED
        ).update(
            status=TaskResultStatus.READY,
            started_at=None,
            finished_at=None,
            exception_class_path="",
            traceback="",
        )
        if given_back:
            # django-tasks has just logged it as failed, with the stop's traceback.
            logger.warning("Task id=%s was stopped and is back in the queue", self.cut_short)


class Command(db_worker.Command):
    help = "Run queued tasks (analyses, puzzle searches) at a lower priority than the web."

    def add_arguments(self, parser: Any) -> None:
        super().add_arguments(parser)
        add_nice_argument(parser, "people's moves come before analyses and puzzle searches")
        parser.add_argument(
            "--finish-within",
            type=float,
            default=0.5,
            help="seconds the task in hand may take to finish once the worker is told to "
            "stop; past that it is given back to the queue (default 0.5)",
        )

    def handle(self, *args: Any, nice: int, finish_within: float, **options: Any) -> None:
        if nice:
            lower_priority(nice)
        # A worker that does not stop can be asked where it is: ``kill -USR1 <pid>``
        # prints every thread's stack to its stderr.
        faulthandler.register(signal.SIGUSR1, all_threads=True)
        in_hand = TaskInHand(finish_within)
        task_started.connect(in_hand.started)
        task_finished.connect(in_hand.finished)
        try:
            super().handle(*args, **options)
        finally:
            in_hand.give_back()
            # All this process made dies with it: frozen, the collector does not walk it
            # all again at exit, which took most of a second of the stop.
            gc.freeze()
