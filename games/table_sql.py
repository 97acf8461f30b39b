"""The hot statements of live play as plain SQL: the reads of a table for a move and
for its push renders, a socket's session and user before it acts, and a move's two
writes.

Every push makes each socket read its table again (the database is the one source
of truth), and every frame reads its user afresh, so these run several times per
move.  Building ORM querysets (or raw querysets) for them cost several times the
statements themselves, so they run through ``connection.cursor()``, and each row
read becomes a model instance through ``Model.from_db``, the documented hook the
ORM loads rows with.  Only two conversions are left to Django by the database
drivers: JSON columns are decoded by their field (``from_db_value``), and SQLite's
naive UTC datetimes are made aware.  Values written go through each field's own
``pre_save`` and ``get_db_prep_save``, as ``Model.save`` sends them.  The results
equal the ORM's (tests/live/test_table_sql.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.db import connection, models
from django.utils import timezone

from games.models import Match, Move, RuleVariant, Seat


def _aware(value: Any) -> Any:
    return timezone.make_aware(value, UTC) if timezone.is_naive(value) else value


@lru_cache(maxsize=8)
def _loading(model: type[models.Model]) -> tuple[list[str], list[Callable[[Any], Any] | None]]:
    """The model's column names, and per column how a driver's value becomes the field's."""
    fields = model._meta.concrete_fields
    converters: list[Callable[[Any], Any] | None] = []
    for field in fields:
        if isinstance(field, models.JSONField):
            converters.append(
                lambda value, field=field: field.from_db_value(value, None, connection)
            )
        elif isinstance(field, models.DateTimeField) and settings.USE_TZ:
            converters.append(_aware)
        else:
            converters.append(None)
    return [field.attname for field in fields], converters


def _columns(model: type[models.Model], alias: str) -> str:
    return ", ".join(f"{alias}.{field.column}" for field in model._meta.concrete_fields)


def _instance(model: type[models.Model], values: Sequence[Any]) -> Any:
    names, converters = _loading(model)
    values = [
        value if convert is None or value is None else convert(value)
        for convert, value in zip(converters, values, strict=True)
    ]
    return model.from_db(connection.alias, names, values)


@lru_cache(maxsize=2)
def _table_sql(lock: bool) -> str:
    """One statement for a table: a row per seat, each with the match and its variant.

    Built once per process: the column lists come from the models.
    """
    user_model = get_user_model()
    sql = (
        f"SELECT {_columns(Match, 'm')}, {_columns(RuleVariant, 'v')},"
        f" {_columns(Seat, 's')}, {_columns(user_model, 'u')}"
        f" FROM {Match._meta.db_table} m"
        f" JOIN {RuleVariant._meta.db_table} v ON v.id = m.variant_id"
        f" LEFT JOIN {Seat._meta.db_table} s ON s.match_id = m.id"
        f" LEFT JOIN {user_model._meta.db_table} u ON u.id = s.user_id"
        " WHERE m.id = %s ORDER BY s.number"
    )
    if lock and connection.features.has_select_for_update:
        # The match row only: every table of a variant shares the variant's row, and
        # the seats' rows are written only under the match's lock.
        sql += " FOR UPDATE OF m" if connection.features.has_select_for_update_of else " FOR UPDATE"
    return sql


def table_rows(match_id: int, *, lock: bool = False) -> tuple[Match, list[Seat]]:
    """The match with its variant, and its seats in order with their users.

    ``lock`` takes the match row's lock for the caller's transaction, as
    ``select_for_update()`` would (SQLite's transactions lock the whole database).
    Raises ``Match.DoesNotExist`` as ``Match.objects.get`` would.
    """
    with connection.cursor() as cursor:
        cursor.execute(_table_sql(lock), [match_id])
        rows = cursor.fetchall()
    if not rows:
        raise Match.DoesNotExist(f"Match matching query does not exist: {match_id}")
    match_end = len(Match._meta.concrete_fields)
    variant_end = match_end + len(RuleVariant._meta.concrete_fields)
    seat_end = variant_end + len(Seat._meta.concrete_fields)
    user_model = get_user_model()
    first = rows[0]
    match = _instance(Match, first[:match_end])
    match.variant = _instance(RuleVariant, first[match_end:variant_end])
    seats = []
    for row in rows:
        if row[variant_end] is None:  # a match without seats: the one row has none
            continue
        seat = _instance(Seat, row[variant_end:seat_end])
        seat.match = match
        if seat.user_id is not None:
            seat.user = _instance(user_model, row[seat_end:])
        seats.append(seat)
    return match, seats


@lru_cache(maxsize=1)
def _signed_in_sql() -> str:
    user_model = get_user_model()
    return (
        f"SELECT {_columns(user_model, 'u')}, s.session_data FROM {user_model._meta.db_table} u"
        f" LEFT JOIN {Session._meta.db_table} s ON s.session_key = %s AND s.expire_date > %s"
        " WHERE u.id = %s AND u.is_active = %s"
    )


def user_and_session(user_id: int, session_key: str) -> tuple[Any, dict[str, Any]] | None:
    """The active user with this id, whole, and the data of the live database session
    ``session_key`` ({} when it ended), in one statement; None when no such user is active.

    They are what ``filter(is_active=True)`` and ``SessionStore(session_key).load()``
    read.  A socket reads both before every frame it acts on.
    """
    now = Session._meta.get_field("expire_date").get_db_prep_value(timezone.now(), connection)
    with connection.cursor() as cursor:
        cursor.execute(_signed_in_sql(), [session_key, now, user_id, True])
        row = cursor.fetchone()
    if row is None:
        return None
    user, data = _instance(get_user_model(), row[:-1]), row[-1]
    return user, ({} if data is None else SessionStore().decode(data))


def _written(instance: models.Model, fields: list[Any], *, add: bool) -> list[Any]:
    return [field.get_db_prep_save(field.pre_save(instance, add), connection) for field in fields]


def insert_move(move: Move) -> None:
    """Insert a new move's row, as ``move.save()`` would, without reading back its id."""
    fields = [field for field in Move._meta.concrete_fields if not field.primary_key]
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {Move._meta.db_table} ({', '.join(f.column for f in fields)})"
            f" VALUES ({', '.join(['%s'] * len(fields))})",
            _written(move, fields, add=True),
        )


def update_match(match: Match, names: list[str]) -> None:
    """Write these fields of the match's row, as ``match.save(update_fields=names)`` would."""
    fields = [Match._meta.get_field(name) for name in names]
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {Match._meta.db_table} SET {', '.join(f'{f.column} = %s' for f in fields)}"
            " WHERE id = %s",
            [*_written(match, fields, add=False), match.pk],
        )
