"""Sharing in Chromium: the device's share sheet where the browser has one, else the
messengers' links, each carrying the address shared (a replay's step, a table's
invite link)."""

from __future__ import annotations

from urllib.parse import quote

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games import services
from games.models import RuleVariant
from tests.analysis.helpers import analysed_match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NO_SHARE_SHEET = "delete Navigator.prototype.share;"
RECORDED_SHARE_SHEET = """
Navigator.prototype.share = function (data) { window.sharedData = data; return Promise.resolve(); };
"""


@pytest.fixture(autouse=True)
def quick_analyses(settings, no_puzzle_search):
    from tests.analysis.conftest import IMMEDIATE

    settings.TASKS = IMMEDIATE
    settings.ANALYSIS_SECONDS = 0.002
    settings.ANALYSIS_SAMPLES = 2


def signed_in(browser, live_server_url: str, user, script: str, **options):
    client = Client()
    client.force_login(user)
    context = browser.new_context(**options)
    context.set_default_timeout(15_000)
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server_url}]
    )
    context.add_init_script(script)
    return context, context.new_page()


def test_without_a_share_sheet_the_links_carry_the_replays_step(browser, live_server_url):
    match, _deal, _row = analysed_match()
    anna = get_user_model().objects.get(username="anna")
    context, page = signed_in(
        browser,
        live_server_url,
        anna,
        NO_SHARE_SHEET,
        locale="ru-RU",
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
    )
    page.goto(f"{live_server_url}/games/{match.pk}/replay/?step=7")
    share = page.get_by_test_id("share")
    assert share.inner_text() == "Поделиться шагом"
    share.click()
    telegram = page.locator("[data-share-to=telegram]")
    telegram.wait_for(state="visible")
    address = page.url
    assert "step=7" in address
    assert telegram.get_attribute("href") == (
        f"https://t.me/share/url?url={quote(address, safe='')}"
        f"&text={quote('Партия в дурака, на этом ходе', safe='')}"
    )
    assert page.locator("[data-share-to=vk]").inner_text() == "ВКонтакте"
    assert quote(address, safe="") in page.locator("[data-share-to=whatsapp]").get_attribute("href")
    # Every link is on the phone's screen, not cut off at its edge.
    for link in page.locator(".share-links > *").all():
        box = link.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    page.screenshot(path="/tmp/share-ru-phone.png")
    context.close()


def test_with_a_share_sheet_the_invite_link_goes_to_it(browser, live_server_url):
    host = get_user_model().objects.create_user(username="vera", password="pw-vera-12345")
    table = services.create_match(host, RuleVariant.objects.get(slug="classic"), 3, is_private=True)
    context, page = signed_in(
        browser,
        live_server_url,
        host,
        RECORDED_SHARE_SHEET,
        locale="en-US",
        viewport={"width": 1200, "height": 900},
    )
    page.goto(f"{live_server_url}/games/{table.pk}/")
    page.wait_for_selector('#connection-state[data-state="open"]')
    page.get_by_test_id("share").click()
    page.wait_for_function("() => window.sharedData !== undefined")
    shared = page.evaluate("window.sharedData")
    assert shared["url"] == f"{live_server_url}/games/join/{table.invite_token}/"
    assert shared["text"] == "Play Durak with me: take a seat at my table."
    # The sheet took it: the fallback links stay closed.
    assert not page.locator("[data-share-to=telegram]").is_visible()
    context.close()
