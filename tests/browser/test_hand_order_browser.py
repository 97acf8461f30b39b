"""The hand's order: trumps at the right by default, by suit or by rank from a control
that the page remembers, through pushes and a reload, in English and in Russian."""

from __future__ import annotations

import pytest

from tests.browser.hand_table import TICK_SECONDS, bot_moves, dealt_table
from tests.browser.test_table_browser import DESKTOP, NEWER_VERSION, PHONE, Player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ORDER = """() => [...document.querySelectorAll("#table-hand .hand .hand-card")].map(
  (el) => el.dataset.card)"""
PRESSED = """() => [...document.querySelectorAll("#table-hand .hand-sort")].map(
  (el) => [el.textContent.trim(), el.getAttribute("aria-pressed")])"""

# Diamonds are trumps.  The player holds the ace and the nine of trumps among plain
# cards; the bot leads and throws in, so pushes come while the player looks.
HANDS = [["AD", "7S", "KH", "6C", "TS", "9D"], ["6S", "8C", "JC", "QC", "KC", "AC"]]
BY_SUIT = ["7S", "TS", "KH", "6C", "9D", "AD"]
BY_RANK = ["6C", "7S", "TS", "KH", "9D", "AD"]


@pytest.fixture(autouse=True)
def quick_ticks(settings) -> None:
    settings.GAMES_TICK_SECONDS = TICK_SECONDS


def open_table(player: Player, lang: str):
    match = dealt_table(player.user, "classic", HANDS, "7D", attacker=1)
    player.page.goto(f"{player.url}/games/{match.pk}/")
    player.page.wait_for_selector('#connection-state[data-state="open"]')
    player.page.wait_for_selector("#table-hand .hand-card")
    return match


def bot_leads(player: Player, match, action: str) -> None:
    before = player.version()
    bot_moves(match, action)
    player.page.wait_for_function(NEWER_VERSION, arg=before)


def test_the_hand_sorts_by_suit_or_rank_and_keeps_the_choice_on_a_desktop(browser, live_server_url):
    me = Player(browser, live_server_url, "Nina", "en", viewport=DESKTOP)
    match = open_table(me, "en")
    page = me.page
    assert page.evaluate(ORDER) == BY_SUIT
    assert page.evaluate(PRESSED) == [["by suit", "true"], ["by rank", "false"]]

    page.get_by_role("button", name="by rank").click()
    assert page.evaluate(ORDER) == BY_RANK
    assert page.evaluate(PRESSED) == [["by suit", "false"], ["by rank", "true"]]
    # A push re-renders the hand: the order stays the one chosen.
    bot_leads(me, match, "1 attack 6S")
    assert page.evaluate(ORDER) == BY_RANK
    assert page.evaluate(PRESSED)[1] == ["by rank", "true"]
    # The card that can beat is still the one the page lets the player beat with.
    beaters = page.locator('#table-hand .hand-card:not([disabled])[data-beats="6S"]')
    assert sorted(beaters.evaluate_all("(els) => els.map((el) => el.dataset.card)")) == [
        "7S",
        "9D",
        "AD",
        "TS",
    ]
    # The choice outlives the page.
    page.reload()
    page.wait_for_selector('#connection-state[data-state="open"]')
    assert page.evaluate(ORDER) == BY_RANK
    page.get_by_role("button", name="by suit").click()
    assert page.evaluate(ORDER) == BY_SUIT
    page.reload()
    page.wait_for_selector("#table-hand .hand-card")
    assert page.evaluate(ORDER) == BY_SUIT
    me.check_page()
    me.context.close()


def test_the_order_control_reads_in_russian_on_a_phone(browser, live_server_url):
    me = Player(browser, live_server_url, "Вера", "ru", viewport=PHONE)
    match = open_table(me, "ru")
    page = me.page
    assert page.evaluate(ORDER) == BY_SUIT
    assert page.evaluate(PRESSED) == [["по масти", "true"], ["по старшинству", "false"]]
    page.get_by_role("button", name="по старшинству").click()
    bot_leads(me, match, "1 attack 6S")
    assert page.evaluate(ORDER) == BY_RANK
    # The control and the player's line share one line inside the screen.
    head = page.locator("#table-hand .hand-head").bounding_box()
    control = page.locator("#table-hand .hand-order").bounding_box()
    assert control["x"] + control["width"] <= head["x"] + head["width"] + 0.5
    assert abs(control["y"] - head["y"]) < head["height"]
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    me.check_page()
    me.context.close()
