"""A player's arenas with their final places, for their profile (``arena.profile``):
one query, however many arenas they played."""

from __future__ import annotations

from typing import Any

from django.db.models import F, Max, QuerySet, Window
from django.db.models.functions import RowNumber

from .models import Arena, ArenaPlayer
from .services import STANDING_ORDER

# Places with a trophy on the profile, and their medals.
MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}


def arenas_of(user: Any) -> QuerySet[ArenaPlayer]:
    """``user``'s entries, latest arena first, each with ``place``: its rank in its
    arena's standings (``services.STANDING_ORDER``, the order of the arena's page).

    The places are numbered over every entry of the user's arenas; the user's own
    rows are picked only after the numbering, by a condition the database checks
    after the window (a plain filter on the user would rank them alone)."""
    played = ArenaPlayer.objects.filter(user=user).values("arena_id")
    return (
        ArenaPlayer.objects.filter(arena_id__in=played)
        .annotate(
            place=Window(RowNumber(), partition_by=F("arena_id"), order_by=STANDING_ORDER),
            entry_user=Window(Max("user_id"), partition_by=F("pk")),
        )
        .filter(entry_user=user.pk)
        .select_related("arena")
        .order_by("-arena__starts_at", "-arena_id")
    )


def medal_of(entry: ArenaPlayer) -> str:
    """The trophy of an entry ranked by ``arenas_of``: a podium place of a finished
    arena, else ""."""
    if entry.arena.status != Arena.Status.FINISHED:
        return ""
    return MEDALS.get(entry.place, "")
