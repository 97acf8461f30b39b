"""Guests: a visitor plays at once, without signing up.

A guest is an ordinary ``User`` with ``is_guest`` set, a generated name ("Guest 4821",
«Гость 4821») and no usable password, signed in with Django's ``login``: the session
cookie keeps the account in that browser.  A guest plays unrated games only
(matchmaking refuses them a rated pool or table) and is on no leaderboard.  Signing up
from a guest's session turns that same account into a player's (``SignUpView``), so
its games stay.  Idle guests are removed by
``matchmaking.guests.remove_idle_guests``, which knows their tables.

Guests are accounts made without a form (``matchmaking.guests.create_guest``, where
«Играть» makes them), so they count against the same per-address limit as sign-ups.
"""

from __future__ import annotations

from django.conf import settings
from django.utils.translation import ngettext

from accounts.ratelimit import count_one


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
