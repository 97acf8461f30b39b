"""A careful player's move at the table page, shared by the browser tests."""

from __future__ import annotations

from playwright.sync_api import Locator, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

# The cards in the player's hand that it may lead or throw in now.
LEAD_CARDS = '#table-hand .hand-card:not([disabled])[data-lead]:not([data-lead=""])'

# Where a finger lands on a held card: its left strip, which the next card of a fanned
# hand never covers (a big hand on a phone overlaps each card by up to 72%, so the
# card's middle, where a click goes by default, is under its neighbour).
VISIBLE_STRIP = {"x": 6, "y": 24}


def tap_card(card: Locator, *, double: bool = False, timeout: float | None = None) -> None:
    """Tap (or double-tap) a card in the hand where a player sees it."""
    if double:
        card.dblclick(position=VISIBLE_STRIP, timeout=timeout)
    else:
        card.click(position=VISIBLE_STRIP, timeout=timeout)


def click_a_legal_move(page: Page, *, double_click_lead: bool = False) -> bool:
    """Click one legal move: beat if a card can, else done, take, or lead.

    False when there is nothing to click, or when a bot moved between looking and
    clicking and the control is gone (the next step looks again).
    """
    controls = page.locator("#table-controls")
    beaters = page.locator(
        '#table-hand .hand-card:not([disabled])[data-beats]:not([data-beats=""])'
    )
    leads = page.locator(LEAD_CARDS)
    try:
        if beaters.count():
            tap_card(beaters.first, timeout=2000)
            # A tap beats at once when it was the one legal beat; otherwise it chose
            # the card, and the attack card it beats is tapped next.
            targets = page.locator("#table-felt .attack-target.can-beat")
            if targets.count():
                targets.first.click(timeout=2000)
        elif controls.locator(".control-done").count():
            controls.locator(".control-done").first.click(timeout=2000)
        elif controls.locator(".control-take").count():
            controls.locator(".control-take").first.click(timeout=2000)
        elif leads.count():
            tap_card(leads.first, double=double_click_lead, timeout=2000)
        else:
            return False
    except PlaywrightTimeout:
        return False
    return True
