"""The plain SQL read of a table reads what the ORM reads."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import transaction
from django.forms.models import model_to_dict
from django.utils import timezone

from games import services
from games.models import Match, RuleVariant, Seat
from games.table_sql import table_rows

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
