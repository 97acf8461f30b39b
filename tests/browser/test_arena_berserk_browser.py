"""Berserk in Chromium: at an arena table a player on a Russian phone presses Berserk
before the first move; their clock runs half the time on their page and on their
opponent's (an English desktop), the button goes once a move is made, and the game
they end not the fool scores 2 + 1 with the berserk mark in the standings."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest

from arena import services
from games import services as games
from games.models import Match
from games.services import clock
from tests.arena.conftest import entry, person, running_arena

from .moves import tap_card
from .people import signed_in_page
from .test_table_browser import DESKTOP, PHONE

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fresh_process_state"),
]


def epoch_ms(value) -> str:
    return str(int(value.timestamp() * 1000))


def test_berserk_halves_the_clock_and_adds_the_point(live_server_url, browser):
    arena = running_arena(name="Быстрый подкидной", turn_seconds=30)
    one, two = person("bru"), person("ben")
    for user in (one, two):
        services.join(user, arena)
    services.pair_waiting(arena)  # or the server's ticker did, a moment before
    match_id = services.open_table_of(arena, one)
    assert match_id is not None and services.open_table_of(arena, two) == match_id
    match = Match.objects.get(pk=match_id)
    seats = games.load_seats(match_id)
    (mover_seat,) = clock.required_seats(games.load_game(match))
    berserker = one if seats[mover_seat].user_id == one.pk else two
    rival = two if berserker == one else one

    table = f"{live_server_url}/games/{match_id}/"
    mine = signed_in_page(browser, live_server_url, berserker, "ru", {"viewport": PHONE})
    theirs = signed_in_page(browser, live_server_url, rival, "en", {"viewport": DESKTOP})
    for page in (mine, theirs):
        page.goto(table)
        page.wait_for_selector('#connection-state[data-state="open"]')
    assert theirs.locator('[data-testid="berserk"]').is_visible()  # theirs to take too

    button = mine.locator('[data-testid="berserk"]')
    assert "Берсерк" in button.inner_text()
    mine.screenshot(path="/tmp/shots-arena/berserk-offer-ru.png", full_page=True)
    button.click()
    deadline = time.monotonic() + 10
    while (match := Match.objects.get(pk=match_id)).turn_deadline - match.turn_started_at != (
        timedelta(seconds=15)
    ):
        assert time.monotonic() < deadline, "the berserk did not halve the clock in 10 s"
        time.sleep(0.1)
    halved = epoch_ms(match.turn_deadline)
    # The berserker's own clock and the one their opponent sees by their seat.
    mine.wait_for_selector(f'.countdown.mine[data-deadline="{halved}"]')
    theirs.wait_for_selector(f'.seat .countdown[data-deadline="{halved}"]')
    # The berserk's answer takes the page back to the table, which offers it no more; the
    # push of the halved clock may reach the page before that reload does.
    mine.locator('[data-testid="berserk"]').wait_for(state="detached")
    mine.wait_for_selector('#connection-state[data-state="open"]')

    # The first move: the opponent's Berserk button goes without a reload.
    tap_card(mine.locator(".hand-card:not([disabled])").first)
    theirs.wait_for_selector("#table-version[data-moved]", state="attached")
    theirs.locator('[data-testid="berserk"]').wait_for(state="hidden")
    mine.screenshot(path="/tmp/shots-arena/berserk-ru.png", full_page=True)

    # The opponent resigns: the berserker is not the fool, 2 points and 1 for berserk.
    theirs.on("dialog", lambda dialog: dialog.accept())
    theirs.locator(".control-resign").click()
    deadline = time.monotonic() + 15
    while entry(arena, berserker).games == 0:
        assert time.monotonic() < deadline, "the game did not end"
        time.sleep(0.2)
    assert (entry(arena, berserker).points, entry(arena, berserker).berserks) == (3, 1)
    mine.goto(f"{live_server_url}/arena/{arena.pk}/")
    row = mine.locator('[data-testid="arena-my-row"]')
    assert row.locator('[data-testid="arena-berserk"]').count() == 1
    assert row.locator("td").nth(2).inner_text() == "3"  # the points column
