"""The plain SQL read of a table reads what the ORM reads, and its writes write what
the ORM writes."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import transaction
from django.forms.models import model_to_dict
from django.utils import timezone

from games import services
from games.models import Match, Move, OpenSocket, RuleVariant, Seat
from games.table_sql import insert, socket_channels, table_rows, update_fields

from .conftest import make_user

pytestmark = pytest.mark.django_db


def _orm(match_id: int):
    match = Match.objects.select_related("variant").get(pk=match_id)
    return match, services.load_seats(match_id)


def _fields(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in type(obj)._meta.concrete_fields}


@pytest.mark.parametrize("lock", [False, True])
@pytest.mark.parametrize("bots", [(), ("easy",)])
def test_table_rows_equal_the_orms_rows(bots, lock):
    users = [make_user("ra"), make_user("rb")]
    match = services.create_match(users[0], RuleVariant.objects.get(slug="classic"), 3, bots=bots)
    services.join_match(match, users[1])
    with transaction.atomic():
        raw_match, raw_seats = table_rows(match.pk, lock=lock)
    orm_match, orm_seats = _orm(match.pk)
    assert _fields(raw_match) == _fields(orm_match)
    assert _fields(raw_match.variant) == _fields(orm_match.variant)
    assert [_fields(s) for s in raw_seats] == [_fields(s) for s in orm_seats]
    assert [s.user and model_to_dict(s.user) for s in raw_seats] == [
        s.user and model_to_dict(s.user) for s in orm_seats
    ]
    assert [s.user and _fields(s.user) for s in raw_seats] == [
        s.user and _fields(s.user) for s in orm_seats
    ]
    assert [s.display_name for s in raw_seats] == [s.display_name for s in orm_seats]


@pytest.mark.parametrize("lock", [False, True])
def test_a_game_in_progress_reads_as_the_orm_reads_it(lock):
    users = [make_user("pa"), make_user("pb")]
    match = services.create_match(users[0], RuleVariant.objects.get(slug="classic"), 2)
    services.join_match(match, users[1])
    users[1].suspended_until = timezone.now() + timedelta(days=1)
    users[1].last_login = timezone.now()
    users[1].save()
    Seat.objects.filter(match=match, number=1).update(disconnected_since=timezone.now())
    with transaction.atomic():
        raw_match, raw_seats = table_rows(match.pk, lock=lock)
    orm_match, orm_seats = _orm(match.pk)
    assert raw_match.status == Match.Status.PLAYING
    assert raw_match.turn_deadline is not None
    assert raw_match.state["format"] == "durak-snapshot/1"
    assert _fields(raw_match) == _fields(orm_match)
    assert _fields(raw_match.variant) == _fields(orm_match.variant)
    assert [_fields(s) for s in raw_seats] == [_fields(s) for s in orm_seats]
    assert [_fields(s.user) for s in raw_seats] == [_fields(s.user) for s in orm_seats]
    assert raw_seats[1].user.is_suspended


def test_a_missing_table_raises_as_the_orm_does():
    with pytest.raises(Match.DoesNotExist):
        table_rows(10**9)


def _started_match(name: str) -> Match:
    users = [make_user(f"{name}a"), make_user(f"{name}b")]
    match = services.create_match(users[0], RuleVariant.objects.get(slug="classic"), 2)
    services.join_match(match, users[1])
    return Match.objects.get(pk=match.pk)


WRITTEN = ["state", "version", "move_count", "status", "turn_deadline", "finished_at"]


def test_update_fields_writes_what_save_writes():
    raw, orm = _started_match("raw"), _started_match("orm")
    later = timezone.now() + timedelta(seconds=30)
    state = {**raw.state, "note": ["ü", 1, None]}
    for match in (raw, orm):
        match.state = state
        match.version += 3
        match.move_count = 7
        match.status = Match.Status.FINISHED
        match.turn_deadline = later
        match.finished_at = later
        match.abort_reason = "not written"
    update_fields(raw, WRITTEN)
    orm.save(update_fields=WRITTEN)
    raw_row, orm_row = Match.objects.get(pk=raw.pk), Match.objects.get(pk=orm.pk)
    assert {name: getattr(raw_row, name) for name in WRITTEN} == {
        name: getattr(orm_row, name) for name in WRITTEN
    }
    assert raw_row.state["note"] == ["ü", 1, None]
    assert raw_row.abort_reason == orm_row.abort_reason == ""


def test_insert_writes_what_create_writes():
    match = _started_match("moves")
    values = dict(
        match_id=match.pk, deal_id=match.live_deal_id, seq=1, seat=0, action="0 attack 6S"
    )
    insert(Move(**values, source=Move.Source.BOT, think_ms=1234))
    Move.objects.create(**{**values, "seq": 2}, source=Move.Source.BOT, think_ms=1234)
    raw, orm = Move.objects.filter(match=match).order_by("seq")
    skip = {"id", "seq", "created_at"}
    assert {k: v for k, v in _fields(raw).items() if k not in skip} == {
        k: v for k, v in _fields(orm).items() if k not in skip
    }
    assert abs(raw.created_at - orm.created_at) < timedelta(seconds=5)


def test_socket_channels_are_the_orms_rows():
    users = [make_user("sa"), make_user("sb")]
    now = timezone.now()
    for n, (match_id, server) in enumerate(
        [(7, "here"), (7, "there"), (8, "here"), (None, "here")]
    ):
        OpenSocket.objects.create(
            channel_name=f"c{n}",
            user=users[n % 2],
            match_id=match_id,
            server=server,
            renewed_at=now,
        )
    for match_id in (7, 8, 9):
        for server in (None, "here", "there"):
            rows = OpenSocket.objects.filter(match_id=match_id)
            if server is not None:
                rows = rows.filter(server=server)
            orm = sorted(rows.values_list("channel_name", flat=True))
            assert sorted(socket_channels(match_id, server)) == orm
    assert sorted(socket_channels(7)) == ["c0", "c1"]
