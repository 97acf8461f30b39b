"""A private arena's invite link: who opens it, signed in, joins without typing the
password (``arena.entry.refuse_entry`` checks the token in constant time, as the
password).  Only the arena's creator and the site's admins see the link; a new one
makes the old one refused."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from .models import Arena, new_invite_token


def may_see_invite(user: Any, arena: Arena) -> bool:
    """Whether ``user`` is shown the arena's invite link: its creator, or an admin."""
    signed_in = getattr(user, "is_authenticated", False)
    if not (signed_in and arena.is_private and arena.invite_token):
        return False
    return user.is_staff or (arena.created_by_id is not None and arena.created_by_id == user.pk)


def invite_path(arena: Arena) -> str:
    """The site path of the arena's invite link (a private arena only)."""
    return reverse("arena:invite", args=[arena.pk, arena.invite_token])


def renew_invite_links(arena_ids: list[int]) -> int:
    """Give the private arenas among ``arena_ids`` a new invite link each, so the old
    links are refused; how many were renewed."""
    renewed = 0
    for arena in Arena.objects.filter(pk__in=list(arena_ids)).exclude(password=""):
        arena.invite_token = new_invite_token()
        arena.save(update_fields=["invite_token"])
        renewed += 1
    return renewed
