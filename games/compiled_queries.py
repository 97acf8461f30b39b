"""Statements the ORM compiles once per connection, then runs again with new values.

Django builds the SQL of a queryset, an insert or an update anew every time it runs.
For a move, the lock query (the seats joined to their match and users) and the two
writes (the ``Move`` row and the match's new state) are the same three statements
every time, and building them was a third of the move's CPU (docs/performance.md).
Here the ORM builds each once per connection; later calls only execute it:

- ``CompiledQuery`` keeps a queryset's SQL with the compiler's description of its
  columns, and builds instances with the ORM's own converters and related-object
  populators, as iterating the queryset would;
- ``CompiledInsert`` and ``CompiledUpdate`` prepare each value as ``save()`` does
  (``pre_save``, ``get_db_prep_save``) and run the statement the ORM built for it.

They refuse what would make the SQL depend on the values (expressions, fields with
their own placeholders, further query parameters) instead of running a wrong statement.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections
from django.db.models import Model, QuerySet
from django.db.models.query import get_related_populators
from django.db.models.sql.subqueries import InsertQuery, UpdateQuery
from django.db.transaction import TransactionManagementError

# Compiled with this key, which no real row has, to find the key among the parameters.
_PLACEHOLDER_KEY = -7_331_911


def _for_connection(cache: threading.local, using: str, build: Callable[[Any], Any]) -> Any:
    """(this thread's connection, ``build(connection)``), built once per connection.

    Connections are per thread, and so are the compilers and SQL made for them.
    """
    connection = connections[using]
    built = cache.__dict__.get(using)
    if built is None or built[0] is not connection:
        built = cache.__dict__[using] = (connection, build(connection))
    return built


class _Plan:
    def __init__(self, queryset: QuerySet, connection: Any) -> None:
        compiler = queryset.query.get_compiler(connection=connection)
        sql, params = compiler.as_sql()
        if tuple(params) != (_PLACEHOLDER_KEY,):
            raise ValueError(f"a compiled query takes its key as its one parameter, not {params!r}")
        select, klass_info = compiler.select, compiler.klass_info
        if klass_info is None or compiler.annotation_col_map:
            raise ValueError("a compiled query must select model instances, no annotations")
        self.sql = sql
        features = connection.features
        self.locks_rows = (
            queryset.query.select_for_update
            and features.has_select_for_update
            and features.supports_transactions
        )
        self.compiler = compiler
        self.converters = compiler.get_converters([s[0] for s in select[: compiler.col_count]])
        self.model = klass_info["model"]
        fields = klass_info["select_fields"]
        self.start, self.end = fields[0], fields[-1] + 1
        self.init_list = [s[0].target.attname for s in select[self.start : self.end]]
        self.populators = get_related_populators(klass_info, select, connection.alias)


class CompiledQuery:
    """``build(key)`` is a queryset of model instances filtered by ``key``.

    ``fetch(key)`` returns what ``list(build(key))`` would, without compiling again.
    """

    def __init__(self, build: Callable[[Any], QuerySet]) -> None:
        self.build = build
        self._plans = threading.local()

    def fetch(self, key: Any, using: str = DEFAULT_DB_ALIAS) -> list[Model]:
        connection, plan = _for_connection(
            self._plans, using, lambda connection: _Plan(self.build(_PLACEHOLDER_KEY), connection)
        )
        if plan.locks_rows and connection.get_autocommit():
            # As the ORM refuses it: the lock would end with the statement.
            raise TransactionManagementError(
                "select_for_update cannot be used outside of a transaction."
            )
        with connection.cursor() as cursor:
            cursor.execute(plan.sql, (key,))
            rows: Any = cursor.fetchall()
        if plan.converters:
            rows = plan.compiler.apply_converters(rows, plan.converters)
        objects = []
        for row in rows:
            obj = plan.model.from_db(using, plan.init_list, row[plan.start : plan.end])
            for populator in plan.populators:
                populator.populate(row, obj)
            objects.append(obj)
        return objects


def _prepared(field: Any, value: Any, connection: Any) -> Any:
    if hasattr(value, "resolve_expression"):
        raise ValueError(f"a compiled statement takes plain values, not {value!r} for {field.name}")
    return field.get_db_prep_save(value, connection=connection)


def _plain_placeholders(fields: list[Any]) -> None:
    custom = [f.name for f in fields if hasattr(f, "get_placeholder")]
    if custom:
        raise ValueError(f"a compiled statement needs plain placeholders, not for {custom}")


class CompiledInsert:
    """Inserts one instance of ``model`` with the ORM's SQL, built once per connection.

    As ``Model.save()`` would for a new row, but nothing comes back: the instance gets
    no primary key, and no model signals are sent.
    """

    def __init__(self, model: type[Model]) -> None:
        meta = model._meta
        self.model = model
        self.fields = [f for f in meta.local_concrete_fields if f is not meta.auto_field]
        _plain_placeholders(self.fields)
        self._sql = threading.local()

    def insert(self, obj: Model, using: str = DEFAULT_DB_ALIAS) -> None:
        connection, sql = _for_connection(self._sql, using, lambda c: self._compile(obj, c))
        params = [_prepared(f, f.pre_save(obj, True), connection) for f in self.fields]
        with connection.cursor() as cursor:
            cursor.execute(sql, params)

    def _compile(self, obj: Model, connection: Any) -> str:
        query = InsertQuery(self.model)
        query.insert_values(self.fields, [obj])
        [(sql, _params)] = query.get_compiler(connection=connection).as_sql()
        return sql


class CompiledUpdate:
    """Saves ``fields`` of an existing instance of ``model``, as ``save(update_fields=...)``.

    The ORM writes a null as ``NULL`` in the SQL text, so there is one statement per
    pattern of null fields, each built once per connection.  No model signals are sent.
    """

    def __init__(self, model: type[Model], field_names: list[str]) -> None:
        self.model = model
        self.fields = [model._meta.get_field(name) for name in field_names]
        _plain_placeholders(self.fields)
        self._sql = threading.local()

    def save(self, obj: Model, using: str = DEFAULT_DB_ALIAS) -> None:
        connection, statements = _for_connection(self._sql, using, lambda _connection: {})
        values = [f.pre_save(obj, False) for f in self.fields]
        params = [_prepared(f, v, connection) for f, v in zip(self.fields, values, strict=True)]
        # As the ORM decides it: a value that prepares to None is written as NULL.
        nulls = tuple(param is None for param in params)
        sql = statements.get(nulls)
        if sql is None:
            query = UpdateQuery(self.model)
            query.add_update_fields(
                [(f, None, v) for f, v in zip(self.fields, values, strict=True)]
            )
            query.add_filter("pk", obj.pk)
            sql = statements[nulls] = query.get_compiler(connection=connection).as_sql()[0]
        with connection.cursor() as cursor:
            cursor.execute(sql, [param for param in params if param is not None] + [obj.pk])
            if cursor.rowcount != 1:
                raise DatabaseError("Save with update_fields did not affect any rows.")
