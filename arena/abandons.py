"""Abandoned arena games: a player who abandons two is withdrawn by the site, and told
why on the arena's page (docs/tournaments.md)."""

from __future__ import annotations

from games.models import Deal, Move

# Abandoned games after which the site withdraws a player.
ABANDONS_TO_WITHDRAW = 2


def abandoned(deal: Deal, seat_number: int) -> bool:
    """Whether the player in ``seat_number`` abandoned the finished ``deal``: they left
    the table for good (their reconnect budget ran out), or their own last moves were
    all played by the turn timer (the last two, or the only one)."""
    sources = list(
        Move.objects.filter(deal_id=deal.pk, seat=seat_number)
        .order_by("-seq")
        .values_list("source", flat=True)[:2]
    )
    if not sources:
        return False
    return sources[0] == Move.Source.FORFEIT or all(
        source == Move.Source.TIMEOUT for source in sources
    )
