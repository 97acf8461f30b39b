"""Two players' games together, as one of them sees on the other's profile."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Q

from history.models import PlayerGame


def head_to_head(viewer: Any, other: Any) -> dict[str, int] | None:
    """The games ``viewer`` and ``other`` played at one table: how many, how often each
    was the fool, and the draws. None when they never played together."""
    if not getattr(viewer, "is_authenticated", False) or viewer.pk == other.pk:
        return None
    together = PlayerGame.objects.filter(user=other).values("deal_id")
    fool = Q(result=PlayerGame.Result.FOOL)
    mine = PlayerGame.objects.filter(user=viewer, deal_id__in=together).aggregate(
        games=Count("id"),
        mine=Count("id", filter=fool),
        draws=Count("id", filter=Q(result=PlayerGame.Result.DRAW)),
    )
    if not mine["games"]:
        return None
    shared = PlayerGame.objects.filter(user=viewer).values("deal_id")
    mine["theirs"] = PlayerGame.objects.filter(fool, user=other, deal_id__in=shared).count()
    return mine
