""" "Play now" in a real browser: people land at one table, a bot joins a lone player.

Russian on a phone and English on a desktop; the seated player is sent to the
table by the lobby socket, without reloading.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from games.models import Match, Seat
from matchmaking.models import Seek
from tests.browser.people import signed_in_page

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fresh_process_state"),
]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 900}}
PLAY = {"en": "Play now", "ru": "Играть"}
WAITING = {"en": "Looking for opponents", "ru": "Ищем соперников"}
SHOTS = Path("/tmp/shots-matchmaking")
SHOTS.mkdir(exist_ok=True)
# As long as a navigation may take (Playwright's own default for one).
NAVIGATION_MS = 30_000


@pytest.fixture
def quick_bots(settings) -> int:
    """Set before the server forks, so that its ticker seats bots after this wait."""
    settings.MATCHMAKING_BOT_SECONDS = 3
    return 3


def person(browser, url: str, name: str, language: str, device: dict):
    user = get_user_model().objects.create(username=name)
    page = signed_in_page(browser, url, user, language, device)
    page.goto(url + "/")
    page.wait_for_selector("#play-panel .play-now")
    return page, user


def choose(page, *, deck: str, speed: str, bots: bool) -> None:
    page.locator(f'.seek-form input[name="deck_size"][value="{deck}"]').check()
    page.select_option('.seek-form select[name="speed"]', speed)
    page.locator('.seek-form input[name="allow_bots"]').set_checked(bots)


def test_two_players_meet_at_one_table_and_a_third_with_other_wishes_waits(
    quick_bots, browser, live_server_url, tmp_path
):
    olga, olga_user = person(browser, live_server_url, "Olga", "ru", PHONE)
    # On a phone the button is on the first screen, without scrolling.
    box = olga.locator("#play-panel .play-now").bounding_box()
    assert box is not None and box["y"] + box["height"] <= PHONE["viewport"]["height"]
    olga.screenshot(path=str(tmp_path / "lobby-phone-ru.png"))
    choose(olga, deck="24", speed="fast", bots=False)
    olga.get_by_role("button", name=PLAY["ru"], exact=True).click()
    olga.wait_for_selector(f"#play-panel >> text={WAITING['ru']}")

    third, third_user = person(browser, live_server_url, "Tom", "en", PHONE)
    choose(third, deck="52", speed="fast", bots=False)
    third.get_by_role("button", name=PLAY["en"], exact=True).click()
    third.wait_for_selector(f"#play-panel >> text={WAITING['en']}")

    bob, bob_user = person(browser, live_server_url, "Bob", "en", DESKTOP)
    choose(bob, deck="24", speed="fast", bots=False)
    bob.get_by_role("button", name=PLAY["en"], exact=True).click()
    table_url = re.compile(rf"{re.escape(live_server_url)}/games/\d+/$")
    # Two navigations may race to the table (the answer to the click and the lobby
    # socket's news): the URL is awaited, not one navigation, which the other aborts.
    expect(bob).to_have_url(table_url, timeout=NAVIGATION_MS)
    # Olga was waiting in the lobby: its socket sends her to the same table.
    expect(olga).to_have_url(table_url, timeout=NAVIGATION_MS)
    assert olga.url == bob.url
    match = Match.objects.get(seats__user=olga_user)
    assert set(Seat.objects.filter(match=match).values_list("user_id", flat=True)) == {
        olga_user.pk,
        bob_user.pk,
    }
    assert match.engine_rules.deck_size == 24 and match.turn_seconds == 15
    olga.wait_for_selector("#table-hand .hand-card")
    # Tom wanted 52 cards: he is still looking, alone.
    assert third.locator("#play-panel").inner_text().count(WAITING["en"]) == 1
    assert Seek.objects.get(user=third_user).status == Seek.Status.WAITING
    third.get_by_role("button", name="Cancel").click()
    third.wait_for_selector("#play-panel .play-now")
    assert Seek.objects.get(user=third_user).status == Seek.Status.CANCELLED


ALONE = {
    "en": "Nobody else is looking for this game right now",
    "ru": "Сейчас эту игру больше никто не ищет",
}


@pytest.mark.parametrize(("language", "device"), [("ru", PHONE), ("en", DESKTOP)])
def test_play_now_alone_gets_a_bot_game_within_seconds(browser, live_server_url, language, device):
    page, user = person(browser, live_server_url, f"Solo{language}", language, device)
    choose(page, deck="36", speed="normal", bots=True)
    tapped = time.monotonic()
    page.get_by_role("button", name=PLAY[language], exact=True).click()
    announced = page.locator("#play-panel .seek-bot-wait")
    announced.wait_for()
    # Nobody else looks for this game: the panel says so and counts down the bot's seconds.
    assert ALONE[language] in announced.inner_text()
    page.screenshot(path=str(SHOTS / f"play-now-alone-{language}.png"))
    expect(page).to_have_url(re.compile(r".*/games/\d+/$"), timeout=NAVIGATION_MS)
    page.wait_for_selector("#table-hand .hand-card")
    print(f"tap to cards in hand: {time.monotonic() - tapped:.1f} s ({language})")
    page.screenshot(path=str(SHOTS / f"play-now-alone-table-{language}.png"))
    seats = Seat.objects.filter(match__seats__user=user).order_by("number")
    assert [s.user_id for s in seats] == [user.pk, None]
    assert seats[1].bot_level
    # The bot was seated within 3 s of the tap (the server's own clock).
    seek = Seek.objects.get(user=user)
    assert (seek.ended_at - seek.created_at).total_seconds() <= 3
