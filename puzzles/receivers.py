"""Receivers of the games and analysis apps' signals: each queues a puzzle search."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.dispatch import receiver

from analysis.signals import analysis_done
from games.signals import deal_finished

from .sources import gives_puzzles
from .tasks import find_deal_puzzles, find_swing_puzzles


def _queue_if_source(search: Any, deal_id: int) -> None:
    # A private or fixed deal gives no puzzle: no task for the worker to turn down.
    # The search checks again itself, whoever queued it.
    if gives_puzzles(deal_id):
        search.enqueue(deal_id)


@receiver(deal_finished, dispatch_uid="puzzles.queue_puzzle_search")
def on_deal_finished(sender: Any, deal: Any, **kwargs: Any) -> None:
    # Queued once the deal's transaction commits: a rolled-back finish has no puzzles.
    deal_id = deal.pk
    transaction.on_commit(lambda: _queue_if_source(find_deal_puzzles, deal_id))


@receiver(analysis_done, dispatch_uid="puzzles.queue_swing_search")
def on_analysis_done(sender: Any, analysis: Any, **kwargs: Any) -> None:
    deal_id = analysis.deal_id
    transaction.on_commit(lambda: _queue_if_source(find_swing_puzzles, deal_id))
