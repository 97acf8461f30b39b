"""What an arena page shows live, for one viewer: the clock, their controls and the
board (standings, podium, games being played).

The page renders all of it on load and fetches it all again when the viewer's own part
changed (a game of theirs ended, they were paired, paused, joined).  When only others'
results changed, the arena's socket pushes the board alone: the shared standings come
rendered once per version and language (``arena.shared_standings``), and only the
viewer's own row is rendered per page, from the entry the socket keeps, with no query.
"""

from __future__ import annotations

from typing import Any

from django.template.loader import render_to_string
from django.utils import timezone

from . import services
from .entry import conditions_of
from .models import Arena, ArenaPlayer
from .shared_standings import shared_standings


def board_context(shared: dict[str, Any], mine: ArenaPlayer | None) -> dict[str, Any]:
    """The board's context: the shared part with the viewer's own entry and place."""
    apart = False
    if mine is not None:
        # An entry newer than the kept standings has no place until the next version.
        mine.rank = shared["places"].get(mine.pk)
        apart = all(entry_id != mine.pk for entry_id, _html in shared["top"])
    return {"shared": shared, "mine": mine, "show_mine_apart": apart}


def live_context(arena: Arena, user: Any) -> dict[str, Any]:
    """The whole live part's context for ``user`` (anyone, signed in or not)."""
    mine = services.entry_of(arena, user)
    return {
        "arena": arena,
        **board_context(shared_standings(arena.pk), mine),
        "now": timezone.now(),
        "my_table": services.open_table_of(arena, user) if mine is not None else None,
        "conditions": conditions_of(arena),
    }


def board_push(arena_id: int, version: int | None, user: Any, mine: ArenaPlayer | None) -> str:
    """The board for a page whose own part is unchanged, to swap in by its id: the
    shared standings of ``version`` (a query only when no page rendered it yet) and
    the viewer's own row from ``mine``."""
    context = board_context(shared_standings(arena_id, version), mine)
    return render_to_string("arena/_standings_board.html", {**context, "user": user, "oob": True})
