"""The hand never jumps under the player's finger, on a Russian phone (390x844).

The felt keeps room for six pairs and the lines above the hand keep their height, so
as attack cards land, are beaten, transferred and thrown in, up to six pairs, at two
seats and at a full table of eight, and as a take brings the hand to ten cards, the
hand keeps its place: measured from the DOM after every push of a bout
(``hand_positions`` says what counts as a move).

The bots' moves are the test's own (no bot worker runs), so each bout reaches six
pairs; the player's moves are taps on the page.  A last bout at six seats is played
against real bots.
"""

from __future__ import annotations

import time

import pytest

from durak.engine import Rules
from games import services
from games.models import Match, RuleVariant
from tests.browser.hand_positions import hand_moves, hand_states, record_hand
from tests.browser.hand_table import TICK_SECONDS, bot_moves, dealt_table, off_the_loop
from tests.browser.moves import tap_card
from tests.browser.test_seats_browser import bout_played
from tests.browser.test_table_browser import NEWER_VERSION, PHONE, Player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NEWER_OR_SAME = """(version) =>
  parseInt(document.getElementById("table-version").dataset.version, 10) >= version"""


@pytest.fixture(autouse=True)
def quick_ticks(settings) -> None:
    """Set before the server forks: a move made by the test reaches the page at once."""
    settings.GAMES_TICK_SECONDS = TICK_SECONDS


def open_table(player: Player, match: Match) -> None:
    page = player.page
    page.goto(f"{player.url}/games/{match.pk}/")
    page.wait_for_selector('#connection-state[data-state="open"]')
    page.wait_for_selector("#table-hand .hand-card")
    record_hand(page)


def shown(player: Player, match: Match) -> None:
    """Wait until the page shows the match as the database holds it."""
    match.refresh_from_db()
    player.page.wait_for_function(NEWER_OR_SAME, arg=match.version)


def tap_beat(player: Player, card: str, attack: str) -> None:
    """Beat ``attack`` with ``card`` by taps: one when it is the only beat, else two."""
    page = player.page
    before = player.version()
    tap_card(page.locator(f'#table-hand .hand-card[data-card="{card}"]'))
    target = page.locator(f'#table-felt .attack-target.can-beat[data-attack="{attack}"]')
    if target.count():
        target.click()
    page.wait_for_function(NEWER_VERSION, arg=before)


def tap_take(player: Player) -> None:
    before = player.version()
    player.page.locator("#table-controls .control-take").click()
    player.page.wait_for_function(NEWER_VERSION, arg=before)


def play(player: Player, match: Match, script: list[str]) -> None:
    """Each move in turn: a bot's through the service layer, the player's by taps."""
    for move in script:
        seat, kind, *cards = move.split()
        if seat == "0" and kind == "take":
            tap_take(player)
        elif seat == "0":
            assert kind == "defend", move
            tap_beat(player, cards[1], cards[0])
        else:
            bot_moves(match, move)
        shown(player, match)


def check_steady(player: Player, most_pairs: int) -> None:
    states = hand_states(player.page)
    assert max(state["pairs"] for state in states) == most_pairs, states
    assert hand_moves(states) == []
    player.check_page()


def test_six_pairs_at_two_seats_move_no_card_of_the_hand(browser, live_server_url):
    me = Player(browser, live_server_url, "Ада", "ru", viewport=PHONE)
    # The bot throws in six cards of two ranks; each has one or two beaters in the hand.
    hands = [["7D", "8S", "8C", "8H", "9C", "9H"], ["6S", "6C", "6H", "7S", "7C", "7H"]]
    match = dealt_table(me.user, "classic", hands, "6D", attacker=1)
    open_table(me, match)
    play(
        me,
        match,
        [
            "1 attack 6S",
            "0 defend 6S 7D",
            "1 attack 7S",
            "0 defend 7S 8S",
            "1 attack 6C",
            "0 defend 6C 8C",
            "1 attack 7C",
            "0 defend 7C 9C",
            "1 attack 6H",
            "0 defend 6H 8H",
            "1 attack 7H",
            "0 defend 7H 9H",
        ],
    )
    # Six beaten pairs end the bout: the felt is cleared, the hand dealt six new cards.
    me.page.wait_for_selector("#table-hand .hand-card >> nth=5")
    check_steady(me, most_pairs=6)
    me.context.close()


def test_a_take_that_brings_the_hand_to_ten_cards_moves_no_card_of_it(browser, live_server_url):
    me = Player(browser, live_server_url, "Ада", "ru", viewport=PHONE)
    # The player takes the bot's six and the three sixes it throws in: ten cards, which
    # must still lie in one row, the cards held before where they were.
    hands = [["7D", "8S", "9C", "TH", "JS", "QC"], ["6S", "6C", "6H", "6D", "KH", "KS"]]
    match = dealt_table(me.user, "classic", hands, "AD", attacker=1)
    open_table(me, match)
    play(
        me, match, ["1 attack 6S", "0 take", "1 attack 6C", "1 attack 6H", "1 attack 6D", "1 done"]
    )
    me.page.wait_for_selector("#table-hand .hand-card >> nth=9")
    check_steady(me, most_pairs=4)
    me.context.close()


def test_a_transfer_and_six_pairs_at_eight_seats_move_no_card_of_the_hand(browser, live_server_url):
    variant = RuleVariant.objects.get(slug="full-deck-52")
    variant.max_players, variant.hand_size = 8, 6
    variant.save()
    me = Player(browser, live_server_url, "Ада", "ru", viewport=PHONE)
    # Seat 6 attacks seat 7, who passes the attack on to the player with a two; the
    # defender's neighbours then throw in twos and threes, six cards in all.
    hands = [
        ["3S", "3C", "4H", "5H", "4D", "5D"],
        ["2D", "3D", "KS", "KH", "KD", "QS"],
        None,
        None,
        None,
        None,
        ["2S", "AH", "AD", "QH", "QD", "JS"],
        ["2C", "2H", "3H", "TS", "TH", "TD"],
    ]
    match = dealt_table(
        me.user,
        "full-deck-52",
        hands,
        "AC",
        attacker=6,
        rules=Rules(players=8, deck_size=52, mode="perevodnoy"),
    )
    open_table(me, match)
    play(
        me,
        match,
        [
            "6 attack 2S",
            "7 transfer 2C",
            "0 defend 2S 3S",
            "0 defend 2C 3C",
            "7 attack 2H",
            "0 defend 2H 4H",
            "1 attack 2D",
            "0 defend 2D 4D",
            "7 attack 3H",
            "0 defend 3H 5H",
            "1 attack 3D",
            "0 defend 3D 5D",
        ],
    )
    # Six beaten pairs end the bout; the talon's last four cards go to the attackers,
    # and the player, out of cards, is out of the game.
    me.page.wait_for_selector("#table-hand .badge.safe")
    check_steady(me, most_pairs=6)
    me.context.close()


BOUT_WAIT_SECONDS = 90


def test_a_bout_against_bots_at_six_seats_moves_no_card_of_the_hand(
    fast_bots, browser, live_server_url
):
    me = Player(browser, live_server_url, "Ада", "ru", viewport=PHONE)
    classic = RuleVariant.objects.get(slug="classic")
    # Every seat taken, the table starts at once.
    match = off_the_loop(lambda: services.create_match(me.user, classic, 6, bots=["easy"] * 5))
    open_table(me, match)
    deadline = time.monotonic() + BOUT_WAIT_SECONDS
    while not bout_played(match):
        assert time.monotonic() < deadline, "no bout ended"
        if not me.step():
            me.page.wait_for_timeout(60)  # A bot is thinking.
    shown(me, match)
    states = hand_states(me.page)
    assert max(state["pairs"] for state in states) >= 1, states
    assert hand_moves(states) == []
    me.check_page()
    me.context.close()
