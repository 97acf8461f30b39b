"""What a block keeps a player from, for the games app (which reads only models here)."""

from __future__ import annotations

from typing import Any

from friends.models import Block
from games.models import Seat


def watching_refused(match: Any, user: Any) -> bool:
    """Whether a player seated at ``match`` has blocked ``user`` (who may then not watch)."""
    return Block.objects.filter(blocker__seats__match=match, blocked=user).exists()


def blocks_among(user_ids: Any) -> set[frozenset[int]]:
    """The pairs of these users where one blocked the other."""
    ids = list(user_ids)
    rows = Block.objects.filter(blocker_id__in=ids, blocked_id__in=ids)
    return {frozenset(pair) for pair in rows.values_list("blocker_id", "blocked_id")}


def tables_hidden_from(user: Any) -> Any:
    """The matches at which a seated player has blocked ``user``, as a subquery of ids:
    lists of tables leave them out, since the table itself refuses ``user``."""
    return Seat.objects.filter(user__blocks__blocked=user).values("match")
