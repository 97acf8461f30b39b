"""Beating the way the popular apps let a player beat: drag the card onto the attack
card (a mouse on an English desktop, a finger on a Russian phone), or one tap when
exactly one card of the hand can beat; the keyboard's two steps still work.

Each way sends the move the two taps send, and the server plays it: the test reads
the move from the database.  A tap on a card with a choice to make only chooses it,
and a card dropped beside the attack card plays nothing.
"""

from __future__ import annotations

import pytest

from games.models import Match
from tests.browser.hand_table import TICK_SECONDS, bot_moves, dealt_table
from tests.browser.people import signed_in_page
from tests.browser.test_table_browser import DESKTOP, NEWER_VERSION, PHONE, Player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Diamonds are trumps.  Against the bot's six of spades the player may beat with the
# eight of spades or the seven of trumps; against its seven of spades, once the seven
# of trumps is gone, with the eight of spades alone.
HANDS = [["7D", "8S", "8C", "8H", "9C", "9H"], ["6S", "6C", "6H", "7S", "7C", "7H"]]
TOUCH_PHONE = {"viewport": PHONE, "is_mobile": True, "has_touch": True}


@pytest.fixture(autouse=True)
def quick_ticks(settings) -> None:
    settings.GAMES_TICK_SECONDS = TICK_SECONDS


def last_move(match: Match) -> str:
    return match.moves.order_by("-seq").values_list("action", flat=True).first()


def version(page) -> int:
    return int(page.get_attribute("#table-version", "data-version"))


def bot_attacks(page, match: Match, action: str) -> None:
    before = version(page)
    bot_moves(match, action)
    page.wait_for_function(NEWER_VERSION, arg=before)


def centre(page, selector: str) -> tuple[float, float]:
    locator = page.locator(selector)
    locator.scroll_into_view_if_needed()
    box = locator.bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def mouse_drag(page, source: str, target: str) -> None:
    x, y = centre(page, source)
    to_x, to_y = centre(page, target)
    page.mouse.move(x, y)
    page.mouse.down()
    for step in range(1, 11):
        page.mouse.move(x + (to_x - x) * step / 10, y + (to_y - y) * step / 10)
    page.mouse.up()


def finger_drag(page, source: str, target: str) -> None:
    """A finger's drag, as the touch screen reports it."""
    x, y = centre(page, source)
    to_x, to_y = centre(page, target)
    cdp = page.context.new_cdp_session(page)
    try:
        cdp.send(
            "Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]}
        )
        for step in range(1, 11):
            point = {"x": x + (to_x - x) * step / 10, "y": y + (to_y - y) * step / 10}
            cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    finally:
        cdp.detach()


def card(code: str) -> str:
    return f'#table-hand .hand-card[data-card="{code}"]'


def attack(code: str) -> str:
    return f'#table-felt .attack-target[data-attack="{code}"]'


def test_drag_one_tap_and_the_keyboard_beat_on_a_desktop(browser, live_server_url):
    me = Player(browser, live_server_url, "Nina", "en", viewport=DESKTOP)
    match = dealt_table(me.user, "classic", HANDS, "6D", attacker=1)
    page = me.page
    page.goto(f"{live_server_url}/games/{match.pk}/")
    page.wait_for_selector('#connection-state[data-state="open"]')
    bot_attacks(page, match, "1 attack 6S")
    shown = version(page)

    # Two cards can beat: a tap chooses the card and plays nothing.
    page.locator(card("8S")).click()
    assert page.locator(f"{attack('6S')}.can-beat").count() == 1
    page.keyboard.press("Escape")
    # A card dropped on the talon, beside the attack card, plays nothing either.
    mouse_drag(page, card("7D"), "#table-felt .talon")
    page.wait_for_timeout(300)
    assert version(page) == shown and last_move(match) == "1 attack 6S"
    assert page.locator(".drag-card").count() == 0
    assert (
        page.locator("#table-hand .hand-card.selected, #table-hand .hand-card.dragging").count()
        == 0
    )

    # Dragged onto the attack card, it beats.
    mouse_drag(page, card("7D"), attack("6S"))
    page.wait_for_function(NEWER_VERSION, arg=shown)
    assert last_move(match) == "0 defend 6S 7D"

    # Now only the eight of spades beats the seven of spades: one tap plays it.
    bot_attacks(page, match, "1 attack 7S")
    shown = version(page)
    page.locator(card("8S")).click()

    page.wait_for_function(NEWER_VERSION, arg=shown)
    assert last_move(match) == "0 defend 7S 8S"

    # The keyboard: Enter on a card chooses it and goes to the attack card it beats,
    # Enter there beats.
    bot_attacks(page, match, "1 attack 6C")
    shown = version(page)
    page.locator(card("8C")).focus()
    page.keyboard.press("Enter")
    assert page.evaluate("() => document.activeElement.dataset.attack") == "6C"
    page.keyboard.press("Enter")
    page.wait_for_function(NEWER_VERSION, arg=shown)
    assert last_move(match) == "0 defend 6C 8C"
    me.check_page()
    me.context.close()


def test_a_finger_drags_a_card_onto_the_attack_card_on_a_phone(browser, live_server_url):
    me = Player(browser, live_server_url, "Вера", "ru", viewport=PHONE)
    match = dealt_table(me.user, "classic", HANDS, "6D", attacker=1)
    page = signed_in_page(browser, live_server_url, me.user, "ru", TOUCH_PHONE)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{live_server_url}/games/{match.pk}/")
    page.wait_for_selector('#connection-state[data-state="open"]')
    bot_attacks(page, match, "1 attack 6S")
    shown = version(page)
    top = page.evaluate("() => window.scrollY")
    finger_drag(page, card("8S"), attack("6S"))
    page.wait_for_function(NEWER_VERSION, arg=shown)
    assert last_move(match) == "0 defend 6S 8S"
    # The finger dragged the card, not the page.
    assert page.evaluate("() => window.scrollY") == top
    assert errors == []
    page.context.close()
