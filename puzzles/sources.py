"""The deals puzzles may come from: every path that makes puzzles asks here.

A puzzle shows both hands of its position to anyone, so it may only come from a game
anyone could have watched: a public table. Never from a fixed deal (``Match.seed``:
the daily deal, the same cards for everyone who plays it that day), whatever its
table says, so a puzzle can never give away a deal someone has still to play.
"""

from __future__ import annotations

from django.db.models import QuerySet

from games.models import Deal


def source_deals() -> QuerySet[Deal]:
    """The finished deals of public tables that are not fixed deals."""
    return Deal.objects.filter(status=Deal.Status.FINISHED, match__is_private=False, match__seed="")


def gives_puzzles(deal_id: int) -> bool:
    """Whether puzzles may be searched for in the deal ``deal_id``."""
    return source_deals().filter(pk=deal_id).exists()
