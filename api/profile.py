"""The player's API tokens on their own profile (``accounts.profile_sections``): make one
(its secret shown once), see when each was last used, revoke it; and the button that
makes a new account a bot account (``matchmaking.bot_accounts``)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.profile_sections import profile_section
from api.models import Scope
from api.tokens import create_token, live_tokens, revoke_token
from games.services import Refused
from matchmaking.bot_accounts import may_turn_into_bot, turn_into_bot

# The session key of a secret just made: popped by the next render of the section.
NEW_SECRET = "api-new-token"


@profile_section(60, below_card=True)
def api_tokens(request: HttpRequest, profile_user: Any) -> str:
    """Only on the player's own profile; guests have no tokens."""
    user = request.user
    if not user.is_authenticated or user != profile_user or user.is_guest:
        return ""
    context = {
        "tokens": list(live_tokens(user)),
        "scopes": Scope.choices,
        "new_secret": request.session.pop(NEW_SECRET, None),
        "may_become_bot": not user.is_bot and may_turn_into_bot(user),
    }
    return render_to_string("api/profile_tokens.html", context, request=request)


def _back(request: HttpRequest) -> HttpResponse:
    return redirect("accounts:profile", request.user.username)


@login_required
@require_POST
def new_token(request: HttpRequest) -> HttpResponse:
    if request.user.is_guest:
        return _back(request)
    try:
        _token, secret = create_token(
            request.user, request.POST.get("name", ""), request.POST.getlist("scopes")
        )
    except Refused as refused:
        messages.error(request, refused.message)
        return _back(request)
    request.session[NEW_SECRET] = secret
    return _back(request)


@login_required
@require_POST
def revoke(request: HttpRequest, token_id: int) -> HttpResponse:
    if revoke_token(request.user, token_id):
        messages.success(request, _("The token is revoked; programs using it are refused."))
    return _back(request)


@login_required
@require_POST
def become_bot(request: HttpRequest) -> HttpResponse:
    """The profile's "Make this a bot account", its box ticked to confirm."""
    if request.POST.get("confirm") != "yes":
        messages.error(request, _("Tick the box to confirm: a bot account cannot be undone."))
        return _back(request)
    try:
        turn_into_bot(request.user)
    except Refused as refused:
        messages.error(request, refused.message)
        return _back(request)
    messages.success(request, _("This is a bot account now: it plays through the API only."))
    return _back(request)
