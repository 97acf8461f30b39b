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

from durak.engine import Game
from games.hint_rules import rules_refusal
from games.lru import LruCache
from games.models import Deal, Match, Seat
from games.table_sql import table_rows

Table = tuple[Match, list[Seat], Game | None]

# A push is rendered within moments of its move: a few hundred tables' latest
# versions are plenty.
KEPT = 512

_kept: LruCache[tuple[int, int], Table] = LruCache(KEPT)
_rules_allow_hints: LruCache[int, bool] = LruCache(KEPT)


def load(match_id: int) -> Table:
    """The table as the database holds it now; kept for this process's other sockets."""
    match, seats = table_rows(match_id)
    if match.status != Match.Status.PLAYING and match.live_deal_id is not None:
        # A render of a deal's end shows the deal; the render makes no query itself.
        match.live_deal = Deal.objects.get(pk=match.live_deal_id)
    table = (match, seats, Game.from_snapshot(match.state) if match.state else None)
    remember(table)
    return table


def remember(table: Table) -> None:
    """Keep ``table`` (as just committed or read) for the renders of its version."""
    match, _, game = table
    _kept.put((match.pk, match.version), table)
    # Read here, so that a push's render (in the socket's event loop) reads nothing.
    rules_allow_hints(match)


def recall(match_id: int, version: int) -> Table | None:
    """The table at exactly ``version``, if this process read or committed it."""
    return _kept.get((match_id, version))


def rules_allow_hints(match: Match) -> bool:
    """Whether no rule of an app above refuses hints at ``match`` (``games.hint_rules``):
    the rules look at what is fixed when the table is made, so this is read once per
    process and table, when the table is first kept."""
    allowed = _rules_allow_hints.get(match.pk)
    if allowed is None:
        allowed = rules_refusal(match) is None
        _rules_allow_hints.put(match.pk, allowed)
    return allowed


def forget_all() -> None:
    """Drop every kept table: after the database is replaced (a test's flush, a restore),
    a kept (match, version) may name another table than the database's."""
    _kept.clear()
    _rules_allow_hints.clear()
