"""A task worker told to stop (SIGTERM) finishes the task in hand if it ends within
``--finish-within`` seconds, and otherwise gives it back to the queue at once: the task
and its analysis wait again, for the next worker to run."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

import pytest
from django.db import connection
from django_tasks import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from analysis import services
from analysis.models import DealAnalysis
from history.seeding import get_user, play_match
from tests.subprocesses import ROOT

from .conftest import DATABASE
from .test_queue import _child_env

pytestmark = pytest.mark.django_db(transaction=True)


def queued_analysis(settings, seed: int) -> DealAnalysis:
    """An analysis waiting in the queue, the only task there."""
    settings.TASKS = DATABASE
    deal = play_match(["alice", "bob"], deals=1, seed=seed, is_rated=False).deals.get()
    DBTaskResult.objects.all().delete()  # the finished deal's puzzle search
    row, started = services.start_analysis(deal, get_user("alice"))
    assert started
    return row


def stop_while_running(analysis: DealAnalysis, *args: str, **env: str) -> float:
    """Start a task worker, SIGTERM it once it runs ``analysis``; seconds it took to exit."""
    connection.close()
    worker = subprocess.Popen(
        [sys.executable, "manage.py", "task_worker", "--no-reload", "--no-startup-delay", *args],
        cwd=ROOT,
        env={**_child_env(), **env, "DJANGO_SETTINGS_MODULE": "durak_site.settings"},
    )
    try:
        deadline = time.monotonic() + 60
        while DealAnalysis.objects.get(pk=analysis.pk).status != DealAnalysis.Status.RUNNING:
            assert time.monotonic() < deadline, "the worker never started the analysis"
            time.sleep(0.02)
        started = time.monotonic()
        worker.send_signal(signal.SIGTERM)
        worker.wait(timeout=60)
        return time.monotonic() - started
    finally:
        worker.kill()
        worker.wait()


def analysis_task() -> DBTaskResult:
    return DBTaskResult.objects.get(task_path="analysis.tasks.analyse_deal")


def test_a_stopped_worker_gives_back_an_analysis_it_cannot_finish_soon(settings):
    analysis = queued_analysis(settings, seed=31)
    took = stop_while_running(analysis, ANALYSIS_SECONDS="60")
    assert took < 2.0
    assert DealAnalysis.objects.get(pk=analysis.pk).status == DealAnalysis.Status.QUEUED
    task = analysis_task()
    assert task.status == TaskResultStatus.READY and not task.traceback
    # The next worker runs it from the start (tests/scale/test_shutdown.py).


def test_a_stopped_worker_finishes_an_analysis_that_ends_within_its_time(settings):
    analysis = queued_analysis(settings, seed=32)
    stop_while_running(analysis, "--finish-within", "60", ANALYSIS_SECONDS="0.02")
    row = DealAnalysis.objects.get(pk=analysis.pk)
    assert row.status == DealAnalysis.Status.DONE, row.error
    assert analysis_task().status == TaskResultStatus.SUCCESSFUL
