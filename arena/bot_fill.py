"""Bots fill a wait: on a site with few players, an arena may let a bot take the seat
of an opponent nobody free could take (docs/tournaments.md).

The pairing (``services.pair_waiting``) seats people with people first.  Whoever it
leaves over is waiting; once a player has waited the arena's ``bot_wait_seconds``,
bots of the arena's ``bot_level`` fill the free seats of their table.  Such a game
is never rated, scores for the person as any arena game does and is marked in the
standings and the game list; the bot has no entry, so it never stands anywhere.

These functions decide only; the services write, under the arena's row lock.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from .models import Arena, ArenaPlayer


def due_for_a_bot(arena: Arena, entry: ArenaPlayer, now: Any) -> bool:
    """Whether ``entry``, left over by the pairing, has waited long enough for a bot."""
    return entry.waiting_since is not None and now - entry.waiting_since >= timedelta(
        seconds=arena.bot_wait_seconds
    )


def groups_with_bots(
    arena: Arena, left_over: list[ArenaPlayer], blocked: set[frozenset[int]], now: Any
) -> list[list[ArenaPlayer]]:
    """The people to seat with bots now: those of ``left_over`` (in standing order)
    whose wait ran out, as few tables as blocks allow, each with a seat left for a
    bot (a table of two: each alone with a bot)."""
    if not arena.bots_allowed:
        return []
    room = arena.players_per_table - 1
    groups: list[list[ArenaPlayer]] = []
    for entry in left_over:
        if not due_for_a_bot(arena, entry, now):
            continue
        fits = next(
            (
                group
                for group in groups
                if len(group) < room
                and not any(frozenset((entry.user_id, m.user_id)) in blocked for m in group)
            ),
            None,
        )
        if fits is None:
            groups.append([entry])
        else:
            fits.append(entry)
    return groups


def bot_count(arena: Arena, group: list[ArenaPlayer]) -> int:
    """How many bots take the seats ``group`` leaves free at an arena table."""
    return arena.players_per_table - len(group)
