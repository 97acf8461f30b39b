"""On a phone the site installs as an app, and with the network gone a page load shows
the site's own offline page rather than the browser's error."""

from __future__ import annotations

import pytest

from tests.conftest import CHROMIUM_ARGS, find_chromium

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def test_the_site_installs_and_says_when_it_is_offline(browser, live_server_url, tmp_path):
    # A profile of its own: Chromium installs no app from an incognito context, which
    # every other test's context is.
    context = browser.browser_type.launch_persistent_context(
        tmp_path, executable_path=find_chromium(), args=CHROMIUM_ARGS, locale="ru-RU", **PHONE
    )
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda msg: msg.type == "error" and errors.append(msg.text))
    page.goto(live_server_url + "/rules/")
    # The worker installs (storing the offline page) and takes charge of the page.
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")

    installability = context.new_cdp_session(page).send("Page.getInstallabilityErrors")
    assert installability["installabilityErrors"] == []

    assert not errors, errors
    context.set_offline(True)
    page.goto(live_server_url + "/leaderboard/")
    assert page.locator("[data-testid=offline] h1").inner_text() == "Нет связи с сервером"
    assert "No connection to the server" in page.inner_text("[data-testid=offline]")
    context.set_offline(False)
    errors.clear()  # the failed load is logged, as it should be
    page.goto(live_server_url + "/leaderboard/")
    assert not page.locator("[data-testid=offline]").count()
    assert not errors, errors
    context.close()
