"""Everything a refused request must leave as it was, read from the database.

Refusal tests take a fingerprint before the bad input and compare after it. Presence
(who is connected) is left out on purpose: opening or dropping a socket is not a
change a refusal could have caused.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from games.models import ChatMessage, Match, Move, Seat


@dataclass(frozen=True)
class TableFingerprint:
    version: int
    status: str
    state: dict[str, Any] | None
    turn_deadline: datetime | None
    moves: list[tuple[int, str]]
    chat: list[int]
    seats: list[tuple[int, int | None, str]]


def table_fingerprint(match_id: int) -> TableFingerprint:
    match = Match.objects.get(pk=match_id)
    return TableFingerprint(
        version=match.version,
        status=match.status,
        state=match.state,
        turn_deadline=match.turn_deadline,
        moves=list(
            Move.objects.filter(match_id=match_id).order_by("seq").values_list("seq", "action")
        ),
        chat=list(
            ChatMessage.objects.filter(match_id=match_id)
            .order_by("pk")
            .values_list("pk", flat=True)
        ),
        seats=list(
            Seat.objects.filter(match_id=match_id)
            .order_by("number")
            .values_list("number", "user_id", "bot_level")
        ),
    )
