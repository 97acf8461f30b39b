"""Querysets the ORM compiles once per connection and then runs again with a new key.

Django builds the SQL of a queryset anew every time it runs.  For the lock query of
a move (the seats joined to their match and users) that building was a third of the
move's CPU on the database thread (docs/performance.md), and every move needs the
same statement with another match id.  A ``CompiledQuery`` lets the ORM compile it
once per connection, keeps the SQL with the compiler's description of the columns,
and on each call only executes it and builds the instances, with the ORM's own
converters and related-object populators, as a plain iteration of the queryset would.

Only querysets of model instances whose one parameter is the key are accepted; a
queryset that compiles to other parameters is refused when it is first compiled.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Model, QuerySet
from django.db.models.query import get_related_populators
from django.db.transaction import TransactionManagementError

# Compiled with this key, which no real row has, to find the key among the parameters.
_PLACEHOLDER_KEY = -7_331_911


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
        # Connections are per thread, and so are the compilers that refer to them.
        self._plans = threading.local()

    def _plan(self, alias: str) -> _Plan:
        connection = connections[alias]
        plans = self._plans.__dict__
        plan = plans.get(alias)
        if plan is None or plan.compiler.connection is not connection:
            plan = plans[alias] = _Plan(self.build(_PLACEHOLDER_KEY), connection)
        return plan

    def fetch(self, key: Any, using: str = DEFAULT_DB_ALIAS) -> list[Model]:
        plan = self._plan(using)
        connection = connections[using]
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
