"""Recurring arenas: a schedule makes each next arena once, ahead of its start, at
the right time of its time zone, however many tickers run."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, time, timedelta

import pytest
from django.core.exceptions import ValidationError
from django.db import connections
from django.utils import timezone

from arena import schedules, services
from arena.models import Arena, ArenaSchedule
from games.models import RuleVariant

pytestmark = pytest.mark.django_db


def at(*parts: int) -> datetime:
    return datetime(*parts, tzinfo=UTC)


def schedule(**fields) -> ArenaSchedule:
    values = {
        "name": "Вечерний турнир",
        "variant": RuleVariant.objects.get(slug="classic"),
        "daily_at": time(20, 0),
        "time_zone": "Europe/Moscow",
        "first_start": at(2026, 12, 1),
        "lead_minutes": 60,
    }
    values.update(fields)
    return ArenaSchedule.objects.create(**values)


def test_a_daily_arena_is_made_an_hour_ahead_at_20_00_moscow_time():
    evening = schedule(minutes=60, min_rating=1600, min_rated_games=5, password="seven")
    # 20:00 in Moscow (UTC+3) is 17:00 UTC; an hour ahead is 16:00 UTC.
    assert schedules.make_due_arenas(at(2026, 12, 1, 15, 59)) == []
    made = schedules.make_due_arenas(at(2026, 12, 1, 16, 0))
    assert len(made) == 1
    arena = Arena.objects.get(pk=made[0])
    assert arena.starts_at == at(2026, 12, 1, 17, 0)
    assert arena.schedule == evening
    assert arena.status == Arena.Status.SCHEDULED
    # What the schedule asks is copied onto the arena: its length and entry conditions.
    assert (arena.name, arena.minutes, arena.min_rating, arena.min_rated_games) == (
        "Вечерний турнир",
        60,
        1600,
        5,
    )
    assert arena.password == "seven"
    # Later ticks of the same hour make nothing more; the next day's comes next day.
    assert schedules.make_due_arenas(at(2026, 12, 1, 16, 1)) == []
    assert schedules.make_due_arenas(at(2026, 12, 1, 16, 59)) == []
    assert schedules.make_due_arenas(at(2026, 12, 2, 15, 59)) == []
    next_day = schedules.make_due_arenas(at(2026, 12, 2, 16, 0))
    assert [Arena.objects.get(pk=pk).starts_at for pk in next_day] == [at(2026, 12, 2, 17, 0)]
    assert Arena.objects.filter(schedule=evening).count() == 2


def test_the_daily_time_is_read_in_the_schedules_own_time_zone():
    schedule(time_zone="Asia/Vladivostok", daily_at=time(20, 0))  # UTC+10
    made = schedules.make_due_arenas(at(2026, 12, 1, 9, 0))
    assert [Arena.objects.get(pk=pk).starts_at for pk in made] == [at(2026, 12, 1, 10, 0)]


def test_an_hourly_arena_is_made_every_hour_from_the_first_start():
    hourly = schedule(name="Быстрый подкидной", daily_at=None, every_hours=1, minutes=30)
    hourly.first_start = at(2026, 12, 1, 12, 0)
    hourly.save()
    first = schedules.make_due_arenas(at(2026, 12, 1, 12, 30))
    assert [Arena.objects.get(pk=pk).starts_at for pk in first] == [at(2026, 12, 1, 13, 0)]
    assert schedules.make_due_arenas(at(2026, 12, 1, 12, 59)) == []
    second = schedules.make_due_arenas(at(2026, 12, 1, 13, 0))
    assert [Arena.objects.get(pk=pk).starts_at for pk in second] == [at(2026, 12, 1, 14, 0)]


def test_a_lead_longer_than_the_interval_makes_each_start_within_it_once():
    schedule(daily_at=None, every_hours=1, first_start=at(2026, 12, 1, 12, 0), lead_minutes=150)
    made = schedules.make_due_arenas(at(2026, 12, 1, 12, 30))
    starts = [at(2026, 12, 1, hour, 0) for hour in (13, 14, 15)]
    assert [Arena.objects.get(pk=pk).starts_at for pk in made] == starts
    assert schedules.make_due_arenas(at(2026, 12, 1, 13, 29)) == []
    later = schedules.make_due_arenas(at(2026, 12, 1, 13, 30))
    assert [Arena.objects.get(pk=pk).starts_at for pk in later] == [at(2026, 12, 1, 16, 0)]


def test_nothing_is_made_before_the_first_start_nor_for_a_start_already_past():
    hourly = schedule(daily_at=None, every_hours=2, first_start=at(2026, 12, 5, 10, 0))
    assert schedules.make_due_arenas(at(2026, 12, 1, 10, 0)) == []
    # The ticker was down for a day: the starts it missed are not made late.
    ArenaSchedule.objects.filter(pk=hourly.pk).update(last_start=at(2026, 12, 5, 10, 0))
    made = schedules.make_due_arenas(at(2026, 12, 6, 11, 30))
    assert [Arena.objects.get(pk=pk).starts_at for pk in made] == [at(2026, 12, 6, 12, 0)]


def test_a_schedule_turned_off_makes_nothing():
    schedule(active=False)
    assert schedules.make_due_arenas(at(2026, 12, 1, 16, 30)) == []
    assert not Arena.objects.exists()


def test_a_start_makes_one_arena_even_if_the_schedule_forgot_it_made_one():
    evening = schedule()
    schedules.make_due_arenas(at(2026, 12, 1, 16, 0))
    ArenaSchedule.objects.filter(pk=evening.pk).update(last_start=None)
    assert schedules.make_due_arenas(at(2026, 12, 1, 16, 30)) == []
    assert Arena.objects.filter(schedule=evening).count() == 1


def test_the_arena_made_starts_and_ends_on_the_ticker_as_any_other():
    schedule(minutes=30)
    (arena_id,) = schedules.make_due_arenas(at(2026, 12, 1, 16, 0))
    services.tick(at(2026, 12, 1, 17, 0))
    assert Arena.objects.get(pk=arena_id).status == Arena.Status.RUNNING
    services.tick(at(2026, 12, 1, 17, 30))
    assert Arena.objects.get(pk=arena_id).status == Arena.Status.FINISHED


def test_the_games_ticker_makes_the_arena_that_is_due():
    from games import signals

    now = timezone.now()
    schedule(daily_at=None, every_hours=1, first_start=now + timedelta(minutes=30))
    signals.ticked.send(sender=None)
    signals.ticked.send(sender=None)
    assert list(Arena.objects.values_list("starts_at", flat=True)) == [now + timedelta(minutes=30)]


@pytest.mark.parametrize(
    "fields, message",
    [
        ({"every_hours": 1}, "not both"),
        ({"daily_at": None}, "not neither"),
        ({"time_zone": "Moscow/Nowhere"}, "Unknown time zone"),
    ],
)
def test_a_schedule_that_says_no_clear_time_is_refused(fields, message):
    values = {
        "name": "x",
        "variant": RuleVariant.objects.get(slug="classic"),
        "daily_at": time(20, 0),
        "first_start": at(2026, 12, 1),
    }
    values.update(fields)
    with pytest.raises(ValidationError, match=message):
        ArenaSchedule(**values).full_clean()


TICKERS = 4


@pytest.mark.django_db(transaction=True)
def test_tickers_running_at_once_make_the_arena_once():
    schedule()
    now = at(2026, 12, 1, 16, 30)
    start = threading.Barrier(TICKERS)
    made: list[int] = []
    failures: list[BaseException] = []

    def tick() -> None:
        try:
            start.wait()
            made.extend(schedules.make_due_arenas(now))
        except BaseException as error:  # reported below, not lost in the thread
            failures.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=tick) for _ in range(TICKERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert len(made) == 1
    assert list(Arena.objects.values_list("starts_at", flat=True)) == [at(2026, 12, 1, 17, 0)]


def test_an_admin_schedules_a_daily_arena_and_a_bad_recurrence_is_refused():
    from django.contrib.auth import get_user_model
    from django.test import Client
    from django.urls import reverse

    admin = get_user_model().objects.create_superuser(username="root", password="pw-root")
    client = Client()
    client.force_login(admin)
    form = {
        "name": "Вечерний турнир",
        "variant": RuleVariant.objects.get(slug="classic").pk,
        "players_per_table": 2,
        "turn_seconds": 20,
        "minutes": 60,
        "min_rated_games": 0,
        "bot_wait_seconds": 30,
        "bot_level": "medium",
        "daily_at": "20:00",
        "time_zone": "Europe/Moscow",
        "first_start_0": "2026-12-01",
        "first_start_1": "00:00:00",
        "lead_minutes": 60,
        "active": "on",
    }
    both = {**form, "every_hours": 2}
    refused = client.post(reverse("admin:arena_arenaschedule_add"), both)
    assert refused.status_code == 200
    assert "not both" in refused.content.decode()
    assert not ArenaSchedule.objects.exists()
    response = client.post(reverse("admin:arena_arenaschedule_add"), form)
    assert response.status_code == 302, response.content.decode()[:2000]
    made = schedules.make_due_arenas(at(2026, 12, 1, 16, 0))
    assert [Arena.objects.get(pk=pk).starts_at for pk in made] == [at(2026, 12, 1, 17, 0)]


def test_arenas_made_by_hand_may_share_a_start():
    # The one-arena-per-start rule binds a schedule's arenas only.
    start = at(2026, 12, 1, 17, 0)
    for name in ("A", "B"):
        Arena.objects.create(
            name=name, variant=RuleVariant.objects.get(slug="classic"), starts_at=start
        )
    assert Arena.objects.filter(starts_at=start).count() == 2
