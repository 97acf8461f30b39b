"""The reads of a table for a move and for its push renders, as plain SQL statements.

Every push makes each socket read its table again (the database is the one source
of truth), so these run several times per move.  Building the same ORM queries
anew each time cost more than rendering the table; ``Manager.raw()`` runs the SQL
as written and still converts each column as the ORM would.  The results equal
the ORM's (tests/live/test_table_reads.py).
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import connection

from games.models import Match, RuleVariant, Seat


def _by_id(model: type, ids: list[int]) -> dict[int, object]:
    if not ids:
        return {}
    table = model._meta.db_table
    marks = ", ".join(["%s"] * len(ids))
    rows = model.objects.raw(f"SELECT * FROM {table} WHERE id IN ({marks})", ids)
    return {row.pk: row for row in rows}


def table_rows(match_id: int, *, lock: bool = False) -> tuple[Match, list[Seat]]:
    """The match with its variant, and its seats in order with their users.

    ``lock`` takes the match row's lock for the caller's transaction, as
    ``select_for_update()`` would (SQLite's transactions lock the whole database).
    Raises ``Match.DoesNotExist`` as ``Match.objects.get`` would.
    """
    sql = f"SELECT * FROM {Match._meta.db_table} WHERE id = %s"
    if lock and connection.features.has_select_for_update:
        sql += " FOR UPDATE"
    found = list(Match.objects.raw(sql, [match_id]))
    if not found:
        raise Match.DoesNotExist(f"Match matching query does not exist: {match_id}")
    match = found[0]
    match.variant = _by_id(RuleVariant, [match.variant_id])[match.variant_id]
    seats = list(
        Seat.objects.raw(
            f"SELECT * FROM {Seat._meta.db_table} WHERE match_id = %s ORDER BY number",
            [match_id],
        )
    )
    users = _by_id(get_user_model(), [s.user_id for s in seats if s.user_id is not None])
    for seat in seats:
        seat.match = match
        if seat.user_id is not None:
            seat.user = users[seat.user_id]
    return match, seats
