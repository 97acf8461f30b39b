"""A table as one read: the match, its seats and its engine state, and a memo of them.

Every push says "match N is at version V"; each socket renders its own viewer's
page of that version.  The table is read once per process and version: the read
is kept here, keyed by (match, version), and every socket of the table in this
process renders from it.  A service that commits a move hands its table over
(``remember``), so the move's pushes in its own process read nothing.

What is kept is shared by every socket, so it is only read, never changed: a
render builds its own context from it.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from games.engine import Game
from games.models import Match, Seat

Table = tuple[Match, list[Seat], Game | None]

# A push is rendered within moments of its move: a few hundred tables' latest
# versions are plenty.
KEPT = 512

_lock = threading.Lock()  # written by database threads, read on the event loop
_kept: OrderedDict[tuple[int, int], Table] = OrderedDict()


def read_table(match_id: int, *, lock: bool = False) -> tuple[Match, list[Seat]]:
    """The match with what its render reads (variant, live deal), and its seats in
    order with their users.

    ``lock`` takes the match row's lock for the caller's transaction (only the
    match's: the seats are written only under it).  Raises ``Match.DoesNotExist``.
    """
    matches = Match.objects.select_related("variant", "live_deal")
    if lock:
        matches = matches.select_for_update(of=("self",))
    match = matches.get(pk=match_id)
    seats = list(Seat.objects.filter(match_id=match_id).select_related("user").order_by("number"))
    for seat in seats:
        seat.match = match
    return match, seats


def load(match_id: int) -> Table:
    """The table as the database holds it now; kept for this process's other sockets."""
    match, seats = read_table(match_id)
    table = (match, seats, Game.from_snapshot(match.state) if match.state else None)
    remember(table)
    return table


def remember(table: Table) -> None:
    """Keep ``table`` (as just committed or read) for the renders of its version."""
    key = (table[0].pk, table[0].version)
    with _lock:
        _kept[key] = table
        _kept.move_to_end(key)
        if len(_kept) > KEPT:
            _kept.popitem(last=False)


def recall(match_id: int, version: int) -> Table | None:
    """The table at exactly ``version``, if this process read or committed it."""
    with _lock:
        return _kept.get((match_id, version))
