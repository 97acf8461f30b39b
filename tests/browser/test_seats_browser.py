"""Every table size, on a phone and on a desktop, in Russian and in English.

For each count of players the engine seats, two to eight (eight on a variant an
admin raised), and for both team layouts,
the table opens, every other seat shows its short name and its bot level whole and on
screen (measured from the DOM), the seat the game waits for is marked and named in the
status line, and one full bout is played.  The player sits at a phone in one
language, then turns to a desktop; a spectator watches on a desktop in the other
language, so every count is read on both viewports and in both languages.
"""

from __future__ import annotations

import time

import pytest

from games.models import Match, RuleVariant
from games.services import load_game
from tests.browser.test_table_browser import Player

# Bots that answer at once, on a bot worker process beside the server.
pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fast_bots"),
]


PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 768}
BOT_WORD = {"en": "Bot", "ru": "Бот"}
LEVELS = {"en": {"easy": "Easy", "medium": "Medium"}, "ru": {"easy": "Лёгкий", "medium": "Средний"}}

# (variant, players, the player's language); the spectator takes the other one.
TABLES = [
    ("classic", 2, "ru"),
    ("classic", 3, "en"),
    ("classic", 4, "ru"),
    ("classic", 5, "en"),
    ("classic", 6, "ru"),
    ("full-deck-52", 7, "en"),
    # The most the engine seats: an admin may deal a 52-card variant to eight, six
    # cards each.
    ("full-deck-52", 8, "ru"),
    ("teams-2x2", 4, "en"),
    ("teams-3x3", 6, "ru"),
]
# How long the bots may take to finish the first bout.
BOUT_WAIT_SECONDS = 90

CASES = [
    pytest.param(slug, players, lang, id=f"{slug}-{players}-{lang}")
    for slug, players, lang in TABLES
]

# For each other seat: its name and level, each whole (nothing cut off or scrolled
# inside it) and inside the viewport, and whether the seat is marked as acting.
SEATS = """() => [...document.querySelectorAll("#table-seats .seat")].map((seat) => {
  const whole = (el) => {
    if (!el) return null;
    const box = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    return {
      text: el.textContent.trim(),
      shown: box.width > 0 && box.height > 0 && style.visibility !== "hidden" && style.display !== "none",
      uncut: el.scrollWidth <= el.clientWidth + 0.5 && el.scrollHeight <= el.clientHeight + 0.5,
      onScreen: box.left >= 0 && box.right <= window.innerWidth + 0.5 && box.top + window.scrollY >= 0,
    };
  };
  const box = seat.getBoundingClientRect();
  return {
    seat: parseInt(seat.dataset.seat, 10),
    name: whole(seat.querySelector(".name")),
    level: whole(seat.querySelector(".level")),
    seatUncut: seat.scrollWidth <= seat.clientWidth + 0.5,
    widths: [seat.scrollWidth, seat.clientWidth],
    text: seat.innerText.split(String.fromCharCode(10)).join(" | "),
    seatOnScreen: box.left >= 0 && box.right <= window.innerWidth + 0.5,
    acting: seat.classList.contains("acting"),
    team: seat.querySelector(".team") ? seat.querySelector(".team").className : null,
  };
})"""
# The status line, whether the viewer's own hand is the one the game waits for, and the
# names of the seats marked as acting, read at one moment (between two pushes).
STATUS = """() => ({
  text: document.querySelector("#table-status .status-text").textContent.trim(),
  mine: Boolean(document.querySelector("#table-hand .me.acting")),
  canPlay: Boolean(document.querySelector(
    "#table-hand .hand-card:not([disabled]), #table-controls button[data-action]")),
  hint: Boolean(document.querySelector("#table-controls .control-hint")),
  acting: [...document.querySelectorAll("#table-seats .seat.acting .name")].map((el) => el.textContent.trim()),
})"""


def check_seats(
    viewer: Player, players: int, levels: dict[int, str], people: dict[int, str] | None = None
) -> None:
    """Every seat but the viewer's own shows its name (and a bot its level) whole and
    on screen; ``people`` names the seats of people, whom a spectator sees too."""
    people = people or {}
    seats = viewer.page.evaluate(SEATS)
    assert sorted(s["seat"] for s in seats) == sorted([*levels, *people])
    for s in seats:
        parts = ("name",) if s["seat"] in people else ("name", "level")
        for part in parts:
            shown = s[part]
            assert shown and shown["shown"], (part, s)
            assert shown["uncut"], (part, s)
            assert shown["onScreen"], (part, s)
        if s["seat"] in people:
            assert s["name"]["text"] == people[s["seat"]], s
        else:
            assert s["name"]["text"] == f"{BOT_WORD[viewer.lang]} {s['seat'] + 1}", s
            assert s["level"]["text"] == LEVELS[viewer.lang][levels[s["seat"]]], s
        assert s["seatUncut"] and s["seatOnScreen"], (s["widths"], s["text"], s)
    assert (
        viewer.page.evaluate("() => document.documentElement.scrollWidth")
        <= (viewer.page.viewport_size["width"])
    )


def check_turn_marks(player: Player) -> None:
    """The seat the game waits for is marked, and the status line names it; a hand
    marked as acting has something to play."""
    status = player.page.evaluate(STATUS)
    if status["mine"]:
        assert status["canPlay"], status
        return
    assert not status["hint"] or status["canPlay"], status
    for name in status["acting"]:
        assert name in status["text"], (name, status)


def bout_played(match: Match) -> bool:
    """A bout has ended: the table is empty again after cards were beaten or taken."""
    match.refresh_from_db()
    game = load_game(match)
    if game is None:
        return False
    view = game.view(None)
    taken = match.moves.filter(action__contains="take").exists()
    return game.is_over or (not view["table"] and (view["discard"] > 0 or taken))


@pytest.mark.parametrize(("slug", "players", "lang"), CASES)
def test_every_seat_reads_and_a_bout_is_played(slug, players, lang, browser, live_server_url):
    variant = RuleVariant.objects.get(slug=slug)
    if players > variant.max_players:
        variant.max_players, variant.hand_size = players, 6
        variant.full_clean()  # as the admin's form checks it
        variant.save()
    me = Player(browser, live_server_url, "Ада", lang, viewport=PHONE)
    levels = {seat: ("easy", "medium")[seat % 2] for seat in range(1, players)}
    page = me.page
    page.goto(live_server_url + "/")
    page.select_option("form.create-table #id_variant", str(variant.pk))
    page.fill("form.create-table #id_players", str(players))
    for seat, level in levels.items():
        page.select_option(f"#id_seat_{seat}", level)
    page.locator("form.create-table [type=submit]").click()
    page.wait_for_url("**/games/*/")
    page.wait_for_selector('#connection-state[data-state="open"]')
    page.wait_for_selector("#table-hand .hand-card")
    match = Match.objects.get(pk=int(page.url.rstrip("/").rsplit("/", 1)[1]))
    check_seats(me, players, levels)

    # A spectator sees the whole table, the first seat at the bottom.
    other = "en" if lang == "ru" else "ru"
    watcher = Player(browser, live_server_url, "Ким", other, viewport=DESKTOP)
    response = watcher.page.goto(page.url)
    assert response.status == 200
    watcher.page.wait_for_selector('#connection-state[data-state="open"]')
    assert watcher.page.locator("#table-seats .seat-bottom").count() == 1
    check_seats(watcher, players, levels, people={0: "Ада"})
    watcher.check_page()
    watcher.context.close()

    if match.variant.teams:
        # Every seat wears its team's colour, and the legend names both teams.
        assert all(s["team"] for s in page.evaluate(SEATS))
        assert page.locator("#table-seats .team-legend .legend-entry").count() == 2
    # Five bots on a busy 2-core machine may take a while; what counts is that a bout
    # ends, and if none does, what the table was waiting for.
    deadline = time.monotonic() + BOUT_WAIT_SECONDS
    while not bout_played(match):
        if time.monotonic() > deadline:
            game = load_game(match)
            moves = list(match.moves.order_by("seq").values_list("action", flat=True))
            to_act = game.to_act() if game is not None else None
            raise AssertionError(f"no bout ended: to act {to_act}, moves {moves}")
        check_turn_marks(me)
        if not me.step():
            page.wait_for_timeout(60)  # A bot is thinking.
    check_seats(me, players, levels)
    me.check_page()
    # The same player turns to a desktop.
    page.set_viewport_size(DESKTOP)
    check_seats(me, players, levels)
    me.check_page()
    me.context.close()
