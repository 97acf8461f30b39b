"""Recurring arenas: each active ``ArenaSchedule`` makes its next arena on the ticker,
``lead_minutes`` before the arena starts (docs/tournaments.md).

Exactly once across processes: the schedule's row is locked with ``skip_locked`` as
the pairing locks an arena's, so one ticker makes the arena while the others pass the
schedule by; the unique (schedule, start) of ``Arena`` refuses a second arena for the
same start even where the database takes no row locks.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from django.db import IntegrityError, transaction
from django.utils import timezone

from .models import Arena, ArenaSchedule, ArenaSettings
from .services import notify_arena_changed

# What a schedule copies onto each arena it makes: the settings both have (the
# documented ``Model._meta`` API lists them) and the variant, which each names itself.
COPIED_FIELDS = (
    "variant_id",
    *(field.attname for field in ArenaSettings._meta.get_fields()),
)
# A ticker that was down long makes no more than this many arenas of a schedule at once.
MOST_MADE_A_TICK = 24


def next_start(schedule: ArenaSchedule, after: datetime) -> datetime:
    """The schedule's first start strictly after ``after`` (and not before its first)."""
    if after < schedule.first_start:
        after = schedule.first_start - timedelta(microseconds=1)
    if schedule.every_hours:
        step = timedelta(hours=schedule.every_hours)
        steps = (after - schedule.first_start) // step + 1
        return schedule.first_start + steps * step
    zone = ZoneInfo(schedule.time_zone)
    day = after.astimezone(zone).date()
    while True:
        # Built in the zone, so 20:00 Moscow stays 20:00 there whatever UTC says.
        start = datetime.combine(day, schedule.daily_at, tzinfo=zone)
        if start > after:
            return start
        day += timedelta(days=1)


def make_due_arenas(now: datetime | None = None) -> list[int]:
    """Make the next arena of every active schedule whose start is within its lead;
    the ids of the arenas made.  A start already past is skipped, never made late."""
    now = now or timezone.now()
    made: list[int] = []
    for schedule in ArenaSchedule.objects.filter(active=True):
        # Read without a lock first: most ticks find nothing due and write nothing.
        if _due_start(schedule, now) is not None:
            made += _make_for(schedule.pk, now)
    return made


def _due_start(schedule: ArenaSchedule, now: datetime) -> datetime | None:
    """The schedule's next start if its arena is due to be made by ``now``."""
    start = next_start(schedule, max(schedule.last_start or now, now))
    if start - timedelta(minutes=schedule.lead_minutes) > now:
        return None
    return start


def _make_for(schedule_id: int, now: datetime) -> list[int]:
    made: list[int] = []
    with transaction.atomic():
        schedule = (
            ArenaSchedule.objects.select_for_update(skip_locked=True)
            .filter(pk=schedule_id, active=True)
            .first()
        )
        if schedule is None:  # another ticker holds it, or it was turned off
            return made
        for _ in range(MOST_MADE_A_TICK):
            start = _due_start(schedule, now)
            if start is None:
                break
            arena_id = _arena_for(schedule, start)
            if arena_id is not None:
                made.append(arena_id)
                notify_arena_changed(arena_id)
            schedule.last_start = start
        ArenaSchedule.objects.filter(pk=schedule.pk).update(last_start=schedule.last_start)
    return made


def _arena_for(schedule: ArenaSchedule, start: datetime) -> int | None:
    """Make the arena of ``start``; None when one exists already for it."""
    fields = {name: getattr(schedule, name) for name in COPIED_FIELDS}
    try:
        with transaction.atomic():
            arena = Arena.objects.create(schedule=schedule, starts_at=start, **fields)
    except IntegrityError:
        return None
    return arena.pk
