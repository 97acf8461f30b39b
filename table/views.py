"""The table's posts (join, leave, start), the invite link's page, and the rules.

Thin: services do the work.  The lobby and the table page are in ``pages.py``.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import get_language
from django.views.decorators.http import require_POST

from games import services
from games.http import go
from games.models import Match, RuleVariant
from games.variant_words import variant_description, variant_name
from matchmaking.house_rules import match_tags, table_name


def _service_post(
    request: HttpRequest, call, success_url: str, refused_url: str | None = None
) -> HttpResponse:
    """Run ``call``; a refusal is a message on ``refused_url`` (the lobby by default)."""
    try:
        call()
    except services.Refused as refused:
        messages.error(request, refused.message)
        return go(request, refused_url or reverse("table:lobby"))
    return go(request, success_url)


def _join_on_the_site(match: Match, user, token: str | None) -> None:
    services.refuse_bot_account(user)  # a bot account sits down through the API only
    services.join_match(match, user, token=token)


@login_required
@require_POST
def join(request: HttpRequest, match_id: int) -> HttpResponse:
    match = get_object_or_404(Match, pk=match_id)
    return _service_post(
        request,
        lambda: _join_on_the_site(match, request.user, request.POST.get("token")),
        reverse("table:table", args=[match_id]),
    )


@login_required
@require_POST
def leave(request: HttpRequest, match_id: int) -> HttpResponse:
    match = get_object_or_404(Match, pk=match_id)
    # Refused, the player still has the seat: the table says why.
    return _service_post(
        request,
        lambda: services.leave_match(match, request.user),
        reverse("table:lobby"),
        reverse("table:table", args=[match_id]),
    )


@login_required
@require_POST
def start(request: HttpRequest, match_id: int) -> HttpResponse:
    match = get_object_or_404(Match, pk=match_id)
    table = reverse("table:table", args=[match_id])
    bots = request.POST.get("bots", "")
    return _service_post(
        request, lambda: services.start_match(match, request.user, bots=bots), table, table
    )


@login_required
def join_by_token(request: HttpRequest, token: str) -> HttpResponse:
    match = get_object_or_404(
        Match.objects.select_related("variant", "creator"), invite_token=token
    )
    if request.method == "POST":
        return _service_post(
            request,
            lambda: _join_on_the_site(match, request.user, token),
            reverse("table:table", args=[match.pk]),
        )
    context = {
        "match": match,
        "variant_label": table_name(match.variant, match.engine_rules),
        "rule_tags": match_tags(match),
        "token": token,
    }
    return render(request, "table/invite.html", context)


def rules(request: HttpRequest) -> HttpResponse:
    """How to play, in the reader's language, and the variants this site deals."""
    variants = []
    for variant in RuleVariant.objects.filter(is_active=True).order_by("ordering", "pk"):
        variant.label = variant_name(variant)
        variant.words = variant_description(variant)
        variants.append(variant)
    # The prose is a template per language: paragraphs read better whole than as
    # dozens of catalogue entries.
    language = "ru" if (get_language() or "").startswith("ru") else "en"
    context = {"variants": variants, "prose": f"table/rules_{language}.html"}
    return render(request, "table/rules.html", context)
