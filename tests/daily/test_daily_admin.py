"""The daily deals and their tries in the admin."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from daily import services
from games.models import RuleVariant

pytestmark = pytest.mark.django_db


def test_the_admin_lists_and_shows_daily_deals_and_tries():
    player = get_user_model().objects.create_user(username="anna", password="pw-anna")
    entry = services.start_daily(
        player, services.deal_of_the_day(RuleVariant.objects.get(slug="classic"))
    )
    admin = get_user_model().objects.create_superuser(username="root", password="pw-root")
    client = Client()
    client.force_login(admin)
    for url in (
        reverse("admin:daily_dailydeal_changelist"),
        reverse("admin:daily_dailydeal_change", args=[entry.daily_id]),
        reverse("admin:daily_dailyentry_changelist"),
        reverse("admin:daily_dailyentry_change", args=[entry.pk]),
    ):
        response = client.get(url)
        assert response.status_code == 200, url
        assert "anna" in response.content.decode() or "Podkidnoy" in response.content.decode()
    # Deals are made by the day's first visit, each with a fresh seed: none by hand.
    assert client.get(reverse("admin:daily_dailydeal_add")).status_code == 403
