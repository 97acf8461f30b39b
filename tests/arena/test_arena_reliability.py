"""An arena's least reliability: set by an admin on an arena or a schedule (which
passes it to each arena it makes), named on the page, and a player below it refused
with a message saying what the arena asks and where they stand, nothing changed."""

from __future__ import annotations

from datetime import UTC, datetime, time

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import translation

from arena import schedules, services
from arena.models import Arena, ArenaPlayer, ArenaSchedule
from games.models import RuleVariant
from games.services import Refused

from .conftest import entry, person, running_arena

pytestmark = pytest.mark.django_db


def reliable(score: int):
    user = person()
    get_user_model().objects.filter(pk=user.pk).update(reliability=score)
    user.refresh_from_db()
    return user


def refused_join(user, arena) -> Refused:
    before = list(ArenaPlayer.objects.values())
    with pytest.raises(Refused) as refusal:
        services.join(user, arena)
    assert list(ArenaPlayer.objects.values()) == before
    return refusal.value


def test_a_player_below_the_least_reliability_is_refused_and_nothing_changes():
    arena = running_arena(min_reliability=90)
    refusal = refused_join(reliable(89), arena)
    assert refusal.code == "reliability" and refusal.status == 403
    assert refusal.message == ("This arena asks for a reliability of at least 90; yours is 89.")
    services.join(reliable(90), arena)
    assert ArenaPlayer.objects.filter(arena=arena).count() == 1


def test_the_refusal_speaks_russian_and_the_join_button_answers_with_it():
    arena = running_arena(min_reliability=80)
    low = reliable(45)
    with translation.override("ru"):
        assert refused_join(low, arena).message == (
            "Для этой арены нужна надёжность не ниже 80; у вас 45."
        )
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(low)
    response = client.post(reverse("arena:join", args=[arena.pk]))
    assert response.status_code == 403
    assert "yours is 45" in response.content.decode()
    assert not ArenaPlayer.objects.exists()


def test_a_player_coming_back_below_it_stays_withdrawn():
    arena = running_arena()
    user = reliable(95)
    services.join(user, arena)
    services.withdraw(user, arena)
    Arena.objects.filter(pk=arena.pk).update(min_reliability=96)
    arena.refresh_from_db()
    assert refused_join(user, arena).code == "reliability"
    assert entry(arena, user).withdrawn is True


@pytest.mark.parametrize(
    ("language", "words"),
    [("en", "a reliability of at least 70"), ("ru", "надёжность не ниже 70")],
)
def test_the_page_names_it_among_the_conditions(language, words):
    arena = running_arena(min_reliability=70, min_rating=1600)
    page = Client(HTTP_ACCEPT_LANGUAGE=language).get(reverse("arena:detail", args=[arena.pk]))
    conditions = page.content.decode().split('data-testid="arena-conditions">')[1].split("</p>")[0]
    assert words in conditions
    no_condition = running_arena()
    page = Client().get(reverse("arena:detail", args=[no_condition.pk])).content.decode()
    assert "reliability of at least" not in page


def test_an_admin_sets_it_on_a_schedule_and_each_arena_made_asks_it():
    admin = get_user_model().objects.create_superuser(username="boss", password="pw-boss")
    client = Client()
    client.force_login(admin)
    form = {
        "name": "Надёжные",
        "variant": RuleVariant.objects.get(slug="classic").pk,
        "players_per_table": 2,
        "turn_seconds": 20,
        "minutes": 60,
        "min_rated_games": 0,
        "min_reliability": 101,
        "bot_wait_seconds": 30,
        "bot_level": "medium",
        "daily_at": "20:00",
        "time_zone": "Europe/Moscow",
        "first_start_0": "2026-12-01",
        "first_start_1": "00:00:00",
        "lead_minutes": 60,
        "active": "on",
    }
    refused = client.post(reverse("admin:arena_arenaschedule_add"), form)
    assert refused.status_code == 200 and not ArenaSchedule.objects.exists()
    response = client.post(
        reverse("admin:arena_arenaschedule_add"), {**form, "min_reliability": 85}
    )
    assert response.status_code == 302
    (made,) = schedules.make_due_arenas(datetime(2026, 12, 1, 16, 0, tzinfo=UTC))
    arena = Arena.objects.get(pk=made)
    assert arena.min_reliability == 85
    assert refused_join(reliable(84), arena).code == "reliability"


def test_an_admin_sets_it_on_an_arena():
    admin = get_user_model().objects.create_superuser(username="chief", password="pw-chief")
    client = Client()
    client.force_login(admin)
    assert 'name="min_reliability"' in client.get(reverse("admin:arena_arena_add")).content.decode()
    form = {
        "name": "Только надёжные",
        "variant": RuleVariant.objects.get(slug="classic").pk,
        "players_per_table": 2,
        "turn_seconds": 20,
        "starts_at_0": "2026-12-01",
        "starts_at_1": "20:00:00",
        "minutes": 30,
        "min_rated_games": 0,
        "min_reliability": 75,
        "bot_wait_seconds": 30,
        "bot_level": "medium",
        "players-TOTAL_FORMS": 0,
        "players-INITIAL_FORMS": 0,
    }
    response = client.post(reverse("admin:arena_arena_add"), form)
    assert response.status_code == 302, response.content.decode()[:3000]
    assert Arena.objects.get().min_reliability == 75


def test_a_schedule_without_it_makes_arenas_open_to_any_reliability():
    ArenaSchedule.objects.create(
        name="Для всех",
        variant=RuleVariant.objects.get(slug="classic"),
        daily_at=time(20, 0),
        first_start=datetime(2026, 12, 1, tzinfo=UTC),
    )
    (made,) = schedules.make_due_arenas(datetime(2026, 12, 1, 16, 30, tzinfo=UTC))
    arena = Arena.objects.get(pk=made)
    assert arena.min_reliability is None
    services.join(reliable(0), arena)
