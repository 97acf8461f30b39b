"""The settings an arena and a schedule share (``ArenaSettings``): a schedule copies
every one of them onto the arenas it makes, and sharing them changed no table."""

from __future__ import annotations

from datetime import UTC, datetime, time
from io import StringIO

import pytest
from django.core.management import call_command

from arena import schedules
from arena.models import Arena, ArenaSchedule
from games.models import BotLevel, RuleVariant

# A value other than the default for every shared setting.
SETTINGS = {
    "name": "Ночной перевод",
    "players_per_table": 3,
    "turn_seconds": 15,
    "minutes": 45,
    "is_rated": True,
    "min_rating": 1550,
    "min_rated_games": 7,
    "min_reliability": 88,
    "password": "nochnoy",
    "bots_allowed": True,
    "bot_wait_seconds": 40,
    "bot_level": BotLevel.HARD,
}


@pytest.mark.django_db
def test_a_schedule_copies_every_setting_onto_its_arena():
    variant = RuleVariant.objects.get(slug="classic")
    schedule = ArenaSchedule.objects.create(
        variant=variant,
        daily_at=time(20, 0),
        time_zone="UTC",
        first_start=datetime(2026, 12, 1, tzinfo=UTC),
        **SETTINGS,
    )
    (made,) = schedules.make_due_arenas(datetime(2026, 12, 1, 19, 30, tzinfo=UTC))
    arena = Arena.objects.get(pk=made)
    assert {name: getattr(arena, name) for name in SETTINGS} == SETTINGS
    assert (arena.variant, arena.schedule) == (variant, schedule)
    assert arena.is_private and arena.invite_token  # a private arena gets its own link
    assert set(SETTINGS) | {"variant_id"} == set(schedules.COPIED_FIELDS)


# The schema editor sqlmigrate uses cannot open inside the test's transaction on SQLite.
@pytest.mark.django_db(transaction=True)
def test_sharing_the_settings_changed_nothing_in_the_database():
    out = StringIO()
    call_command("sqlmigrate", "arena", "0010", stdout=out)
    statements = [
        line
        for line in out.getvalue().splitlines()
        if line.strip() and not line.startswith("--") and line not in ("BEGIN;", "COMMIT;")
    ]
    assert statements == []
