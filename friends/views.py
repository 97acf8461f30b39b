"""Friends, blocks and invites: thin views over ``friends.services``."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from friends import services
from friends.models import Invite
from games.http import go
from games.links import table_url
from games.services import Refused, refuse_bot_account


def render_invite_notice(user, *, oob: bool = False) -> str:
    return render_to_string(
        "friends/invite_notice.html", {"invites": services.pending_invites(user), "oob": oob}
    )


def render_invite_declined(invite_id: int) -> str:
    """The inviter's notice that ``invite_id`` was declined, added to the page's
    answers area (an invite no longer there renders nothing)."""
    found = Invite.objects.filter(pk=invite_id).select_related("to_user").first()
    if found is None:
        return ""
    return render_to_string("friends/invite_declined.html", {"invite": found})


def render_friend_arena(news: dict) -> str:
    """A friend's news that they created a public arena ("friend.arena", sent to each
    open page of each of their friends by ``arena.player_arenas``), added to the
    page's answers area.  The news carries the words and the link: nothing is read."""
    return render_to_string("friends/friend_arena.html", {"news": news})


def _back(request: HttpRequest, fallback: str) -> HttpResponse:
    target = request.POST.get("next") or fallback
    if not url_has_allowed_host_and_scheme(target, {request.get_host()}):
        target = fallback
    return go(request, target)


def _call(request: HttpRequest, function, *args, fallback: str, **kwargs) -> HttpResponse:
    try:
        function(*args, **kwargs)
    except Refused as refused:
        messages.error(request, refused.message)
    return _back(request, fallback)


def _named(username: str):
    return get_object_or_404(get_user_model(), username__iexact=username)


def _profile(username: str) -> str:
    return reverse("accounts:profile", args=[username])


@login_required
@require_POST
def add(request: HttpRequest, username: str) -> HttpResponse:
    other = _named(username)
    return _call(
        request, services.request_friend, request.user, other, fallback=_profile(other.username)
    )


@login_required
@require_POST
def accept(request: HttpRequest, request_id: int) -> HttpResponse:
    return _call(request, services.accept_friend, request.user, request_id, fallback="/")


@login_required
@require_POST
def remove(request: HttpRequest, username: str) -> HttpResponse:
    other = _named(username)
    return _call(request, services.unfriend, request.user, other, fallback=_profile(other.username))


@login_required
@require_POST
def block(request: HttpRequest, username: str) -> HttpResponse:
    other = _named(username)
    return _call(request, services.block, request.user, other, fallback=_profile(other.username))


@login_required
@require_POST
def unblock(request: HttpRequest, username: str) -> HttpResponse:
    other = _named(username)
    return _call(request, services.unblock, request.user, other, fallback=_profile(other.username))


@login_required
@require_POST
def invite(request: HttpRequest, match_id: int, username: str) -> HttpResponse:
    other = _named(username)
    table = table_url(match_id)
    try:
        services.invite(request.user, other, match_id)
    except Refused as refused:
        messages.error(request, refused.message)
    else:
        messages.success(request, _invited(other.username))
    return redirect(table)


def _invited(name: str) -> str:
    return _("%(name)s is invited.") % {"name": name}


@login_required
@require_POST
def answer(request: HttpRequest, invite_id: int) -> HttpResponse:
    joining = request.POST.get("answer") == "join"
    try:
        if joining:
            refuse_bot_account(request.user)  # a bot account sits down through the API only
        found = services.answer_invite(request.user, invite_id, accept=joining)
    except Refused as refused:
        messages.error(request, refused.message)
        return _back(request, "/")
    if joining:
        return go(request, table_url(found.match_id))
    return _back(request, "/")
