"""Who is on the arena's page: a player who leaves it is away (not paired) until a page
of the arena opens again (docs/tournaments.md).

Each open arena socket of a player is an ``ArenaPresence`` row.  It counts while the
socket's ``OpenSocket`` row (the socket caps' record, renewed on every beat of the
process that holds it) is live, so the page of a process that died without closing
its sockets stops counting once the process is taken for dead, as a table's seat does
(``games.presence``); the ticker then marks such players away.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from games import presence as processes
from games.models import OpenSocket

from .models import Arena, ArenaPlayer, ArenaPresence
from .services import notify_arena_changed


def _live_channels() -> QuerySet:
    since = timezone.now() - timedelta(seconds=processes.timeout_seconds())
    return OpenSocket.objects.filter(renewed_at__gte=since).values("channel_name")


def _on_page(arena_id: int, user_id: int) -> bool:
    return ArenaPresence.objects.filter(
        arena_id=arena_id, user_id=user_id, channel_name__in=_live_channels()
    ).exists()


def page_opened(arena_id: int, user_id: int, channel_name: str) -> None:
    """An arena page of the user opened: recorded, and the player is back."""
    with transaction.atomic():
        ArenaPresence.objects.get_or_create(
            channel_name=channel_name, defaults={"arena_id": arena_id, "user_id": user_id}
        )
        if ArenaPlayer.objects.filter(
            arena_id=arena_id, user_id=user_id, away_since__isnull=False
        ).update(away_since=None):
            notify_arena_changed(arena_id, [user_id])


def page_closed(arena_id: int, user_id: int, channel_name: str) -> None:
    """An arena page of the user closed: with it the last, the player is away."""
    with transaction.atomic():
        ArenaPresence.objects.filter(channel_name=channel_name).delete()
        if not _on_page(arena_id, user_id):
            _mark_away([(arena_id, user_id)], timezone.now())


def _mark_away(players: list[tuple[int, int]], now: Any) -> int:
    """Mark away the entries of ``players`` ((arena, user) pairs) still in a running or
    coming arena; a wait for a bot ends with it.  How many were marked."""
    marked = 0
    for arena_id, user_id in players:
        if ArenaPlayer.objects.filter(
            arena_id=arena_id,
            user_id=user_id,
            away_since__isnull=True,
            withdrawn=False,
            arena__status__in=(Arena.Status.SCHEDULED, Arena.Status.RUNNING),
        ).update(away_since=now, waiting_since=None):
            marked += 1
            notify_arena_changed(arena_id, [user_id])
    return marked


def release_closed_pages(now: Any = None) -> int:
    """On the tick: the arena pages of processes taken for dead stop counting; their
    players with no other page open are away.  How many players were marked away."""
    now = now or timezone.now()
    with transaction.atomic():
        dead = ArenaPresence.objects.exclude(channel_name__in=_live_channels()).filter(
            opened_at__lt=now - timedelta(seconds=processes.timeout_seconds())
        )
        players = set(dead.values_list("arena_id", "user_id"))
        if not players:
            return 0
        dead.delete()
        gone = [(a, u) for a, u in players if not _on_page(a, u)]
        return _mark_away(gone, now)
