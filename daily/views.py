"""The daily deal's pages: today's deal with its board, any earlier day's board, the try."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games.links import table_url
from games.models import RuleVariant
from games.services import Refused

from . import services
from .models import DailyDeal, DailyEntry

BOARD_ROWS = 100


def _deal_panel(daily: DailyDeal, user: Any) -> dict[str, Any]:
    """What the page shows of one day's deal to ``user``."""
    services.refresh_accuracies(daily)
    mine = None
    given_back = False
    if user.is_authenticated:
        # At most one try counts; the others were aborted.
        tries = list(DailyEntry.objects.filter(daily=daily, user=user).select_related("match"))
        mine = next((entry for entry in tries if not entry.aborted), None)
        given_back = mine is None and bool(tries)
    over = daily.day < services.today()
    played = mine is not None and mine.is_finished
    rows = list(services.board(daily)[:BOARD_ROWS])
    return {
        "daily": daily,
        "mine": mine,
        "can_play": user.is_authenticated and mine is None and not over,
        # A moderator or the site stopped the player's table: the try did not count.
        "given_back": given_back and not over,
        # The field and the best game show the cards: only once the viewer played (or
        # the day is over), so nobody learns the deck before their own try.
        "show_field": played or over,
        "field": services.field_of(daily),
        "board": rows,
        "top": rows[0] if rows else None,
    }


def _render(request: HttpRequest, day: date, *, status: int = 200, error: str = "") -> HttpResponse:
    if day == services.today():
        deals = services.todays_deals()
    else:
        deals = list(DailyDeal.objects.filter(day=day).select_related("variant"))
    user = request.user
    context = {
        "day": day,
        "is_today": day == services.today(),
        "panels": [_deal_panel(daily, user) for daily in deals],
        "streak": services.streak(user) if user.is_authenticated else None,
        "previous_day": day - timedelta(days=1),
        "next_day": day + timedelta(days=1) if day < services.today() else None,
        "error": error,
    }
    return render(request, "daily/daily.html", context, status=status)


@require_GET
def today_page(request: HttpRequest) -> HttpResponse:
    return _render(request, services.today())


@require_GET
def day_page(request: HttpRequest, day: str) -> HttpResponse:
    try:
        wanted = date.fromisoformat(day)
    except ValueError:
        raise Http404(_("No such day.")) from None
    if wanted > services.today():
        raise Http404(_("That day has not come yet."))
    if wanted == services.today():
        return redirect("daily:today")
    return _render(request, wanted)


@login_required
@require_POST
def play(request: HttpRequest, variant: str) -> HttpResponse:
    chosen = get_object_or_404(RuleVariant, slug=variant)
    if chosen not in services.daily_variants():
        raise Http404(_("This variant has no daily deal."))
    try:
        entry = services.start_daily(request.user, services.deal_of_the_day(chosen))
    except Refused as refused:
        return _render(request, services.today(), status=409, error=refused.message)
    return redirect(table_url(entry.match_id))
