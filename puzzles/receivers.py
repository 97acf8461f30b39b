"""Receivers of the games app's signals."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.dispatch import receiver

from games.signals import deal_finished

from .tasks import find_deal_puzzles


@receiver(deal_finished, dispatch_uid="puzzles.queue_puzzle_search")
def on_deal_finished(sender: Any, deal: Any, **kwargs: Any) -> None:
    # Queued once the deal's transaction commits: a rolled-back finish has no puzzles.
    deal_id = deal.pk
    transaction.on_commit(lambda: find_deal_puzzles.enqueue(deal_id))
