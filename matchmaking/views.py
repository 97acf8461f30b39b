"""The "Play now" panel (make a seek, cancel it, the panel as it stands, or play bots
at once), "New opponent" after a game a seek made, and "Play" against a friend."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.views.decorators.http import require_http_methods, require_POST

from accounts.ratelimit import client_ip
from games.bot_strength import bot_choices
from games.http import go
from games.links import lobby_url, table_url
from games.services import Refused, refuse_table_flood
from matchmaking import challenges, services
from matchmaking.conf import setting
from matchmaking.forms import SeekForm
from matchmaking.guests import GUEST_WISHES, create_guest, schedule_idle_sweep
from matchmaking.models import Seek


def panel_context(user, form: SeekForm | None = None, error: str = "") -> dict:
    """What the panel shows ``user``: their table if a seek was just seated, their
    waiting seek, or the form filled with their last choice."""
    table = services.ready_table(user)
    seek = services.waiting_seek(user) if table is None else None
    bot_at, bot_seconds, alone = None, setting("MATCHMAKING_BOT_SECONDS"), False
    if seek is not None and seek.allow_bots:
        due = services.bots_due_at(seek)
        bot_at = int(due.timestamp() * 1000)
        bot_seconds = max(0, round((due - seek.created_at).total_seconds()))
        # Nobody else was looking for this game: the bot comes at once, and it says so.
        alone = bot_seconds < setting("MATCHMAKING_BOT_SECONDS")
    return {
        "ready_table": table,
        "seek": seek,
        "bot_seconds": bot_seconds,
        "bot_at": bot_at,
        "alone": alone,
        "bot_makes_unrated": seek is not None and services.bot_makes_unrated(seek),
        "seek_form": form or SeekForm(last=services.last_choice(user), guest=user.is_guest),
        "seek_error": error,
        "bot_choices": bot_choices(),
        "practice_level": setting("MATCHMAKING_BOT_LEVEL"),
    }


def render_panel(user, *, oob: bool = False, **extra) -> str:
    """The panel alone: an htmx answer, or (``oob``) a lobby socket's push."""
    context = {**panel_context(user, **extra), "oob": oob}
    return render_to_string("matchmaking/play_panel.html", context)


def _panel_response(request: HttpRequest, **extra) -> HttpResponse:
    if request.htmx:
        return HttpResponse(render_panel(request.user, **extra))
    if extra.get("error"):
        messages.error(request, extra["error"])
    return redirect(lobby_url())


@login_required
@require_POST
def play(request: HttpRequest) -> HttpResponse:
    form = SeekForm(request.POST, guest=request.user.is_guest)
    if not form.is_valid():
        return _panel_response(request, form=form, error=str(_first_error(form)))
    try:
        if "practice" in request.POST:
            # The same game at once, bots in every other seat: no search.
            refuse_table_flood(request.user, client_ip(request))
            level = request.POST.get("practice_level", "")
            match = services.practice_table(request.user, form.cleaned_data, level)
            return go(request, table_url(match.pk))
        seek = services.create_seek(request.user, **form.cleaned_data)
    except Refused as refused:
        return _panel_response(request, form=form, error=refused.message)
    if seek.match_id is not None:
        return go(request, table_url(seek.match_id))
    return _panel_response(request)


@require_POST
def play_as_guest(request: HttpRequest) -> HttpResponse:
    """«Играть» without an account: a guest account is made and signed in (this
    browser's session keeps it), and it looks for an unrated game at once.  A visitor
    already signed in just looks for one."""
    if not request.user.is_authenticated:
        try:
            guest = create_guest(client_ip(request), request.LANGUAGE_CODE)
        except Refused as refused:
            messages.error(request, refused.message)
            return redirect(lobby_url())
        login(request, guest, backend="django.contrib.auth.backends.ModelBackend")
        schedule_idle_sweep()
    wishes = dict(GUEST_WISHES)
    if not request.user.is_guest:
        wishes.update(services.last_choice(request.user))
    try:
        seek = services.create_seek(request.user, **wishes)
    except Refused as refused:
        messages.error(request, refused.message)
        return redirect(lobby_url())
    if seek.match_id is not None:
        return redirect(table_url(seek.match_id))
    return redirect(lobby_url())


@login_required
@require_POST
def cancel(request: HttpRequest) -> HttpResponse:
    try:
        services.cancel_seek(request.user)
    except Refused as refused:
        return _panel_response(request, error=refused.message)
    return _panel_response(request)


@login_required
@require_POST
def bots_now(request: HttpRequest) -> HttpResponse:
    """Stop waiting for people: bots take the free seats of the player's table now."""
    try:
        services.bots_now(request.user)
    except Refused as refused:
        return _panel_response(request, error=refused.message)
    table = services.ready_table(request.user)
    if table is not None:
        return go(request, table_url(table.pk))
    return _panel_response(request)


@login_required
@require_http_methods(["GET", "POST"])
def new_opponent(request: HttpRequest, match_id: int) -> HttpResponse:
    """After a game that "Play now" made: the same wishes again, for another table.

    GET: the button, for the result panel (204 when the player's seek did not make
    this table). POST: look again with the wishes of that seek.
    """
    seek = Seek.objects.filter(user=request.user, match_id=match_id).order_by("-pk").first()
    if seek is None:
        return HttpResponse(status=204)
    if request.method == "GET":
        return render(request, "matchmaking/new_opponent.html", {"match_id": match_id})
    try:
        again = services.create_seek(request.user, **seek.wishes())
    except Refused as refused:
        messages.error(request, refused.message)
        again = None
    if again is not None and again.match_id is not None:
        url = table_url(again.match_id)
    else:  # the lobby shows the search, and sends the player on once seated
        url = lobby_url()
    return go(request, url)


@login_required
@require_POST
def challenge(request: HttpRequest, username: str) -> HttpResponse:
    """Play a friend: a private table for two, and an invite to it."""
    friend = get_object_or_404(get_user_model(), username=username)
    try:
        match = challenges.challenge(request.user, friend)
        url = table_url(match.pk)
    except Refused as refused:
        messages.error(request, refused.message)
        url = lobby_url()
    return go(request, url)


def _first_error(form: SeekForm) -> str:
    for errors in form.errors.values():
        return errors[0]
    return ""
