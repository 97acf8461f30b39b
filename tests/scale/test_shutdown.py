"""SIGTERM to the launcher of `make run` and `make run-cluster` stops every process it
started, each by itself (none is killed), even with a bot's turn in the middle of its
search, an analysis running and a table's socket open, and loses nothing: the bot
worker gives the turn back and the task worker the analysis, and the next start plays
and runs them.  How long the stop takes (2 s, docs/deploy.md) is measured by
benchmarks/stop_time.py on a quiet machine: here, beside other tests, it measures the
load."""

from __future__ import annotations

import asyncio
import os
import signal
import time

import pytest
from django.utils import timezone
from django_tasks import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from analysis import services as analysis_services
from analysis.models import DealAnalysis
from durak.engine import Game
from durak_site.cluster import STOP_GRACE_SECONDS, free_port
from games import services
from games.models import Match, Move, RuleVariant
from history.seeding import get_user, play_match

from .conftest import db, in_own_loop, make_user, session_cookie
from .invariants import assert_moves_gap_free, assert_snapshot_is_replay
from .launcher import Launcher, gone
from .wsclient import TableClient

pytestmark = pytest.mark.django_db(transaction=True)

# Past this the launcher kills what has not stopped: a stop within it took no kill.
STOP_WITHIN = STOP_GRACE_SECONDS
# Work that cannot end by itself during the test: whatever stops it is the stop.
ENDLESS = {
    "GAMES_BOT_PLAYOUTS": "100000000",
    "GAMES_SEARCH_CPU_SECONDS": "600",
    "ANALYSIS_SECONDS": "60",
    "GAMES_BOT_DELAY": "0,0",
}
# The bot's turn must still be its own at the stop: on a loaded machine the run from
# the table's start to the stop has taken over 30 s, and the turn timer then played the
# bot's move (as it should: a bot that does not answer loses its turn, not the table).
TURN_SECONDS = 600
QUICK = {"GAMES_BOT_PLAYOUTS": "20", "ANALYSIS_SECONDS": "0.002", "ANALYSIS_SAMPLES": "2"}


def launch(env: dict[str, str]) -> tuple[Launcher, int]:
    shared = bool(os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL"))
    ports = [free_port(), free_port()] if shared else [free_port()]
    args = ["--ports", ",".join(map(str, ports)), "--workers", "1", "--bot-workers", "1"]
    launcher = Launcher(*args, env=env) if shared else Launcher("--embedded", *args, env=env)
    launcher.wait_for("Ctrl-C stops them all")
    return launcher, ports[0]


def bot_leads_table() -> tuple[Match, object]:
    """A person (seat 0) against the hard bot, which leads: its turn is due at once."""
    for attempt in range(40):
        user = make_user(f"stop{attempt}-")
        match = services.create_match(
            user,
            RuleVariant.objects.get(slug="classic"),
            2,
            bots=("hard",),
            turn_seconds=TURN_SECONDS,
        )
        match.refresh_from_db()
        if Game.from_snapshot(match.state).to_act() == [1]:
            return match, user
        services.abort_match(match, "the person leads")
    raise AssertionError("no deal where the bot leads in forty")


def queued_analysis() -> DealAnalysis:
    """An analysis waiting in the queue, the only task there."""
    deal = play_match(["olga", "pavel"], deals=1, seed=5, is_rated=False).deals.get()
    DBTaskResult.objects.all().delete()  # the finished deal's puzzle search
    row, started = analysis_services.start_analysis(deal, get_user("olga"))
    assert started
    return row


def analysis_running(analysis: DealAnalysis):
    return lambda: DealAnalysis.objects.get(pk=analysis.pk).status == DealAnalysis.Status.RUNNING


def wait_until(check, what: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"{what} within {timeout:.0f} s"
        time.sleep(0.05)


def bot_moves(match_id: int) -> int:
    return Move.objects.filter(match_id=match_id, source=Move.Source.BOT).count()


def table_story(match_id: int) -> str:
    """The table as the database holds it, for a failing test's message."""
    match = Match.objects.get(pk=match_id)
    moves = list(
        Move.objects.filter(match_id=match_id)
        .order_by("seq")
        .values_list("seq", "seat", "source", "action", "created_at")
    )
    return (
        f"table {match_id}: {match.status}, version {match.version}, turn started "
        f"{match.turn_started_at}, deadline {match.turn_deadline}, bot due {match.bot_due_at}, "
        f"bot claimed {match.bot_claimed_at}; moves {moves}"
    )


def analysis_task_status() -> str:
    (task,) = DBTaskResult.objects.filter(task_path="analysis.tasks.analyse_deal")
    return task.status


@in_own_loop
async def test_sigterm_stops_every_process_by_itself_and_loses_no_move_or_task():
    analysis = await db(queued_analysis)
    launcher, port = await asyncio.to_thread(launch, ENDLESS)
    try:
        await db(wait_until, analysis_running(analysis), "the analysis never started")
        # The bot's turn is due now; the worker claims it and searches (a search is
        # capped at seconds of CPU: the stop comes right after the claim).
        match, user = await db(bot_leads_table)
        due = match.bot_due_at
        await db(wait_until, lambda: Match.objects.get(pk=match.pk).bot_due_at != due, "no claim")
        client = TableClient(f"http://127.0.0.1:{port}", match.pk, await db(session_cookie, user))
        await client.open()
        children = launcher.children()
        started = time.monotonic()
        launcher.process.send_signal(signal.SIGTERM)
        await asyncio.wait_for(client.conn.wait_closed(), STOP_WITHIN)
        await asyncio.to_thread(launcher.process.wait, 60)
        took = time.monotonic() - started
    finally:
        await asyncio.to_thread(launcher.stop)
    assert took < STOP_WITHIN, (
        f"the launcher took {took:.1f} s to stop: a process was killed\n"
        f"what the processes printed:\n{launcher.printed()}"
    )
    assert launcher.process.returncode == 0
    assert all(gone(pid) for pid in children)

    def given_back() -> None:
        # The turn is due again at its own time, not at the end of the lease...
        assert Match.objects.get(pk=match.pk).bot_due_at == due <= timezone.now()
        assert bot_moves(match.pk) == 0
        # ...and the analysis waits in the queue again, its task with it.
        assert DealAnalysis.objects.get(pk=analysis.pk).status == DealAnalysis.Status.QUEUED
        assert analysis_task_status() == TaskResultStatus.READY

    try:
        await db(given_back)
    except AssertionError as failed:
        # Which process did what is in their log lines: a move played at the stop, a bot
        # that failed and fell back to a random move, a task given back.
        table = await db(table_story, match.pk)
        raise AssertionError(
            f"{failed}\n{table}\nwhat the processes printed:\n{launcher.printed()}"
        ) from failed

    again, _port = await asyncio.to_thread(launch, QUICK)
    try:

        def played_and_run() -> None:
            wait_until(lambda: bot_moves(match.pk) >= 1, "the bot's turn was not played")
            wait_until(
                lambda: DealAnalysis.objects.get(pk=analysis.pk).status == DealAnalysis.Status.DONE,
                "the analysis was not run",
            )

        await db(played_and_run)
    finally:
        await asyncio.to_thread(again.stop)

    def consistent() -> None:
        moves = assert_moves_gap_free(match.pk)
        # The turn given back was played, once: the game goes on from it (the person's
        # clock may run out meanwhile), every move in order and the table their replay.
        assert (moves[0].seat, moves[0].source) == (1, Move.Source.BOT)
        assert_snapshot_is_replay(Match.objects.get(pk=match.pk))
        assert analysis_task_status() == TaskResultStatus.SUCCESSFUL

    await db(consistent)
