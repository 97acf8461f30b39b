"""A visitor who has not signed up taps «Играть» on a Russian phone and holds cards:
a guest account is made for this browser and a bot takes the free seat at once.  The
time from landing on the lobby to the hand on the screen is written out (the speed is
reported, not asserted: see docs/matchmaking.md)."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from games.models import Match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 900}}
SHOTS = Path("/tmp/shots-guest")


def test_a_visitor_taps_play_and_holds_cards_as_a_guest(browser, live_server_url):
    SHOTS.mkdir(exist_ok=True)
    context = browser.new_context(locale="ru-RU", **PHONE)
    context.set_default_timeout(20_000)
    page = context.new_page()
    landed = time.monotonic()
    page.goto(live_server_url + "/")
    play = page.get_by_role("button", name="Играть", exact=True)
    # On the first screen of the phone, without scrolling.
    box = play.bounding_box()
    assert box is not None and box["y"] + box["height"] <= PHONE["viewport"]["height"]
    page.screenshot(path=str(SHOTS / "lobby-visitor-phone-ru.png"))
    play.click()
    page.wait_for_url(re.compile(r".*/games/\d+/$"))
    page.wait_for_selector("#table-hand .hand-card")
    held = time.monotonic() - landed
    (SHOTS / "landing-to-cards.txt").write_text(f"{held:.2f} s\n")
    print(f"landing to cards in hand: {held:.2f} s")
    page.screenshot(path=str(SHOTS / "table-guest-phone-ru.png"))

    guest = get_user_model().objects.get()
    assert guest.is_guest and guest.username.startswith("Гость ")
    assert page.inner_text("[data-testid=user-menu]") == guest.username
    match = Match.objects.get()
    assert not match.is_rated
    assert [s.user_id for s in match.seats.order_by("number") if s.user_id] == [guest.pk]

    # The guest's menu says how to keep the games: sign up.
    page.get_by_test_id("user-menu").click()
    keep = page.get_by_role("link", name="Зарегистрироваться: сохранить партии и играть на рейтинг")
    assert keep.get_attribute("href") == "/accounts/signup/"
    page.screenshot(path=str(SHOTS / "guest-menu-phone-ru.png"))
    context.close()


def test_the_lobby_offers_an_english_visitor_to_play_at_once(browser, live_server_url):
    SHOTS.mkdir(exist_ok=True)
    context = browser.new_context(locale="en-US", **DESKTOP)
    page = context.new_page()
    page.goto(live_server_url + "/")
    form = page.locator("form.guest-play")
    assert "play at once as a guest" in form.inner_text()
    form.get_by_role("button", name="Play now", exact=True).wait_for()
    page.screenshot(path=str(SHOTS / "lobby-visitor-desktop-en.png"))
    context.close()
