"""A bot worker told to stop: it ends the search in hand within a fraction of a second
and gives back what it has not played, so that the next worker plays it at its time and
nothing waits for a lease to run out."""

from __future__ import annotations

import signal
import time
from collections.abc import Iterator
from datetime import timedelta

import pytest

from analysis import hints
from games import services
from games.models import Match
from table.management.commands.bot_worker import BotWorker

from .test_bot_worker import bot_moves, bot_table, unrated_table_to_act

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def stop_signal_soon() -> Iterator[BotWorker]:
    """A worker whose stop handler a signal calls 50 ms from now (SIGALRM standing in
    for SIGTERM: the same handler, on a timer), as it would land in a search."""
    worker = BotWorker()
    previous = signal.signal(signal.SIGALRM, worker.request_stop)
    signal.setitimer(signal.ITIMER_REAL, 0.05)
    try:
        yield worker
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def test_a_stop_ends_the_search_in_hand_and_gives_its_turn_back(settings, stop_signal_soon):
    # A search of seconds of CPU: whatever ends it within the test is the stop.
    settings.GAMES_BOT_PLAYOUTS = 100_000_000
    settings.GAMES_SEARCH_CPU_SECONDS = 600
    match, _ = bot_table("hard", bot_leads=True)
    due = match.bot_due_at
    started = time.monotonic()
    stop_signal_soon.step(due)
    assert time.monotonic() - started < 1.0
    assert stop_signal_soon.stopping.is_set() and not stop_signal_soon.held
    # Due again at its own time, not when the lease would have run out.
    assert Match.objects.get(pk=match.pk).bot_due_at == due
    assert bot_moves(match.pk) == 0
    settings.GAMES_BOT_PLAYOUTS = 20
    played = services.run_due_bot_turn(due)
    assert played is not None and played[1] is not None
    assert bot_moves(match.pk) == 1


def test_a_stop_ends_the_hint_in_hand_and_gives_it_back(settings, stop_signal_soon):
    settings.GAMES_HINT_PLAYOUTS = 100_000_000
    settings.GAMES_SEARCH_CPU_SECONDS = 600
    match, user, _seat = unrated_table_to_act()
    hint = hints.request_hint(match.pk, user)
    started = time.monotonic()
    stop_signal_soon.step()
    assert time.monotonic() - started < 1.0
    hint.refresh_from_db()
    assert hint.claimed_until is None and hint.answered_at is None
    settings.GAMES_HINT_PLAYOUTS = 20
    assert hints.answer_next_hint()
    hint.refresh_from_db()
    assert hint.answered_at is not None and hint.action


def test_a_stopping_worker_lands_the_moves_that_are_due_and_gives_back_the_others(settings):
    settings.GAMES_BOT_HEAD_START_SECONDS = 1.0
    settings.GAMES_BOT_PLAYOUTS = 20
    now_due, _ = bot_table("random", bot_leads=True)
    later, _ = bot_table("random", bot_leads=True)
    Match.objects.filter(pk=later.pk).update(bot_due_at=later.bot_due_at + timedelta(seconds=30))
    later.refresh_from_db()
    worker = BotWorker()
    worker.step(now_due.bot_due_at)  # searched and landed at once: it is due
    worker.step(later.bot_due_at - timedelta(seconds=0.5))  # searched ahead and held
    assert len(worker.held) == 1 and bot_moves(later.pk) == 0
    worker.hand_over()
    assert not worker.held
    assert bot_moves(now_due.pk) == 1
    # The held move is not waited for: its turn is due again at its own time...
    assert Match.objects.get(pk=later.pk).bot_due_at == later.bot_due_at
    assert bot_moves(later.pk) == 0
    # ...when the next worker plays it, once. (This asks after this table alone: the
    # random bot at the other one may have a move of its own due by then.)
    assert services.run_bot_turn(later.pk, later.bot_due_at - timedelta(seconds=0.1)) is None
    assert services.run_bot_turn(later.pk, later.bot_due_at) is not None
    assert bot_moves(later.pk) == 1
