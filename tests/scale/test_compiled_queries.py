"""A query compiled once per connection returns what the plain queryset returns."""

from __future__ import annotations

import threading
from datetime import timedelta
from unittest import mock

import pytest
from django.db import DatabaseError, IntegrityError, OperationalError, connection, transaction
from django.db.models import F
from django.db.models.sql.compiler import SQLCompiler
from django.db.transaction import TransactionManagementError
from django.utils import timezone

from games import services
from games.compiled_queries import CompiledInsert, CompiledQuery, CompiledUpdate
from games.models import Match, Move, RuleVariant, Seat
from games.services import play
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
                play.lock_with_seats(table.pk)
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


def stored(model, pk: int) -> dict:
    return field_values(model.objects.get(pk=pk))


@pytest.mark.django_db
def test_an_update_writes_what_save_with_update_fields_writes(table):
    fields = ["state", "version", "turn_deadline", "bot_due_at", "finished_at", "status"]
    update = CompiledUpdate(Match, fields)
    twin = Match.objects.get(pk=table.pk)
    other = services.create_match(make_user(), RuleVariant.objects.get(slug="classic"), 2)
    other_before = stored(Match, other.pk)
    now = timezone.now()
    # Nulls and values in turn: the statement differs with the nulls, the result must not.
    first_version = table.version
    for step, deadline in enumerate([now, None, now + timedelta(seconds=5), None]):
        for match in (table, twin):
            match.state = {"step": step, "text": 'it\'s "quoted" ; -- not SQL'}
            match.version = first_version + step + 1
            match.turn_deadline = deadline
            match.bot_due_at = None if step % 2 else now
            match.status = Match.Status.PLAYING
        update.save(table)
        written = stored(Match, table.pk)
        twin.save(update_fields=fields)
        assert written == stored(Match, table.pk)
        assert written["state"] == table.state and written["turn_deadline"] == deadline
    assert stored(Match, other.pk) == other_before  # Only the one row.
    gone = Match(pk=other.pk + 1000, **{f: getattr(table, f) for f in fields})
    with pytest.raises(DatabaseError):
        update.save(gone)


@pytest.mark.django_db
def test_an_insert_stores_the_row_that_create_stores(table):
    insert = CompiledInsert(Move)
    before = timezone.now()
    for seq in (1, 2):
        insert.insert(
            Move(match=table, deal_id=table.live_deal_id, seq=seq, seat=seq % 2, action="0 take")
        )
    moves = list(Move.objects.filter(match=table).order_by("seq"))
    assert [(m.seq, m.seat, m.action, m.source, m.think_ms) for m in moves] == [
        (1, 1, "0 take", Move.Source.PLAYER, 0),
        (2, 0, "0 take", Move.Source.PLAYER, 0),
    ]
    assert all(m.created_at >= before for m in moves)  # auto_now_add ran
    # The database's constraints still hold: the same seq again is refused.
    with pytest.raises(IntegrityError), transaction.atomic():
        insert.insert(Move(match=table, deal_id=table.live_deal_id, seq=2, seat=0, action="0 done"))


@pytest.mark.django_db
def test_writes_refuse_expressions_instead_of_writing_their_text(table):
    update = CompiledUpdate(Match, ["version"])
    table.version = F("version") + 1
    with pytest.raises(ValueError, match="plain values"):
        update.save(table)
