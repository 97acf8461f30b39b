"""What the arena does on the games app's news: score a game as it ends, and make
scheduled arenas, start, pair and end arenas on each tick."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver
from django.utils.translation import gettext as _

from games import signals
from games.hint_rules import hint_rule

from . import presence, schedules, services
from .models import ArenaGame


@hint_rule
def no_hints_in_an_arena(match: Any) -> str | None:
    """The ``games.hint_rules`` rule: an arena is a competition, its tables give no hints."""
    if ArenaGame.objects.filter(match_id=match.pk).exists():
        return _("An arena is a competition: its tables give no hints.")
    return None


@receiver(signals.deal_finished, dispatch_uid="arena-deal-finished")
def deal_finished(sender: Any, deal: Any, **kwargs: Any) -> None:
    services.record_finish(deal)


@receiver(signals.ticked, dispatch_uid="arena-ticked")
def ticked(sender: Any, **kwargs: Any) -> None:
    presence.release_closed_pages()
    schedules.make_due_arenas()
    services.tick()
