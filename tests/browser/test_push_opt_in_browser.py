"""The opt-in to push notifications, as a player sees it: a button on the table (and
on the own profile) in a browser that can take pushes, on a site with VAPID keys;
none in a browser without PushManager.

Headless Chromium here reaches no real push service, so subscribing stops at the
browser's push service: the page says so and the site stores nothing.  The sending
side is tested against a push service of the tests' own (tests/notifications/).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from games import services as games
from games.models import RuleVariant
from notifications.models import PushSubscription
from tests.browser.people import signed_in_page
from tests.matchmaking.conftest import make_user
from tests.notifications.keys import KeyPair

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 900}}
SHOTS = Path(os.environ.get("SHOTS_DIR", "/tmp/shots-push"))
OPT_IN = "[data-push-opt-in]"


@pytest.fixture
def push_keys(settings) -> KeyPair:
    """VAPID keys set before the live server forks, so the server has them too."""
    pair = KeyPair.new()
    settings.WEBPUSH_VAPID_PRIVATE_KEY = pair.private_b64
    settings.WEBPUSH_VAPID_PUBLIC_KEY = pair.public_b64
    return pair


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / name), full_page=True)


def test_the_table_offers_pushes_where_the_browser_takes_them(push_keys, browser, live_server_url):
    anna = make_user()
    match = games.create_match(anna, RuleVariant.objects.get(slug="classic"), 2)
    url = f"{live_server_url}/games/{match.pk}/"

    page = signed_in_page(browser, live_server_url, anna, "ru", PHONE)
    page.goto(url)
    button = page.locator(f"{OPT_IN} button")
    button.wait_for(state="visible")
    assert button.inner_text() == "Уведомлять, когда мой ход"
    assert page.locator(OPT_IN).get_attribute("data-key") == push_keys.public_b64
    shot(page, "table-push-opt-in-ru-phone.png")

    # The browser asks only on the press; granted here, the subscription stops at the
    # push service this machine cannot reach: a reason shown, nothing stored.
    page.context.grant_permissions(["notifications"], origin=live_server_url)
    button.click()
    reason = page.locator(f"{OPT_IN} [data-push-error]:not(:empty)")
    reason.wait_for()
    assert reason.inner_text() == "Этому браузеру не удалось включить уведомления."
    shot(page, "table-push-refused-ru-phone.png")
    assert button.inner_text() == "Уведомлять, когда мой ход" and button.is_enabled()
    assert not PushSubscription.objects.exists()

    # A browser without PushManager is offered nothing.
    bare = signed_in_page(browser, live_server_url, anna, "ru", PHONE)
    bare.add_init_script("delete window.PushManager;")
    bare.goto(url)
    bare.locator(f"{OPT_IN}[data-ready]").wait_for(state="attached")
    assert bare.locator(OPT_IN).is_hidden()


def test_the_own_profile_offers_pushes_in_english(push_keys, browser, live_server_url):
    nina = make_user()
    page = signed_in_page(browser, live_server_url, nina, "en", DESKTOP)
    page.goto(f"{live_server_url}/u/{nina.username}/")
    button = page.locator(f"{OPT_IN} button")
    button.wait_for(state="visible")
    assert button.inner_text() == "Notify me when it's my turn"
    assert "when it is your turn and the table is not open" in page.inner_text(".profile-push")
    shot(page, "profile-push-opt-in-en-desktop.png")


def test_without_keys_the_table_offers_nothing(browser, live_server_url):
    anna = make_user()
    match = games.create_match(anna, RuleVariant.objects.get(slug="classic"), 2)
    page = signed_in_page(browser, live_server_url, anna, "en", DESKTOP)
    page.goto(f"{live_server_url}/games/{match.pk}/")
    page.locator("#sound-toggle").wait_for()
    assert page.locator(OPT_IN).count() == 0
