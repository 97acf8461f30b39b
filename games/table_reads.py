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
    ``select_for_update()`` would (SQLite's transactions lock the whole database),
    and loads the variant and users whole: the move that follows may read any field.
    Without it (a push render) two joined statements read what a render shows; the
    variant and users then hold only their names, and any other field is loaded
    from the database on first use, as a deferred field is.
    Raises ``Match.DoesNotExist`` as ``Match.objects.get`` would.
    """
    if not lock:
        return _render_rows(match_id)
    sql = f"SELECT * FROM {Match._meta.db_table} WHERE id = %s"
    if connection.features.has_select_for_update:
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


def _render_rows(match_id: int) -> tuple[Match, list[Seat]]:
    user_model = get_user_model()
    found = list(
        Match.objects.raw(
            f"SELECT m.*, v.name AS variant_title FROM {Match._meta.db_table} m"
            f" JOIN {RuleVariant._meta.db_table} v ON v.id = m.variant_id WHERE m.id = %s",
            [match_id],
        )
    )
    if not found:
        raise Match.DoesNotExist(f"Match matching query does not exist: {match_id}")
    match = found[0]
    match.variant = RuleVariant.from_db(
        connection.alias, ["id", "name"], [match.variant_id, match.variant_title]
    )
    seats = list(
        Seat.objects.raw(
            f"SELECT s.*, u.username AS user_title FROM {Seat._meta.db_table} s"
            f" LEFT JOIN {user_model._meta.db_table} u ON u.id = s.user_id"
            " WHERE s.match_id = %s ORDER BY s.number",
            [match_id],
        )
    )
    for seat in seats:
        seat.match = match
        if seat.user_id is not None:
            seat.user = user_model.from_db(
                connection.alias, ["id", "username"], [seat.user_id, seat.user_title]
            )
    return match, seats
