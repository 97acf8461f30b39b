"""Guests: a visitor plays at once, without signing up.

A guest is an ordinary ``User`` with ``is_guest`` set, a generated name ("Guest 4821",
«Гость 4821») and no usable password, signed in with Django's ``login``: the session
cookie keeps the account in that browser.  A guest plays unrated games only
(matchmaking refuses them a rated pool or table) and is on no leaderboard.  Signing up
from a guest's session turns that same account into a player's (``SignUpView``), so
its games stay.  Idle guests are removed by
``matchmaking.guests.remove_idle_guests``, which knows their tables.

Guests are accounts made without a form, so they count against the same per-address
limit as sign-ups.
"""

from __future__ import annotations

import random
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.ratelimit import count_one

# The first names tried are four digits; past this many taken in a row, longer ones.
NAME_TRIES = 20


class GuestRefused(Exception):
    """No guest was made; ``message`` says why, in the request's language."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def too_many_accounts(ip: str) -> str | None:
    """Count one new account from ``ip``; the refusal to show when the address made
    more than ``SIGNUP_RATE_LIMIT_ACCOUNTS`` within the window, else None.  Sign-ups
    and guests share the count: either is an account free to make."""
    window = settings.SIGNUP_RATE_LIMIT_WINDOW
    if count_one(f"signup:ip:{ip}", window) <= settings.SIGNUP_RATE_LIMIT_ACCOUNTS:
        return None
    minutes = max(1, window // 60)
    return ngettext(
        "Too many accounts were made from your network; try again in %(minutes)d minute.",
        "Too many accounts were made from your network; try again in %(minutes)d minutes.",
        minutes,
    ) % {"minutes": minutes}


def _guest_name(digits: int) -> str:
    number = random.randint(10 ** (digits - 1), 10**digits - 1)
    # The space keeps it apart from every chosen name: sign-up allows no spaces.
    return _("Guest %(number)d") % {"number": number}


def create_guest(ip: str, language: str) -> Any:
    """A new guest account, in ``language``; GuestRefused (nothing made) past the
    per-address limit of new accounts."""
    refusal = too_many_accounts(ip)
    if refusal:
        raise GuestRefused(refusal)
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
    raise GuestRefused(_("No guest name is free right now; please sign up instead."))
