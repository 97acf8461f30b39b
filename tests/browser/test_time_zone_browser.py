"""The browser names its time zone, and from the next page on dates read in it."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.contrib.auth import get_user_model

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_dates_follow_the_browsers_time_zone(browser, live_server_url):
    get_user_model().objects.create_user(
        "tanya", date_joined=datetime(2026, 11, 27, 22, 30, tzinfo=UTC)
    )
    context = browser.new_context(locale="ru-RU", timezone_id="Asia/Vladivostok")
    page = context.new_page()
    page.goto(live_server_url + "/u/tanya/")
    # The first page, before the browser said its zone: the site's clock (UTC).
    assert "Играет с 27 ноября 2026" in page.inner_text("main")
    page.wait_for_function("() => document.cookie.includes('tz=Asia/Vladivostok')")
    page.reload()
    assert "Играет с 28 ноября 2026" in page.inner_text("main")
    context.close()
