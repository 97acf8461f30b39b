"""A query compiled once per connection returns what the plain queryset returns."""

from __future__ import annotations

import threading
from unittest import mock

import pytest
from django.db import OperationalError, connection, transaction
from django.db.models import F
from django.db.models.sql.compiler import SQLCompiler
from django.db.transaction import TransactionManagementError

from games import services
from games.compiled_queries import CompiledQuery
from games.models import Match, RuleVariant, Seat
from tests.scale.conftest import make_user


def seats_of(match_id: int):
    return Seat.objects.select_related("match", "user").filter(match_id=match_id).order_by()


def locking_seats_of(match_id: int):
    return seats_of(match_id).select_for_update(of=("match",))


def field_values(obj) -> dict:
    return {field.attname: getattr(obj, field.attname) for field in obj._meta.concrete_fields}


@pytest.fixture
def table() -> Match:
    """A running table of three: a person, a bot, and a person who joined later."""
    creator = make_user()
    variant = RuleVariant.objects.get(slug="classic")
    match = services.create_match(creator, variant, 3, bots=["easy"])
    services.join_match(match, make_user())
    return Match.objects.get(pk=match.pk)


def assert_same_instances(fetched: list, expected: list) -> None:
    fetched = sorted(fetched, key=lambda seat: seat.number)
    expected = sorted(expected, key=lambda seat: seat.number)
    assert [field_values(s) for s in fetched] == [field_values(s) for s in expected]
    for got, want in zip(fetched, expected, strict=True):
        assert got._state.adding is False and got._state.db == "default"
        # The related rows came with the query: reading them makes no query.
        assert set(got._state.fields_cache) == set(want._state.fields_cache) >= {"match", "user"}
        assert field_values(got.match) == field_values(want.match)
        assert got.match.state == want.match.state and isinstance(got.match.state, dict)
        if want.user is None:
            assert got.user is None
        else:
            assert field_values(got.user) == field_values(want.user)


@pytest.mark.django_db
def test_fetch_returns_the_querysets_instances_with_their_related_rows(table):
    query = CompiledQuery(seats_of)
    seats = query.fetch(table.pk)
    assert len(seats) == 3 and any(seat.user is None for seat in seats)
    assert_same_instances(seats, list(seats_of(table.pk)))
    # Called again, for another table and back, it still answers for the key it is given.
    other = services.create_match(make_user(), RuleVariant.objects.get(slug="classic"), 2)
    assert [s.match_id for s in query.fetch(other.pk)] == [other.pk, other.pk]
    assert_same_instances(query.fetch(table.pk), list(seats_of(table.pk)))
    assert query.fetch(-1) == []


@pytest.mark.django_db
def test_the_sql_is_built_once_per_connection(table):
    query = CompiledQuery(seats_of)
    with mock.patch.object(
        SQLCompiler, "as_sql", autospec=True, side_effect=SQLCompiler.as_sql
    ) as as_sql:
        for _ in range(3):
            query.fetch(table.pk)
        assert as_sql.call_count == 1

        # Another thread has its own connection, and compiles for it.
        def fetch_on_a_thread() -> None:
            try:
                query.fetch(table.pk)
            finally:
                connection.close()

        worker = threading.Thread(target=fetch_on_a_thread)
        worker.start()
        worker.join()
        assert as_sql.call_count == 2


@pytest.mark.django_db
def test_a_locking_query_is_refused_outside_a_transaction_where_the_database_locks(table):
    query = CompiledQuery(locking_seats_of)
    with transaction.atomic():
        assert_same_instances(query.fetch(table.pk), list(locking_seats_of(table.pk)))
    with mock.patch.object(connection, "get_autocommit", return_value=True):
        if connection.features.has_select_for_update:
            with pytest.raises(TransactionManagementError):
                query.fetch(table.pk)
        else:  # SQLite: the ORM leaves the lock out, and so does the compiled query.
            assert len(query.fetch(table.pk)) == 3


@pytest.mark.skipif(
    not connection.features.has_select_for_update, reason="row locks need PostgreSQL"
)
@pytest.mark.django_db(transaction=True)
def test_the_services_lock_query_holds_the_match_row_until_the_commit(table):
    holding, release = threading.Event(), threading.Event()

    def hold_the_lock() -> None:
        try:
            with transaction.atomic():
                services._lock_with_seats(table.pk)
                holding.set()
                release.wait(10)
        finally:
            connection.close()

    holder = threading.Thread(target=hold_the_lock)
    holder.start()
    try:
        assert holding.wait(10)
        with pytest.raises(OperationalError), transaction.atomic():
            Match.objects.select_for_update(nowait=True).get(pk=table.pk)
        # The seats themselves are not locked: presence updates of a seat may go on.
        with transaction.atomic():
            Seat.objects.select_for_update(nowait=True).filter(match=table).count()
    finally:
        release.set()
        holder.join()
    with transaction.atomic():
        assert Match.objects.select_for_update(nowait=True).get(pk=table.pk).pk == table.pk


@pytest.mark.django_db
def test_querysets_with_other_parameters_or_annotations_are_refused():
    query = CompiledQuery(lambda key: Seat.objects.filter(match_id=key, number=1))
    with pytest.raises(ValueError, match="one parameter"):
        query.fetch(1)
    annotated = CompiledQuery(
        lambda key: Seat.objects.filter(match_id=key).annotate(place=F("number"))
    )
    with pytest.raises(ValueError, match="annotations"):
        annotated.fetch(1)
