"""The part of an arena's standings that is the same for every viewer of one
language: the top rows, the podium and the games being played.  It is rendered once
per arena, standings version and language and kept in the site's cache; every page's
fetch and every push of the board reuses it, so a thousand pages told of a game's end
cost one render of the table, not a thousand.  Only the viewer's own row (and, on a
fetch, their controls and the clock) is rendered per viewer (``arena.live_part``).

The standings version moves on as any change commits (``arena.standings_version``),
so a render of older standings is never served.
"""

from __future__ import annotations

import threading
from functools import lru_cache
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from . import services
from .models import Arena
from .standings_version import standings_version

TOP_ROWS = 20
# A kept render outlives its version by little: the next change makes a new key.
KEPT_SECONDS = 300


def shared_standings(arena_id: int, version: int | None = None) -> dict[str, Any]:
    """The shared part of the arena's standings in the active language: ``top`` (each
    top row's entry id with its row's HTML, best first), ``places`` (every entry's place
    by its id, for a viewer below the top), ``podium`` and ``games``
    (HTML).  Kept in the cache, it costs no query once a page has rendered it.

    ``version`` is the standings' version a push named (the current one if None)."""
    if version is None:
        version = standings_version(arena_id)
    shared = _kept(arena_id, version, get_language())
    return {
        "top": [(entry_id, mark_safe(html)) for entry_id, html in shared["top"]],
        "places": shared["places"],
        "podium": mark_safe(shared["podium"]),
        "games": mark_safe(shared["games"]),
    }


# The pages of one process are told of each version together, their renders on the
# database threads at once: the first reads (or renders) it from the site's cache while
# the others wait, then reuse it from this process's memory.
_reading = threading.Lock()


def _kept(arena_id: int, version: int, language: str) -> dict[str, Any]:
    with _reading:
        return _kept_here(arena_id, version, language)


@lru_cache(maxsize=64)
def _kept_here(arena_id: int, version: int, language: str) -> dict[str, Any]:
    key = f"arena:{arena_id}:standings:{version}:{language}"
    shared = cache.get(key)
    if shared is None:
        shared = _render_shared(Arena.objects.get(pk=arena_id))
        cache.set(key, shared, KEPT_SECONDS)
    return shared


def _render_shared(arena: Arena) -> dict[str, Any]:
    rows = list(services.standings(arena)[:TOP_ROWS])
    for rank, row in enumerate(rows, start=1):
        row.rank = rank
    # Rendered for nobody in particular: the viewer's own row is marked per viewer.
    nobody = AnonymousUser()
    top = [
        (row.pk, str(render_to_string("arena/_standing_row.html", {"row": row, "user": nobody})))
        for row in rows
    ]
    podium = rows[:3] if arena.status == Arena.Status.FINISHED else []
    playing = list(services.games_playing(arena)[:TOP_ROWS])
    for match in playing:  # seats prefetched: a bot that filled a wait is marked
        match.with_bot = any(seat.bot_level for seat in match.seats.all())
    return {
        "top": top,
        "places": {
            entry_id: place
            for place, entry_id in enumerate(
                services.standings(arena).values_list("pk", flat=True), start=1
            )
        },
        "podium": str(render_to_string("arena/_arena_podium.html", {"podium": podium})),
        "games": str(render_to_string("arena/_arena_games.html", {"playing": playing})),
    }
