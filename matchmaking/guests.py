"""A guest's games: what «Играть» looks for, the rated refusal, and the idle clean-up.

A guest is an account of the accounts app (``accounts.guests``), made here when a
visitor taps «Играть»; its tables, seats and searches are known here and below.
"""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Exists, F, Max, OuterRef, Q, QuerySet
from django.db.models.functions import Coalesce, Greatest
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounts.guests import too_many_accounts
from accounts.ratelimit import count_one
from games.models import Match, Seat
from games.services import Refused
from matchmaking.conf import setting
from matchmaking.models import Game, Seek, Speed

# The first names tried are four digits; past this many taken in a row, longer ones.
NAME_TRIES = 20

# A guest's «Играть»: the commonest game, unrated, a bot if nobody comes.
GUEST_WISHES: dict[str, Any] = {
    "mode": Game.PODKIDNOY,
    "players": 2,
    "deck_size": 36,
    "speed": Speed.NORMAL,
    "is_rated": False,
    "allow_bots": True,
}


def refuse_guest_rated(user: Any, is_rated: bool) -> None:
    """A guest plays unrated games only: never in a rated pool or at a rated table."""
    if is_rated and getattr(user, "is_guest", False):
        raise Refused(
            _("Guests play unrated games only: sign up to play rated games."), code="guest"
        )


def idle_guests(now: Any = None) -> QuerySet:
    """Active guests with nothing done for ``MATCHMAKING_GUEST_IDLE_DAYS``: no sign-in,
    seat, presence at a table, finished game or search since, no table open and no
    search waiting."""
    since = (now or timezone.now()) - timedelta(days=setting("MATCHMAKING_GUEST_IDLE_DAYS"))
    joined = F("date_joined")
    open_seat = Seat.objects.filter(
        user=OuterRef("pk"), match__status__in=(Match.Status.WAITING, Match.Status.PLAYING)
    )
    waiting = Seek.objects.filter(user=OuterRef("pk"), status=Seek.Status.WAITING)
    return (
        get_user_model()
        .objects.filter(is_guest=True, is_active=True)
        .exclude(Exists(open_seat))
        .exclude(Exists(waiting))
        # Each time falls back on the day it joined: a guest may have none of them.
        .annotate(
            last_active=Greatest(
                joined,
                Coalesce("last_login", joined),
                Coalesce(Max("seats__joined_at"), joined),
                Coalesce(Max("seats__last_seen"), joined),
                Coalesce(Max("seats__match__finished_at"), joined),
                Coalesce(Max("seeks__created_at"), joined),
            )
        )
        .filter(last_active__lt=since)
    )


def remove_idle_guests(now: Any = None) -> tuple[int, int]:
    """Remove the idle guests; (removed, kept deactivated).

    A guest's tables where no other person sat are nobody else's history: they go
    with the guest.  A guest who shared a table with another person keeps its row
    (a seat and a table hold their users), so the other's game stays whole; the row
    is deactivated instead, which ends its session, and its generated name ("Guest
    4821") tells nothing of anyone.
    """
    removed = kept = 0
    for guest in idle_guests(now):
        other_person = Seat.objects.filter(match=OuterRef("pk"), user__isnull=False).exclude(
            user=guest
        )
        with transaction.atomic():
            own = Match.objects.filter(Q(seats__user=guest) | Q(creator=guest)).distinct()
            shared = own.filter(Exists(other_person))
            Match.objects.filter(pk__in=own.exclude(Exists(other_person)).values("pk")).delete()
            if shared.exists():
                guest.is_active = False
                guest.save(update_fields=["is_active"])
                kept += 1
            else:
                guest.delete()
                removed += 1
    return removed, kept


def schedule_idle_sweep() -> None:
    """Queue the clean-up at most once per ``MATCHMAKING_GUEST_SWEEP_SECONDS``: guests
    pile up only as new ones come, so a new guest is what starts it."""
    from matchmaking.tasks import sweep_idle_guests

    seconds = setting("MATCHMAKING_GUEST_SWEEP_SECONDS")
    if seconds and count_one("guest-sweep", seconds) == 1:
        transaction.on_commit(sweep_idle_guests.enqueue)


def _guest_name(digits: int) -> str:
    number = random.randint(10 ** (digits - 1), 10**digits - 1)
    # The space keeps it apart from every chosen name: sign-up allows no spaces.
    return _("Guest %(number)d") % {"number": number}


def create_guest(ip: str, language: str) -> Any:
    """A new guest account, in ``language``; Refused (nothing made) past the
    per-address limit of new accounts, or when no guest name is free."""
    refusal = too_many_accounts(ip)
    if refusal:
        raise Refused(refusal, 429, code="too_many_accounts")
    User = get_user_model()
    with translation.override(language):
        for attempt in range(NAME_TRIES * 4):
            name = _guest_name(4 + attempt // NAME_TRIES)
            if User.objects.filter(username__iexact=name).exists():
                continue
            guest = User(username=name, is_guest=True, language=language)
            guest.set_unusable_password()
            try:
                with transaction.atomic():
                    guest.save()
            except IntegrityError:  # another request took the name meanwhile
                continue
            return guest
    raise Refused(
        _("No guest name is free right now; please sign up instead."), 503, code="no_guest_name"
    )
