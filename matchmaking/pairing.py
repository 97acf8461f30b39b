"""Which waiting seeks of one pool sit together: pure functions of the seeks and the time.

Two seeks are compatible when the gap between their ratings is inside both of their
windows; a window widens with the time its seek has waited.  A group is a table's
worth of seeks, each compatible with every other; the oldest seeks are served first.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Protocol


class Seeking(Protocol):
    rating: float
    created_at: datetime
    players: int
    allow_bots: bool


def window(seek: Seeking, now: datetime, base: float, per_second: float) -> float:
    """The rating gap ``seek`` accepts at ``now``."""
    waited = max((now - seek.created_at).total_seconds(), 0.0)
    return base + per_second * waited


def groups_of(
    seeks: Sequence[Seeking],
    fits: Callable[[Seeking, Seeking], bool],
    *,
    size: int,
    partial: bool = False,
) -> list[list[Seeking]]:
    """Disjoint groups of ``size`` mutually fitting seeks, oldest seek first in each.

    With ``partial`` a group may be smaller (bots fill the rest), but never empty.
    """
    free = list(seeks)
    groups = []
    while free:
        first = free.pop(0)
        group = [first]
        for other in free:
            if len(group) == size:
                break
            if all(fits(other, member) for member in group):
                group.append(other)
        if len(group) == size or partial:
            groups.append(group)
            free = [s for s in free if s not in group]
    return groups
