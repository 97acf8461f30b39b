"""The whole table fits a Russian phone's screen (390x844) without scrolling.

At 2, 4, 6 and 8 seats and at a 3x3 team table, a bout is played up to six pairs on
the felt (the last one unbeaten, so the player has «Беру» to tap).  After every push
the page reads, from the DOM, where the hand and each visible move button end: all
within the first 844 px, the page never scrolled.  No card on the felt lies over a
seat.  «Подробнее» opens the folded header tools over the table without moving it.  An
English desktop table keeps its header's tools in view.  An invite arriving mid-bout
lies over the page and moves nothing; when a deal ends, no card glides over the
result panel.

The moves are the test's own, made through the service layer (no bot worker runs),
so each table reaches the six pairs it was dealt for.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.utils import timezone

from durak.engine import Game, Rules
from friends.models import Friendship
from games import services
from games.models import Match, Move, RuleVariant
from tests.browser.hand_table import TICK_SECONDS, dealt_table, off_the_loop
from tests.browser.test_table_browser import DESKTOP, PHONE, Player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("/tmp/shots-phone-fit")

# After every push, and once more when asked: the lowest edge of the hand and of the
# visible buttons under the felt, in page coordinates, and any felt card over a seat.
MEASURE = """() => {
  const read = () => {
    const y = window.scrollY;
    const bottom = (el) => el.getBoundingClientRect().bottom + y;
    const hand = document.getElementById("table-hand");
    const buttons = [...document.querySelectorAll("#table-controls button")].filter(
      (b) => b.offsetParent !== null);
    const overlaps = [];
    const seats = [...document.querySelectorAll("#table-seats .seat, #table-seats .backs")];
    for (const card of document.querySelectorAll("#table-felt .playing-card")) {
      const c = card.getBoundingClientRect();
      for (const seat of seats) {
        const s = seat.getBoundingClientRect();
        const across = Math.min(c.right, s.right) - Math.max(c.left, s.left);
        const down = Math.min(c.bottom, s.bottom) - Math.max(c.top, s.top);
        if (across > 1 && down > 1) overlaps.push(seat.closest(".seat").dataset.seat);
      }
    }
    return {
      version: parseInt(document.getElementById("table-version").dataset.version, 10),
      scrolled: y,
      pairs: document.querySelectorAll("#table-felt .pair").length,
      hand: bottom(hand),
      cards: document.querySelectorAll("#table-hand .hand-card").length,
      buttons: buttons.map((b) => [b.textContent.trim().split(/\\s+/)[0], bottom(b)]),
      overlaps,
    };
  };
  window.fitStates = [read()];
  window.readFit = read;
  document.body.addEventListener("htmx:wsAfterMessage", () => window.fitStates.push(read()));
}"""


# The hand's top edge in page coordinates: a scroll is no move.
HAND_TOP = (
    """() => document.getElementById("table-hand").getBoundingClientRect().top + window.scrollY"""
)


@pytest.fixture(autouse=True)
def quick_ticks(settings) -> None:
    """Set before the server forks: a move made by the test reaches the page at once."""
    settings.GAMES_TICK_SECONDS = TICK_SECONDS


def seat_moves(match: Match, action: str, mine: int = 0) -> None:
    """A move applied as its seat's owner makes it (the player's own seat ``mine`` too)."""

    def move() -> None:
        match.refresh_from_db()
        seat = int(action.split(" ", 1)[0])
        source = Move.Source.PLAYER if seat == mine else Move.Source.BOT
        services.apply_action(match.pk, seat, action, version=match.version, source=source)

    off_the_loop(move)


def two_seats(player: Player) -> tuple[Match, list[str]]:
    """The bot attacks and throws in; the player beats five and faces the sixth."""
    hands = [["7D", "8S", "8C", "8H", "9C", "9H"], ["6S", "6C", "6H", "7S", "7C", "7H"]]
    match = dealt_table(player.user, "classic", hands, "6D", attacker=1)
    return match, beats_five("1")


def beats_five(attacker: str) -> list[str]:
    return [
        f"{attacker} attack 6S",
        "0 defend 6S 7D",
        f"{attacker} attack 7S",
        "0 defend 7S 8S",
        f"{attacker} attack 6C",
        "0 defend 6C 8C",
        f"{attacker} attack 7C",
        "0 defend 7C 9C",
        f"{attacker} attack 6H",
        "0 defend 6H 8H",
        f"{attacker} attack 7H",
    ]


def many_seats(player: Player, seats: int) -> tuple[Match, list[str]]:
    """A transfer to the player, who beats five cards thrown in by both neighbours and
    faces the sixth (the transfer game with a 52-card deck, for up to eight seats)."""
    variant = RuleVariant.objects.get(slug="full-deck-52")
    variant.max_players, variant.hand_size = 8, 6
    variant.save()
    hands: list[list[str] | None] = [None] * seats
    hands[0] = ["3S", "3C", "4H", "5H", "4D", "5D"]
    hands[1] = ["2D", "3D", "KS", "KH", "KD", "QS"]
    hands[seats - 2] = ["2S", "AH", "AD", "QH", "QD", "JS"]
    hands[seats - 1] = ["2C", "2H", "3H", "TS", "TH", "TD"]
    rules = Rules(players=seats, deck_size=52, mode="perevodnoy")
    match = dealt_table(player.user, "full-deck-52", hands, "AC", attacker=seats - 2, rules=rules)
    left, right = seats - 2, seats - 1
    return match, [
        f"{left} attack 2S",
        f"{right} transfer 2C",
        "0 defend 2S 3S",
        "0 defend 2C 3C",
        f"{right} attack 2H",
        "0 defend 2H 4H",
        "1 attack 2D",
        "0 defend 2D 4D",
        f"{right} attack 3H",
        "0 defend 3H 5H",
        "1 attack 3D",
    ]


def three_by_three(player: Player) -> tuple[Match, list[str]]:
    """Six seats in two teams of three: the opponent on the player's right attacks."""
    hands: list[list[str] | None] = [None] * 6
    hands[0] = ["7D", "8S", "8C", "8H", "9C", "9H"]
    hands[5] = ["6S", "6C", "6H", "7S", "7C", "7H"]
    rules = Rules(players=6, deck_size=52, teams="3x3")
    match = dealt_table(player.user, "full-deck-52", hands, "6D", attacker=5, rules=rules)
    return match, beats_five("5")


def play_to_six_pairs(player: Player, match: Match, script: list[str], shot: str) -> dict:
    page = player.page
    page.goto(f"{player.url}/games/{match.pk}/")
    page.wait_for_selector('#connection-state[data-state="open"]')
    page.wait_for_selector("#table-hand .hand-card")
    page.evaluate(MEASURE)
    for move in script:
        seat_moves(match, move)
        match.refresh_from_db()
        page.wait_for_function(
            """(v) => parseInt(document.getElementById("table-version").dataset.version, 10) >= v""",
            arg=match.version,
        )
    page.wait_for_selector("#table-controls .control-take")
    states = [*page.evaluate("() => window.fitStates"), page.evaluate("() => window.readFit()")]
    page.screenshot(path=str(SHOTS / f"{shot}.png"))
    player.check_page()
    return {"states": states, "last": states[-1]}


def lowest(states: list[dict]) -> float:
    return max(max([s["hand"], *(b[1] for b in s["buttons"])]) for s in states)


TABLES = {
    "2-seats": two_seats,
    "4-seats": lambda p: many_seats(p, 4),
    "5-seats": lambda p: many_seats(p, 5),
    "6-seats": lambda p: many_seats(p, 6),
    "7-seats": lambda p: many_seats(p, 7),
    "8-seats": lambda p: many_seats(p, 8),
    "3x3-teams": three_by_three,
}


@pytest.mark.parametrize("table", list(TABLES))
def test_the_hand_and_the_move_buttons_fit_a_russian_phone(table, browser, live_server_url):
    me = Player(browser, live_server_url, "Ада", "ru", viewport=PHONE)
    match, script = TABLES[table](me)
    seen = play_to_six_pairs(me, match, script, f"ru-phone-{table}")
    states, last = seen["states"], seen["last"]
    assert last["pairs"] == 6, last
    assert "Беру" in [word for word, _ in last["buttons"]], last
    assert all(s["scrolled"] == 0 for s in states), states
    assert lowest(states) <= PHONE["height"], [(s["hand"], s["buttons"]) for s in states]
    assert not any(s["overlaps"] for s in states), [s["overlaps"] for s in states]
    page = me.page
    # The player's role is read whole beside the order control.
    role = page.locator("#table-hand .me .badge.defend").bounding_box()
    order = page.locator("#table-hand .hand-order").bounding_box()
    assert role["width"] > 0 and role["x"] + role["width"] <= order["x"], (role, order)
    # The folded tools open over the table, which stays where it was, and close again.
    sound = page.locator("#sound-toggle")
    assert not sound.is_visible()
    hand_top = page.evaluate(HAND_TOP)
    page.get_by_role("button", name="Подробнее").click()
    assert sound.is_visible() and page.locator("#table-rated").is_visible()
    if table == "8-seats":
        page.screenshot(path=str(SHOTS / "ru-phone-8-seats-more.png"))
    assert page.evaluate(HAND_TOP) == hand_top
    page.get_by_role("button", name="Подробнее").click()
    assert not sound.is_visible()
    me.context.close()


@pytest.mark.parametrize("table", ["8-seats", "3x3-teams"])
def test_an_english_desktop_table_keeps_its_tools_and_fits(table, browser, live_server_url):
    me = Player(browser, live_server_url, "Ada", "en", viewport=DESKTOP)
    match, script = TABLES[table](me)
    seen = play_to_six_pairs(me, match, script, f"en-desktop-{table}")
    page = me.page
    # On a desktop nothing is folded away: the sound switch and the rated line show.
    assert page.locator("#sound-toggle").is_visible()
    assert page.locator("#table-rated").is_visible()
    assert page.locator(".site-nav").is_visible()
    last = seen["last"]
    assert "Take" in [word for word, _ in last["buttons"]], last
    assert not any(s["overlaps"] for s in seen["states"])
    assert page.evaluate("() => document.documentElement.scrollWidth") <= DESKTOP["width"]
    me.context.close()


def test_an_invite_mid_bout_moves_nothing_on_the_table(browser, live_server_url):
    me = Player(browser, live_server_url, "Ада", "ru", viewport=PHONE)
    match, script = many_seats(me, 6)
    play_to_six_pairs(me, match, script, "ru-phone-6-seats")
    page = me.page
    page.evaluate("() => window.scrollTo(0, 0)")
    hand_top = page.evaluate(HAND_TOP)
    felt_top = page.evaluate(
        "() => document.getElementById('table-felt').getBoundingClientRect().top + window.scrollY"
    )
    # A friend at a waiting table invites the player from his own browser.
    boris = Player(browser, live_server_url, "Борис", "ru", viewport=DESKTOP)
    Friendship.objects.create(from_user=boris.user, to_user=me.user, accepted_at=timezone.now())
    classic = RuleVariant.objects.get(slug="classic")
    waiting = off_the_loop(lambda: services.create_match(boris.user, classic, 2))
    boris.page.goto(f"{live_server_url}/games/{waiting.pk}/")
    boris.page.locator(".invite-friends").get_by_role("button", name=re.compile("Ада")).click()
    notice = page.locator("#invite-notice .invite")
    notice.wait_for()
    assert "Борис приглашает вас за стол" in notice.inner_text()
    page.screenshot(path=str(SHOTS / "ru-phone-invite-mid-bout.png"))
    # The notice lies over the page, under the header: the table and the hand stay put.
    assert page.evaluate(HAND_TOP) == hand_top
    assert (
        page.evaluate(
            "() => document.getElementById('table-felt').getBoundingClientRect().top + window.scrollY"
        )
        == felt_top
    )
    header = page.locator(".site-header").bounding_box()
    assert notice.bounding_box()["y"] >= header["y"] + header["height"]
    me.context.close()


# Whether a card's stand-in, gliding off the felt, ever lies over the result panel
# once the panel shows: looked at on every frame.
WATCH_GHOSTS = """() => {
  window.crossed = 0;
  const look = () => {
    const panel = document.getElementById("table-result");
    if (panel && !panel.classList.contains("is-hidden")) {
      const p = panel.getBoundingClientRect();
      for (const ghost of document.querySelectorAll(".card-ghost")) {
        const g = ghost.getBoundingClientRect();
        const across = Math.min(g.right, p.right) - Math.max(g.left, p.left);
        const down = Math.min(g.bottom, p.bottom) - Math.max(g.top, p.top);
        if (across > 0 && down > 0) window.crossed += 1;
      }
    }
    requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
}"""


def last_beat_of_a_deal(player: Player) -> tuple[Match, str]:
    """A 24-card deal one move from its end, the player in seat 1, and that move: the
    player beats the last card on the felt, the pairs go to the discard pile and the
    deal ends (seat 0, the bot, is already out)."""
    game = Game.new(Rules(players=2, deck_size=24), 0)
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    record = game.to_record()
    *before, last = record["actions"]
    match = off_the_loop(
        lambda: services.create_match_from_position(
            player.user,
            RuleVariant.objects.get(slug="classic"),
            {**record, "actions": before},
            1,
            bot_level="easy",
        )
    )
    return match, str(last)


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["ru-phone", "ru-desktop"])
def test_no_card_glides_over_the_result_panel(viewport, browser, live_server_url):
    me = Player(browser, live_server_url, "Ада", "ru", viewport=viewport, motion=True)
    match, last = last_beat_of_a_deal(me)
    assert " defend " in last, last
    page = me.page
    page.goto(f"{me.url}/games/{match.pk}/")
    page.wait_for_selector('#connection-state[data-state="open"]')
    page.wait_for_selector("#table-felt .pair")
    page.evaluate(WATCH_GHOSTS)
    seat_moves(match, last, mine=1)
    page.wait_for_selector("#table-result:not(.is-hidden)")
    page.wait_for_function("() => !document.querySelector('.card-ghost')")
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => done()))")
    assert page.evaluate("() => window.crossed") == 0
    me.context.close()
