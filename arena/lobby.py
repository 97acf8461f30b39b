"""The arenas the lobby shows (the ``table`` app composes the lobby and reads them
here): those running and the next to start, each with its players, in one query
however many arenas there are."""

from __future__ import annotations

from django.db.models import Case, Count, IntegerField, Q, Value, When

from .models import Arena

ARENAS_IN_LOBBY = 5


def lobby_arenas(limit: int = ARENAS_IN_LOBBY) -> list[Arena]:
    """The arenas running (the first to have started first), then the next to start,
    at most ``limit``; each with ``joined``, its players not withdrawn."""
    arenas = (
        Arena.objects.filter(status__in=[Arena.Status.RUNNING, Arena.Status.SCHEDULED])
        .annotate(
            joined=Count("players", filter=Q(players__withdrawn=False)),
            running_first=Case(
                When(status=Arena.Status.RUNNING, then=Value(0)),
                default=Value(1),
                output_field=IntegerField(),
            ),
        )
        .order_by("running_first", "starts_at", "pk")
    )
    return list(arenas[:limit])
