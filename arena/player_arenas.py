"""Arenas created by players (docs/tournaments.md): a form on the arenas page makes a
public or private (password) arena, limited per user and per address as tables are
(``accounts.ratelimit``), and to a few not yet finished arenas of one player at once.
A public one is news for the creator's friends, on their open pages and as a push.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy, ngettext

from accounts.ratelimit import count_request
from accounts.socket_news import tell_open_sockets
from friends.services import friend_ids
from games.models import RuleVariant
from games.services import Refused, refuse_bot_account
from games.services.common import refuse_suspended
from matchmaking.guests import refuse_guest_rated

from .models import Arena
from .services import notify_arena_changed
from .signals import public_arena_created

# Arenas a player may create in the window, per user and per address.
CREATE_LIMIT_USER = getattr(settings, "ARENA_CREATE_LIMIT_USER", 3)
CREATE_LIMIT_ADDRESS = getattr(settings, "ARENA_CREATE_LIMIT_ADDRESS", 10)
CREATE_LIMIT_WINDOW = getattr(settings, "ARENA_CREATE_LIMIT_WINDOW", 60 * 60)
# Arenas of one player that have not finished yet, at once.
OPEN_PER_PLAYER = getattr(settings, "ARENA_OPEN_PER_PLAYER", 2)

TURN_SECONDS = (10, 15, 20, 30)
MINUTES = (15, 30, 45, 60)
STARTS_IN = (5, 10, 15, 30, 60)


class PlayerArenaForm(forms.Form):
    """What a player sets of their arena; the rest is the site's defaults."""

    name = forms.CharField(label=gettext_lazy("Name"), max_length=80, strip=True)
    variant = forms.ModelChoiceField(
        label=gettext_lazy("Variant"),
        queryset=RuleVariant.objects.filter(is_active=True),
        empty_label=None,
    )
    players_per_table = forms.TypedChoiceField(
        label=gettext_lazy("Players at a table"),
        choices=[(n, str(n)) for n in range(2, 7)],
        coerce=int,
        initial=2,
    )
    turn_seconds = forms.TypedChoiceField(
        label=gettext_lazy("Seconds a turn"),
        choices=[(n, str(n)) for n in TURN_SECONDS],
        coerce=int,
        initial=20,
    )
    minutes = forms.TypedChoiceField(
        label=gettext_lazy("Minutes"),
        choices=[(n, str(n)) for n in MINUTES],
        coerce=int,
        initial=30,
    )
    starts_in = forms.TypedChoiceField(
        label=gettext_lazy("Starts in (minutes)"),
        choices=[(n, str(n)) for n in STARTS_IN],
        coerce=int,
        initial=10,
    )
    is_rated = forms.BooleanField(label=gettext_lazy("Rated"), required=False)
    password = forms.CharField(
        label=gettext_lazy("Password (empty: a public arena)"),
        max_length=64,
        required=False,
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        variant, size = data.get("variant"), data.get("players_per_table")
        fits = variant is None or size is None or variant.min_players <= size <= variant.max_players
        if not fits:
            raise ValidationError(variant.players_rule())
        return data


def refuse_arena_flood(user: Any, address: str) -> None:
    """Count an arena ``user`` creates from ``address``; Refused when the user or the
    address creates too many within the window.  Call it before anything is changed."""
    over = count_request(
        "arenas",
        user.pk,
        address,
        per_user=CREATE_LIMIT_USER,
        per_address=CREATE_LIMIT_ADDRESS,
        window=CREATE_LIMIT_WINDOW,
    )
    if over is None:
        return
    minutes = max(1, CREATE_LIMIT_WINDOW // 60)
    if over == "user":
        message = ngettext(
            "You are creating arenas too often; try again in %(minutes)d minute.",
            "You are creating arenas too often; try again in %(minutes)d minutes.",
            minutes,
        )
    else:
        message = ngettext(
            "Too many arenas were created from your network; try again in %(minutes)d minute.",
            "Too many arenas were created from your network; try again in %(minutes)d minutes.",
            minutes,
        )
    raise Refused(message % {"minutes": minutes}, 429, code="rate_limited")


def create_player_arena(user: Any, address: str, data: dict[str, Any]) -> Arena:
    """Make the arena a player asked for (``data``: a valid ``PlayerArenaForm``'s).

    Refused, with nothing made, for a suspended user, a bot account, a guest asking
    for a rated arena, a player with ``OPEN_PER_PLAYER`` arenas not yet finished, and
    past the rate per user or per address.
    """
    user = refuse_suspended(user)
    refuse_bot_account(user)
    refuse_guest_rated(user, data["is_rated"])
    with transaction.atomic():
        # The user's row lock: two forms sent at once count each other's arena.
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        mine_open = Arena.objects.filter(created_by=user).exclude(status=Arena.Status.FINISHED)
        if mine_open.count() >= OPEN_PER_PLAYER:
            raise Refused(
                ngettext(
                    "You already have %(count)d arena that has not finished; "
                    "wait for it to end before you create another.",
                    "You already have %(count)d arenas that have not finished; "
                    "wait for one to end before you create another.",
                    OPEN_PER_PLAYER,
                )
                % {"count": OPEN_PER_PLAYER},
                code="open_arenas",
            )
        refuse_arena_flood(user, address)
        arena = Arena.objects.create(
            name=data["name"],
            variant=data["variant"],
            players_per_table=data["players_per_table"],
            turn_seconds=data["turn_seconds"],
            minutes=data["minutes"],
            starts_at=timezone.now() + timedelta(minutes=data["starts_in"]),
            is_rated=data["is_rated"],
            password=data["password"],
            created_by=user,
        )
        notify_arena_changed(arena.pk)
        if not arena.is_private:  # a private arena is for whom its creator tells
            tell_friends_of(arena, user)
    return arena


def tell_friends_of(arena: Arena, creator: Any) -> None:
    """After the commit, the creator's friends hear of their public arena: a notice on
    each page they have open (in its own language) and, through the notifications
    app, a push to each browser that takes them."""
    news = {
        "type": "friend.arena",
        "arena_id": arena.pk,
        "creator": creator.username,
        "name": arena.name,
        "url": reverse("arena:detail", args=[arena.pk]),
    }
    for friend_id in sorted(friend_ids(creator.pk)):
        tell_open_sockets(friend_id, news)
    transaction.on_commit(
        lambda: public_arena_created.send(sender=Arena, arena_id=arena.pk, creator_id=creator.pk)
    )
