"""The hot statements of live play as plain SQL: the read of a table, a move's two
writes, and the read of the channels its push goes to.

Every move reads its table under the match's lock (and a process that did not
commit a version reads it once for its sockets' renders).  Built as ORM querysets,
the two reads cost several times the statements themselves: profiled on SQLite,
``select_related`` for the match and for the seats took 3.8-5.2 ms of CPU a read
against 0.5 ms for this one joined statement.  So it runs through
``connection.cursor()``, and each row becomes a model instance through
``Model.from_db``, the documented hook the ORM loads rows with: JSON columns are
decoded by their field (``from_db_value``), and SQLite's naive UTC datetimes are
made aware.  The result equals the ORM's (tests/live/test_table_sql.py).

Every move also writes its ``Move`` row and the match's changed columns.  Through
``Model.save`` and ``QuerySet.create`` the ORM compiled those statements anew each
time, about 12% of the web process's CPU at 150 live tables; here each is built
once per process from the models' fields, and values go through each field's
``get_db_prep_save``, as the ORM's own writes do.

After its commit every move reads the channels of its table's sockets: as a
``values_list`` queryset that read took 7.5% of the web process's CPU at 300 live
tables (py-spy), most of it building the statement.  Everything else of live play
goes through the ORM.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection, models
from django.utils import timezone

from games.models import Match, OpenSocket, RuleVariant, Seat


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


@lru_cache(maxsize=16)
def _update_sql(model: type[models.Model], names: tuple[str, ...]) -> str:
    assignments = ", ".join(f"{model._meta.get_field(name).column} = %s" for name in names)
    return f"UPDATE {model._meta.db_table} SET {assignments} WHERE {model._meta.pk.column} = %s"


def update_fields(instance: models.Model, names: Sequence[str]) -> None:
    """Write the ``names`` fields of ``instance``, as ``save(update_fields=names)`` would
    for a model without ``auto_now`` fields or save signals among them."""
    model = type(instance)
    fields = [model._meta.get_field(name) for name in names]
    values = [f.get_db_prep_save(getattr(instance, f.attname), connection) for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(_update_sql(model, tuple(names)), [*values, instance.pk])


@lru_cache(maxsize=8)
def _insert_sql(model: type[models.Model]) -> tuple[str, tuple[models.Field, ...]]:
    fields = tuple(f for f in model._meta.concrete_fields if not f.primary_key)
    columns = ", ".join(f.column for f in fields)
    marks = ", ".join(["%s"] * len(fields))
    return f"INSERT INTO {model._meta.db_table} ({columns}) VALUES ({marks})", fields


def insert(instance: models.Model) -> None:
    """Insert ``instance`` as a new row, as ``save()`` would (its id is not read back)."""
    sql, fields = _insert_sql(type(instance))
    values = [f.get_db_prep_save(f.pre_save(instance, True), connection) for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, values)


@lru_cache(maxsize=2)
def _channels_sql(of_server: bool) -> str:
    table = OpenSocket._meta.db_table
    where = " AND server = %s" if of_server else ""
    return f"SELECT channel_name FROM {table} WHERE match_id = %s{where}"


def socket_channels(match_id: int, server: str | None = None) -> list[str]:
    """The channels of the open sockets of table ``match_id`` (held by ``server``, if
    given), as their rows hold them."""
    params: list[Any] = [match_id] if server is None else [match_id, server]
    with connection.cursor() as cursor:
        cursor.execute(_channels_sql(server is not None), params)
        return [channel for (channel,) in cursor.fetchall()]
