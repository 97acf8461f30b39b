"""Berserk: before the first move of an arena game a player may halve their own turn
time; not the fool, they score a point more (``arena.scoring``).

``go_berserk`` is the one place that applies it: under the table's row lock, as every
change to a table, it records the seat, gives the seat its own halved turn time
(``Seat.turn_seconds``, which the table's clock reads), moves the table's deadline
and bumps the table's version so every page of the table shows it.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.models import Match
from games.services import Refused, clock, load_game, load_seats, notify_match_changed
from games.services.common import lock_match, seat_of, table_transaction

from .models import ArenaGame
from .scoring import berserk_seconds
from .services import notify_arena_changed


def berserk_offered(match: Match, seat: int | None) -> bool:
    """Whether the player at ``seat`` may go berserk now: an arena game before its
    first move, and not berserk yet (what the table's Berserk button shows on)."""
    if seat is None or match.status != Match.Status.PLAYING or match.move_count:
        return False
    stored = (
        ArenaGame.objects.filter(match_id=match.pk, scored__isnull=True)
        .values_list("berserk_seats", flat=True)
        .first()
    )
    return stored is not None and seat not in stored


def go_berserk(user: Any, match_id: int) -> ArenaGame:
    """Halve ``user``'s own turn time at their arena table ``match_id``.

    Refused, with nothing written, at a table that is not an arena game, for someone
    not seated there, in a game over, after the first move, and a second time.
    """
    with table_transaction():
        match = lock_match(match_id)
        game = (
            ArenaGame.objects.select_for_update().filter(match_id=match_id).first()
            if match is not None
            else None
        )
        if game is None:
            raise Refused(_("This is not an arena game."), status=404, code="not_found")
        seats = load_seats(match.pk)
        seat = seat_of(seats, user)
        if seat is None:
            raise Refused(_("You are not playing at this table."), status=403, code="not_seated")
        if match.status != Match.Status.PLAYING or game.scored is not None:
            raise Refused(_("This game is over."), code="finished")
        if seat.number in game.berserk_seats:
            raise Refused(_("You have already gone berserk in this game."), code="repeated")
        if match.move_count:
            raise Refused(_("Berserk is only possible before the first move."), code="too_late")
        game.berserk_seats = sorted([*game.berserk_seats, seat.number])
        game.save(update_fields=["berserk_seats"])
        seat.turn_seconds = berserk_seconds(match.turn_seconds)
        seat.save(update_fields=["turn_seconds"])
        match.version += 1
        match.turn_deadline = clock.deadline(match, seats, load_game(match))
        match.save(update_fields=["version", "turn_deadline"])
        notify_match_changed(match.pk, match.version)
        notify_arena_changed(game.arena_id, users=())  # the games list only: nobody's own part
    return game
