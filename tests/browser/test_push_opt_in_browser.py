"""The opt-in to push notifications, as a player sees it: a button on the table (and
on the own profile) in a browser that can take pushes, on a site with VAPID keys;
none in a browser without PushManager.

Headless Chromium here reaches no real push service, so subscribing stops at the
browser's push service: the page says so and the site stores nothing.  The sending
side is tested against a push service of the tests' own (tests/notifications/).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import http_ece
import pytest

from games import services as games
from games.models import Match, RuleVariant, Seat
from games.services import clock
from notifications.models import PushSubscription
from notifications.tasks import send_push
from tests.browser.hand_table import off_the_loop
from tests.browser.people import signed_in_page
from tests.matchmaking.conftest import make_user
from tests.notifications.keys import Browser, KeyPair
from tests.notifications.push_service import running_push_service

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


# A background tab whose browser has pushes on: hidden, with a subscription (this
# machine reaches no push service to make a real one).
HIDDEN_AND_SUBSCRIBED = """
Object.defineProperty(document, "visibilityState", { get: () => "hidden" });
Object.defineProperty(document, "hidden", { get: () => true });
PushManager.prototype.getSubscription = () =>
  Promise.resolve({ endpoint: "https://push.example.net/x", toJSON: () => ({}) });
"""
NOTICES = """async () => (await (await navigator.serviceWorker.ready).getNotifications())
  .map((notice) => [notice.title, notice.body, notice.tag])"""


def notices_shown(page) -> list[list[str]]:
    """The notices the page's service worker shows, once there is one (or 30 s on)."""
    for _ in range(300):
        shown = page.evaluate(NOTICES)
        if shown:
            return shown
        page.wait_for_timeout(100)
    return page.evaluate(NOTICES)


def acting(match: Match) -> list[int]:
    """The seats the table waits for, as the page marks them: a player who may throw in
    but need not is not among them."""
    match.refresh_from_db()
    return clock.required_seats(games.load_game(match))


def playable(action) -> bool:
    return action.kind not in ("resign", "swap")


def play_one(match: Match, seat: int) -> None:
    """The seat's first legal move (never a resign), applied as a socket applies it."""

    def move() -> None:
        match.refresh_from_db()
        game = games.load_game(match)
        action = next(filter(playable, game.legal_actions(seat)))
        games.apply_action(match.pk, seat, str(action), version=match.version)

    off_the_loop(move)


def test_a_table_open_in_the_background_shows_the_turn_itself(push_keys, browser, live_server_url):
    anna, boris = make_user(), make_user()
    variant = RuleVariant.objects.get(slug="classic")
    match = off_the_loop(lambda: games.create_match(anna, variant, 2))
    off_the_loop(lambda: games.join_match(match, boris))
    mine = Seat.objects.get(match=match, user=anna).number
    page = signed_in_page(browser, live_server_url, anna, "ru", PHONE)
    page.context.grant_permissions(["notifications"], origin=live_server_url)
    page.add_init_script(HIDDEN_AND_SUBSCRIBED)
    page.goto(f"{live_server_url}/games/{match.pk}/")
    # Ready once it knows the subscription (on a phone in play it sits under «Подробнее»).
    page.wait_for_function(f"() => !document.querySelector('{OPT_IN}').hidden")
    while mine in acting(match):
        play_one(match, mine)
    page.locator("#table-hand .me.acting").wait_for(state="detached")
    assert page.evaluate(NOTICES) == []
    while mine not in acting(match):
        play_one(match, acting(match)[0])
    page.locator("#table-hand .me.acting").wait_for()
    # The notice follows the push that made the turn the player's, a moment later.
    assert notices_shown(page) == [
        ["Ваш ход", f"Подкидной #{match.pk} · Дурак Онлайн", f"turn-{match.pk}"]
    ]


def test_a_sent_push_shows_on_the_second_device(push_keys, browser, live_server_url):
    """The worker's push, taken by the tests' push service and opened with the
    browser's keys, delivered to Boris's browser as its push service would: his
    service worker shows it, in Russian, while no page of his has the table open."""
    boris = make_user()
    device = Browser.new()
    with running_push_service() as service:
        info = device.subscription(f"{service.origin}/device")
        PushSubscription.objects.create(
            user=boris, endpoint=info["endpoint"], **info["keys"], language="ru"
        )
        assert send_push.call(boris.pk, "turn", match_id=42) == 1
        ((_path, _headers, body),) = service.received
    payload = http_ece.decrypt(body, private_key=device.keys.private, auth_secret=device.secret)

    page = signed_in_page(browser, live_server_url, boris, "ru", PHONE)
    page.context.grant_permissions(["notifications"], origin=live_server_url)
    cdp = page.context.new_cdp_session(page)
    registrations: list[dict] = []
    cdp.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda event: registrations.extend(event["registrations"]),
    )
    cdp.send("ServiceWorker.enable")
    page.goto(f"{live_server_url}/rules/")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    (registration,) = {r["registrationId"] for r in registrations if not r["isDeleted"]}
    cdp.send(
        "ServiceWorker.deliverPushMessage",
        {"origin": live_server_url + "/", "registrationId": registration, "data": payload.decode()},
    )
    assert notices_shown(page) == [["Ваш ход", "Стол №42 ждёт вашего хода.", "turn-42"]]
    assert json.loads(payload)["url"] == "/games/42/"
