"""Receivers of the games app's signals; both run inside the sender's transaction."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from games.signals import deal_finished, match_aborted
from history import services


@receiver(deal_finished, dispatch_uid="history.record_finished_deal")
def on_deal_finished(sender: Any, deal: Any, **kwargs: Any) -> None:
    # No try/except: if this fails, the deal's transaction must fail with it.
    services.record_finished_deal(deal)


@receiver(match_aborted, dispatch_uid="history.unrate_aborted_match")
def on_match_aborted(sender: Any, match: Any, **kwargs: Any) -> None:
    services.unrate_match(match)
