"""The arena a table belongs to, for the table's page: its players find their way
back to the arena's page from there, before and after the game."""

from __future__ import annotations

from games.models import Match

from .models import Arena


def arena_of(match: Match) -> Arena | None:
    """The arena whose pairing seated ``match``, or None for a table outside arenas."""
    return Arena.objects.filter(games__match_id=match.pk).only("pk", "name").first()
