"""A big hand on a phone stays on one row: it fans tighter instead of wrapping, so
taking a bout never moves a card the player already holds down to a second row."""

from __future__ import annotations

import pytest

from durak.engine import Rules
from tests.browser.hand_table import dealt_table
from tests.browser.test_table_browser import PHONE, Player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HANDS = [
    [
        "6S",
        "6C",
        "6H",
        "7S",
        "7C",
        "7H",
        "8S",
        "8C",
        "8H",
        "9S",
        "9C",
        "9H",
        "TS",
        "TC",
        "TH",
        "JS",
    ],
    [
        "JC",
        "JH",
        "QS",
        "QC",
        "QH",
        "KS",
        "KC",
        "KH",
        "AS",
        "AC",
        "AH",
        "6D",
        "7D",
        "8D",
        "9D",
        "TD",
    ],
]


@pytest.mark.parametrize("width", [PHONE["width"], 320])
@pytest.mark.parametrize("held", [11, 16])
def test_a_hand_of_up_to_sixteen_cards_keeps_one_row(browser, live_server_url, width, held):
    me = Player(browser, live_server_url, "Ада", "ru", viewport={**PHONE, "width": width})
    hands = [HANDS[0][:held], HANDS[1][:held]]
    match = dealt_table(
        me.user, "classic", hands, "JD", attacker=1, rules=Rules(players=2, hand_size=held)
    )
    me.page.goto(f"{live_server_url}/games/{match.pk}/")
    me.page.wait_for_selector(f"#table-hand .hand-card >> nth={held - 1}")
    tops = me.page.eval_on_selector_all(
        "#table-hand .hand > li", "items => items.map((li) => li.getBoundingClientRect().top)"
    )
    rights = me.page.eval_on_selector_all(
        "#table-hand .hand > li", "items => items.map((li) => li.getBoundingClientRect().right)"
    )
    assert len(tops) == held
    assert max(tops) - min(tops) <= 2, tops
    assert max(rights) <= width, rights
    me.context.close()
