"""Dates on the pages read in the reader's own clock, named by the browser's cookie."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from daily import services as daily

pytestmark = pytest.mark.django_db

JOINED = datetime(2026, 11, 27, 22, 30, tzinfo=UTC)


def profile_in(zone: str | None) -> str:
    get_user_model().objects.create_user("sonya", date_joined=JOINED)
    client = Client(headers={"accept-language": "en"})
    if zone is not None:
        client.cookies["tz"] = zone
    return client.get("/u/sonya/").content.decode()


@pytest.mark.parametrize(
    ("zone", "day"),
    [
        ("Asia/Vladivostok", "Nov. 28, 2026"),  # 08:30 the next morning there
        ("America/New_York", "Nov. 27, 2026"),
        (None, "Nov. 27, 2026"),  # no cookie: the site's TIME_ZONE (UTC)
        ("../../etc/passwd", "Nov. 27, 2026"),  # not a zone: ignored
        ("Mars/Olympus_Mons", "Nov. 27, 2026"),
    ],
)
def test_a_date_reads_in_the_zone_the_browser_names(zone, day):
    assert f"Playing since {day}" in profile_in(zone)


def test_the_daily_deals_day_is_the_sites_whatever_the_readers_zone(settings):
    utc_day = timezone.localdate(timezone=UTC)
    with timezone.override("Pacific/Kiritimati"):  # UTC+14: often a day ahead
        assert daily.today() == utc_day
    with timezone.override("Pacific/Pago_Pago"):  # UTC-11
        assert daily.today() == utc_day
