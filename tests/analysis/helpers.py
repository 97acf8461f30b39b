"""A finished, analysed deal for the review tests."""

from __future__ import annotations

from analysis import services
from analysis.models import DealAnalysis
from history.seeding import get_user, play_match


def analysed_match(seed: int = 21, players=("anna", "boris"), **extra):
    """A finished two-player match whose deal was analysed (by the test's task backend),
    with at least one judged mistake."""
    match = play_match(list(players), "classic", seed=seed, is_rated=False, **extra)
    deal = match.deals.get()
    services.start_analysis(deal, get_user(players[0]))
    row = DealAnalysis.objects.get(deal=deal)
    assert row.status == DealAnalysis.Status.DONE, row.error
    return match, deal, row
