"""A daily table aborted by a moderator or the site gives the player the try back."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from daily import services
from daily.models import DailyDeal, DailyEntry
from games import services as games
from games.models import Match, RuleVariant

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def short_searches(settings):
    settings.GAMES_BOT_PLAYOUTS = 40


def person(name: str, **extra):
    return get_user_model().objects.create_user(username=name, password="pw-" + name, **extra)


def classic_today() -> DailyDeal:
    return services.deal_of_the_day(RuleVariant.objects.get(slug="classic"))


def daily_page(user, language: str) -> str:
    client = Client()
    client.force_login(user)
    response = client.get(reverse("daily:today"), HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return response.content.decode()


def test_a_moderators_abort_gives_the_try_back_and_keeps_the_record():
    daily = classic_today()
    anna = person("anna")
    first = services.start_daily(anna, daily)
    games.abort_match(first.match_id, "a fault at the table", by=person("mod", is_staff=True))

    first.refresh_from_db()
    assert first.aborted and first.result == "" and first.finished_at is not None
    assert services.board(daily).count() == 0 and services.field_of(daily).players == 0
    assert services.streak(anna) == 0
    assert "stopped and does not count" in daily_page(anna, "en")
    assert "не считается" in daily_page(anna, "ru")

    second = services.start_daily(anna, daily)
    assert second.pk != first.pk
    assert Match.objects.get(pk=second.match_id).status == Match.Status.PLAYING
    # The aborted try stays on record; a third try is refused as before.
    assert DailyEntry.objects.filter(daily=daily, user=anna).count() == 2
    with pytest.raises(games.Refused):
        services.start_daily(anna, daily)
    assert "stopped and does not count" not in daily_page(anna, "en")


def test_a_table_the_player_stopped_themselves_still_counts():
    daily = classic_today()
    anna = person("anna")
    entry = services.start_daily(anna, daily)
    games.abort_match(entry.match_id, "left", by=anna)
    entry.refresh_from_db()
    assert not entry.aborted
    with pytest.raises(games.Refused) as refused:
        services.start_daily(anna, daily)
    assert refused.value.code == "played"
