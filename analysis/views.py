from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from games.models import Deal, Match, Seat

from . import services
from .models import DealAnalysis


@login_required
@require_POST
def hint(request: HttpRequest, match_id: int) -> HttpResponse:
    """The hard bot's suggestion for the asking player's seat, as JSON or an HTML partial.

    The partial is the one the table's socket sends (``services.render_hint``).
    """
    match = get_object_or_404(Match, pk=match_id)
    try:
        action = services.hint_for(match, request.user)
    except services.Refused as refused:
        if request.htmx:
            return HttpResponse(services.render_hint(error=str(refused)), status=refused.status)
        return JsonResponse({"error": str(refused)}, status=refused.status)
    if request.htmx:
        return HttpResponse(services.render_hint(action))
    return JsonResponse({"action": str(action), "kind": action.kind, "cards": list(action.cards)})


def _can_see(request: HttpRequest, match: Match) -> bool:
    from history.services import can_replay

    return can_replay(request.user, match)


@require_http_methods(["GET", "POST"])
def deal_analysis(request: HttpRequest, match_id: int, deal_number: int) -> HttpResponse:
    """GET: the analysis partial (progress or result). POST: start the analysis."""
    match = get_object_or_404(Match, pk=match_id)
    if not _can_see(request, match):
        raise Http404(_("No such game."))
    deal = get_object_or_404(Deal, match=match, number=deal_number)
    error = None
    status = 200
    if request.method == "POST":
        if not request.user.is_authenticated:
            return JsonResponse({"error": _("Log in to analyse a game.")}, status=403)
        try:
            services.start_analysis(deal, request.user)
        except services.Refused as refused:
            error, status = str(refused), refused.status
    row = DealAnalysis.objects.filter(deal=deal).first()
    return render(
        request,
        "analysis/deal_analysis.html",
        _context(match, deal, row, error),
        status=status,
    )


def _context(match: Match, deal: Deal, row: DealAnalysis | None, error: str | None) -> dict:
    names = {}
    for seat in Seat.objects.filter(match=match).select_related("user"):
        names[seat.number] = seat.display_name
    decisions = []
    if row is not None and row.result:
        for d in row.result.get("decisions", []):
            decisions.append({**d, "name": names.get(d["seat"], f"#{d['seat']}")})
    return {
        "match": match,
        "deal": deal,
        "analysis": row,
        "decisions": decisions,
        "mistakes": [d for d in decisions if d["mistake"]],
        "error": error,
        "ahead": services.queue_position(row)
        if row is not None and row.status == DealAnalysis.Status.QUEUED
        else 0,
        "can_start": deal.status == Deal.Status.FINISHED
        and (row is None or row.status == DealAnalysis.Status.FAILED),
    }
