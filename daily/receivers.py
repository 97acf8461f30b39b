"""The news from the games app the daily deal listens to, and its rule for who may
replay a daily game."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from games import signals
from history.replay_access import replay_rule

from . import services


@receiver(signals.deal_finished, dispatch_uid="daily-deal-finished")
def deal_finished(sender: Any, deal: Any, **kwargs: Any) -> None:
    services.record_finish(deal)


@receiver(signals.match_aborted, dispatch_uid="daily-match-aborted")
def match_aborted(sender: Any, match: Any, by: Any = None, **kwargs: Any) -> None:
    services.record_abort(match, by)


@replay_rule
def daily_players_replay_each_other(match: Any, user: Any) -> bool:
    return services.may_replay(match, user)
