"""The arena's pages: the list of arenas, one arena's page and the standings part it
polls.  The buttons post to the services, which refuse with a clear message."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.ratelimit import client_ip
from games.conf import setting
from games.http import go
from games.links import table_url
from games.services import Refused

from . import services
from .berserk import go_berserk
from .chat import visible_arena_chat
from .chat_reports import ArenaChatReportForm, report_arena_line, reportable_line
from .entry import refuse_invite
from .invites import invite_path, may_see_invite
from .live_part import live_context
from .models import Arena
from .player_arenas import PlayerArenaForm, create_player_arena

FINISHED_LISTED = 20


@require_GET
def arena_list(request: HttpRequest) -> HttpResponse:
    return _list_page(request, PlayerArenaForm())


def _list_page(
    request: HttpRequest, form: PlayerArenaForm, *, error: str = "", status: int = 200
) -> HttpResponse:
    arenas = Arena.objects.select_related("variant")
    context = {
        "form": form,
        "error": error,
        "running": arenas.filter(status=Arena.Status.RUNNING),
        "upcoming": arenas.filter(status=Arena.Status.SCHEDULED),
        "finished": arenas.filter(status=Arena.Status.FINISHED).order_by("-starts_at")[
            :FINISHED_LISTED
        ],
    }
    return render(request, "arena/list.html", context, status=status)


@login_required
@require_POST
def create(request: HttpRequest) -> HttpResponse:
    """The arenas page's form: a player's own arena, or the form again saying why not."""
    form = PlayerArenaForm(request.POST)
    if not form.is_valid():
        return _list_page(request, form, status=400)
    try:
        arena = create_player_arena(request.user, client_ip(request), form.cleaned_data)
    except Refused as refusal:
        return _list_page(request, form, error=refusal.message, status=refusal.status)
    return redirect("arena:detail", pk=arena.pk)


def _page(
    request: HttpRequest,
    arena: Arena,
    *,
    error: str = "",
    status: int = 200,
    invite_token: str = "",
):
    context = live_context(arena, request.user)
    context["error"] = error
    # The token only on the page its own link opened, to join with; the link itself
    # only for the arena's creator and the admins.
    context["invite_token"] = invite_token
    if may_see_invite(request.user, arena):
        context["invite_link"] = request.build_absolute_uri(invite_path(arena))
    context["chat_lines"] = visible_arena_chat(arena)
    context["chat_limit"] = setting("GAMES_CHAT_MAX_LENGTH")
    return render(request, "arena/arena.html", context, status=status)


@require_GET
def arena_page(request: HttpRequest, pk: int) -> HttpResponse:
    return _page(request, get_object_or_404(Arena.objects.select_related("variant"), pk=pk))


@login_required
@require_GET
def invite(request: HttpRequest, pk: int, token: str) -> HttpResponse:
    """A private arena's invite link: its page, whose join button needs no password;
    a wrong or old link, the page saying so."""
    arena = get_object_or_404(Arena.objects.select_related("variant"), pk=pk)
    if not arena.is_private:
        return redirect("arena:detail", pk=arena.pk)
    try:
        refuse_invite(arena, token)
    except Refused as refusal:
        return _page(request, arena, error=refusal.message, status=refusal.status)
    return _page(request, arena, invite_token=token)


@require_GET
def standings_part(request: HttpRequest, pk: int) -> HttpResponse:
    arena = get_object_or_404(Arena.objects.select_related("variant"), pk=pk)
    return render(request, "arena/_standings.html", live_context(arena, request.user))


def _act(
    request: HttpRequest,
    pk: int,
    action: Callable[[Any, Arena], Any],
    *,
    invite_token: str = "",
) -> HttpResponse:
    arena = get_object_or_404(Arena.objects.select_related("variant"), pk=pk)
    try:
        action(request.user, arena)
    except Refused as refusal:
        # Refused for another reason, an invited player's page keeps its invite.
        kept = invite_token if invite_token and _is_invite_of(arena, invite_token) else ""
        return _page(
            request, arena, error=refusal.message, status=refusal.status, invite_token=kept
        )
    return redirect("arena:detail", pk=arena.pk)


def _is_invite_of(arena: Arena, token: str) -> bool:
    try:
        refuse_invite(arena, token)
    except Refused:
        return False
    return True


@login_required
@require_POST
def join(request: HttpRequest, pk: int) -> HttpResponse:
    password = request.POST.get("password", "")
    token = request.POST.get("invite", "")
    return _act(
        request,
        pk,
        lambda user, arena: services.join(user, arena, password, token),
        invite_token=token,
    )


@login_required
@require_http_methods(["GET", "POST"])
def report_line(request: HttpRequest, pk: int, message_id: int) -> HttpResponse:
    """A report of a line of the arena's chat: its form (GET), then back to the arena
    thanking, or the arena's page with the refusal."""
    arena = get_object_or_404(Arena.objects.select_related("variant"), pk=pk)
    if request.method == "GET":
        try:
            line = reportable_line(request.user, arena, message_id)
        except Refused as refusal:
            return _page(request, arena, error=refusal.message, status=refusal.status)
        context = {"arena": arena, "line": line, "form": ArenaChatReportForm()}
        return render(request, "arena/report_line.html", context)
    form = ArenaChatReportForm(request.POST)
    if not form.is_valid():
        return _page(request, arena, error=_("Choose what happened."), status=400)
    data = form.cleaned_data
    try:
        report_arena_line(request.user, arena, message_id, data["category"], data["reason"])
    except Refused as refusal:
        return _page(request, arena, error=refusal.message, status=refusal.status)
    messages.success(request, _("Thank you. A moderator will look at your report."))
    return redirect("arena:detail", pk=arena.pk)


@login_required
@require_POST
def pause(request: HttpRequest, pk: int) -> HttpResponse:
    return _act(request, pk, lambda user, arena: services.set_paused(user, arena, True))


@login_required
@require_POST
def resume(request: HttpRequest, pk: int) -> HttpResponse:
    return _act(request, pk, lambda user, arena: services.set_paused(user, arena, False))


@login_required
@require_POST
def withdraw(request: HttpRequest, pk: int) -> HttpResponse:
    return _act(request, pk, services.withdraw)


@login_required
@require_POST
def berserk(request: HttpRequest, match_id: int) -> HttpResponse:
    """The table's Berserk button: back to the table, which shows the halved clock, or
    the refusal's message."""
    try:
        go_berserk(request.user, match_id)
    except Refused as refusal:
        messages.error(request, refusal.message)
        if refusal.code == "not_found":  # no arena table there: none to go back to
            return go(request, reverse("arena:list"))
    return go(request, table_url(match_id))
