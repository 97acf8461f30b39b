"""The plain SQL statements of live play read and write what the ORM reads and writes."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.db import transaction
from django.forms.models import model_to_dict
from django.test import Client
from django.utils import timezone

from games import services
from games.models import Match, Move, RuleVariant, Seat
from games.table_sql import insert_move, table_rows, update_match, user_and_session

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


def test_user_and_session_read_as_the_orm_and_the_session_store_read_them():
    user, gone = make_user("ua"), make_user("ub")
    user.suspended_until = timezone.now() + timedelta(hours=2)
    user.last_login = timezone.now()
    user.save()
    gone.is_active = False
    gone.save()
    client = Client()
    client.force_login(user)
    live = client.cookies["sessionid"].value
    expired = SessionStore()
    expired["note"] = "old"
    expired.set_expiry(-60)
    expired.save()
    tampered = SessionStore()
    tampered["note"] = "x"
    tampered.save()
    Session.objects.filter(pk=tampered.session_key).update(session_data="not-signed-data")
    orm = get_user_model().objects.get(pk=user.pk)
    for key in (live, expired.session_key, tampered.session_key, "no-such-session"):
        found, data = user_and_session(user.pk, key)
        assert _fields(found) == _fields(orm)
        assert data == SessionStore(key).load()
    assert user_and_session(user.pk, live)[1]["_auth_user_id"] == str(user.pk)
    assert user_and_session(user.pk, expired.session_key)[1] == {}
    assert user_and_session(user.pk, tampered.session_key)[1] == {}
    assert user_and_session(gone.pk, live) is None
    assert user_and_session(10**9, live) is None


def _started_match():
    users = [make_user("wa"), make_user("wb")]
    match = services.create_match(users[0], RuleVariant.objects.get(slug="classic"), 2)
    services.join_match(match, users[1])
    return Match.objects.get(pk=match.pk)


def test_insert_move_writes_the_row_the_orm_writes():
    match = _started_match()
    values = {"match_id": match.pk, "deal_id": match.live_deal_id, "seat": 1, "action": "1 take"}
    insert_move(Move(seq=1, think_ms=1234, source=Move.Source.TIMEOUT, **values))
    Move.objects.create(seq=2, think_ms=1234, source=Move.Source.TIMEOUT, **values)
    plain, orm = Move.objects.filter(match=match).order_by("seq")
    written = {k: v for k, v in _fields(plain).items() if k not in ("id", "seq", "created_at")}
    assert written == {
        k: v for k, v in _fields(orm).items() if k not in ("id", "seq", "created_at")
    }
    assert abs(plain.created_at - orm.created_at) < timedelta(seconds=5)


def test_update_match_writes_what_the_orms_save_writes():
    match = _started_match()
    names = ["state", "version", "turn_deadline", "bot_due_at", "status", "finished_at"]
    changed = {
        "state": {**match.state, "bout": 7},
        "version": match.version + 5,
        "turn_deadline": timezone.now() + timedelta(seconds=30),
        "bot_due_at": None,
        "status": Match.Status.FINISHED,
        "finished_at": timezone.now(),
    }
    for name, value in changed.items():
        setattr(match, name, value)
    match.abort_reason = "not written"
    update_match(match, names)
    plain = _fields(Match.objects.get(pk=match.pk))
    match.save(update_fields=names)
    assert plain == _fields(Match.objects.get(pk=match.pk))
    assert plain["state"]["bout"] == 7
    assert plain["abort_reason"] == ""
