"""Lobby and table pages.  Thin: services do the work, rendering builds the table."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Prefetch
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.views.decorators.http import require_POST

from games import rendering, services
from games.forms import CreateTableForm
from games.models import Match, Seat
from matchmaking import services as matchmaking
from matchmaking.forms import HouseRulesForm
from matchmaking.house_rules import table_rules
from matchmaking.views import lobby_context, table_extras


def open_tables() -> list[Match]:
    seats = Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("number"))
    tables = list(
        Match.objects.filter(status=Match.Status.WAITING, is_private=False)
        .select_related("variant")
        .prefetch_related(seats)
        .order_by("-created_at")[:50]
    )
    for table in tables:
        taken = [s for s in table.seats.all() if s.user_id or s.bot_level]
        table.taken = len(taken)
        table.variant_label = rendering.variant_name(table.variant)
    # Reliability by each name, and the rules (house rules, least reliability) as tags.
    matchmaking.describe_open_tables(tables)
    return tables


def render_open_tables() -> str:
    """The lobby's push: the open tables and the live counts."""
    tables = render_to_string("games/lobby.html#open-tables", {"tables": open_tables()})
    counts = render_to_string(
        "matchmaking/lobby_counts.html", {"counts": matchmaking.lobby_counts(), "oob": True}
    )
    return tables + counts


def _my_tables(user) -> list[Match]:
    if not user.is_authenticated:
        return []
    tables = list(
        Match.objects.filter(seats__user=user)
        .exclude(status=Match.Status.ABORTED)
        .select_related("variant")
        .order_by("-created_at")[:10]
    )
    for table in tables:
        table.variant_label = rendering.variant_name(table.variant)
    return tables


def lobby(
    request: HttpRequest,
    form: CreateTableForm | None = None,
    house: HouseRulesForm | None = None,
) -> HttpResponse:
    context = {
        "tables": open_tables(),
        "my_tables": _my_tables(request.user),
        "form": form or CreateTableForm(),
        "house_form": house or HouseRulesForm(),
        "counts": matchmaking.lobby_counts(),
    }
    if request.user.is_authenticated:
        context.update(lobby_context(request.user))
    return render(request, "games/lobby.html", context, status=400 if form else 200)


def _go(request: HttpRequest, url: str) -> HttpResponse:
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = url
        return response
    return redirect(url)


@login_required
@require_POST
def create_table(request: HttpRequest) -> HttpResponse:
    form, house = CreateTableForm(request.POST), HouseRulesForm(request.POST)
    if not (form.is_valid() and house.is_valid()):
        return lobby(request, form, house)
    variant, players = form.cleaned_data["variant"], form.cleaned_data["players"]
    try:
        rules, turn_seconds = table_rules(variant, players, house.cleaned_data)
        match = matchmaking.create_table(
            request.user,
            variant,
            players,
            is_private=form.cleaned_data["is_private"],
            bots=form.cleaned_data["bots"],
            rules=rules,
            turn_seconds=turn_seconds,
            min_reliability=house.cleaned_data["min_reliability"],
        )
    except services.ActionRefused as refused:
        form.add_error(None, refused.message)
        return lobby(request, form, house)
    return redirect("games:table", match.pk)


@login_required
def table(request: HttpRequest, match_id: int) -> HttpResponse:
    match = get_object_or_404(Match.objects.select_related("variant", "live_deal"), pk=match_id)
    viewer = rendering.viewer_for(match, request.user)
    if viewer is None:
        raise Http404
    context = rendering.table_context(match, viewer)
    context["ws_url"] = f"/ws/games/{match.pk}/"
    context["can_join"] = viewer.seat is None and match.status == Match.Status.WAITING
    context.update(table_extras(match, request.user, seated=viewer.seat is not None))
    context["reportable_players"] = [
        seat.user
        for seat in match.seats.select_related("user").exclude(user=None)
        if seat.user_id != request.user.pk
    ]
    return render(request, "games/table.html", context)


def _service_post(request: HttpRequest, call, success_url: str) -> HttpResponse:
    try:
        call()
    except services.ActionRefused as refused:
        messages.error(request, refused.message)
        return _go(request, reverse("games:lobby"))
    return _go(request, success_url)


@login_required
@require_POST
def join(request: HttpRequest, match_id: int) -> HttpResponse:
    match = get_object_or_404(Match, pk=match_id)
    return _service_post(
        request,
        lambda: services.join_match(match, request.user, token=request.POST.get("token")),
        reverse("games:table", args=[match_id]),
    )


@login_required
@require_POST
def leave(request: HttpRequest, match_id: int) -> HttpResponse:
    match = get_object_or_404(Match, pk=match_id)
    return _service_post(
        request, lambda: services.leave_match(match, request.user), reverse("games:lobby")
    )


@login_required
@require_POST
def start(request: HttpRequest, match_id: int) -> HttpResponse:
    match = get_object_or_404(Match, pk=match_id)
    return _service_post(
        request,
        lambda: services.start_match(match, request.user),
        reverse("games:table", args=[match_id]),
    )


@login_required
def join_by_token(request: HttpRequest, token: str) -> HttpResponse:
    match = get_object_or_404(
        Match.objects.select_related("variant", "creator"), invite_token=token
    )
    if request.method == "POST":
        return _service_post(
            request,
            lambda: services.join_match(match, request.user, token=token),
            reverse("games:table", args=[match.pk]),
        )
    context = {
        "match": match,
        "variant_label": rendering.variant_name(match.variant),
        "token": token,
    }
    return render(request, "games/invite.html", context)
