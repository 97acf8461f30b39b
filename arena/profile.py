"""What the arena shows on a player's profile (``accounts.profile_sections``): the
arenas they played, with their final place and points, and a trophy for each podium
place of a finished arena."""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.http import HttpRequest
from django.template.loader import render_to_string

from accounts.profile_sections import profile_section

from .standing_places import MEDALS, arenas_of, medal_of

ARENAS_LISTED = 20


@profile_section(45)
def arena_record(request: HttpRequest, profile_user: Any) -> str:
    """The player's latest arenas and their trophies over all arenas; nothing for a
    player who never joined one."""
    entries = list(arenas_of(profile_user))
    if not entries:
        return ""
    for entry in entries:
        entry.medal = medal_of(entry)
    won = Counter(entry.place for entry in entries if entry.medal)
    context = {
        "entries": entries[:ARENAS_LISTED],
        "more": len(entries) - ARENAS_LISTED,
        "trophies": [(MEDALS[place], won[place]) for place in sorted(won)],
    }
    return render_to_string("arena/profile_arenas.html", context, request=request)
