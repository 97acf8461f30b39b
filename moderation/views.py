"""The players' report endpoint and the admin statistics dashboard."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.admin import site as admin_site
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.response import TemplateResponse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from moderation import charts
from moderation import dashboard as stats
from moderation.forms import ReportForm


def _back(request: HttpRequest) -> HttpResponse:
    target = request.POST.get("next") or request.headers.get("Referer") or "/"
    if not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        target = "/"
    return redirect(target)


@login_required
@require_POST
def report(request: HttpRequest) -> HttpResponse:
    """File a report from the table.  With htmx the form swaps in place; without
    it the player goes back to the page they came from, with a message."""
    form = ReportForm(request.POST, reporter=request.user)
    is_htmx = bool(getattr(request, "htmx", False))
    if form.is_valid():
        form.save()
        if is_htmx:
            return render(request, "moderation/report_form.html#done", {})
        messages.success(request, _("Thank you. A moderator will look at your report."))
        return _back(request)
    if is_htmx:
        context = {
            "form": form,
            "match_id": request.POST.get("match", ""),
            "reported_id": request.POST.get("reported_user", ""),
            "message_id": request.POST.get("chat_message", ""),
        }
        return render(request, "moderation/report_form.html#form", context)
    for error in form.non_field_errors() or [_("The report could not be sent.")]:
        messages.error(request, error)
    return _back(request)


def dashboard(request: HttpRequest) -> TemplateResponse:
    """Statistics for the admin; the site wraps it in ``admin_view`` (staff only)."""
    figures = stats.figures()
    days_chart = charts.column_chart(
        [(day.strftime("%d.%m"), n) for day, n in figures.days],
        title=_("Games finished per day, last %(days)d days") % {"days": len(figures.days)},
    )
    variants_chart = charts.bar_chart(
        # Standard variant names are in the catalogue (games/variant_words.py).
        [(_(name), n, str(n)) for name, n, _active in figures.per_variant],
        title=_("Games per rule variant"),
    )

    def rate_rows(rates: list[stats.Rate]) -> list[tuple[str, float, str]]:
        return [(r.label, r.value or 0, r.text) for r in rates]

    seat_chart = charts.bar_chart(
        [(_("Seat %(n)s") % {"n": label}, v, t) for label, v, t in rate_rows(figures.fool_by_seat)],
        title=_("Fool rate by seat"),
        scale=1.0,
    )
    bot_chart = charts.bar_chart(
        rate_rows(figures.bot_fool), title=_("Bot fool rate by level"), scale=1.0
    )
    context = {
        **admin_site.each_context(request),
        "title": _("Statistics"),
        "figures": figures,
        "days_chart": days_chart,
        "variants_chart": variants_chart,
        "seat_chart": seat_chart,
        "bot_chart": bot_chart,
        "has_bot_rows": bool(figures.bot_fool),
    }
    return TemplateResponse(request, "admin/moderation/dashboard.html", context)
