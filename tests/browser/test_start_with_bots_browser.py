"""A host on a phone, in Russian, starts a four-seat table with bots in the free seats;
a guest already seated, in English on a desktop, reads that the game is unrated."""

from __future__ import annotations

import re

import pytest

from games.models import Match, RuleVariant
from tests.browser.test_seats_browser import PHONE, SEATS, check_seats
from tests.browser.test_table_browser import DESKTOP, Player

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fast_bots"),
]


def test_a_host_starts_a_waiting_table_with_bots(browser, live_server_url):
    host = Player(browser, live_server_url, "Хозяйка", "ru", viewport=PHONE)
    page = host.page
    page.goto(live_server_url + "/")
    page.select_option(
        "form.create-table #id_variant", str(RuleVariant.objects.get(slug="classic").pk)
    )
    page.fill("form.create-table #id_players", "4")
    for seat in range(1, 4):
        page.select_option(f"#id_seat_{seat}", "")
    page.locator("form.create-table [type=submit]").click()
    page.wait_for_url(re.compile(r".*/games/\d+/$"))
    page.wait_for_selector('#connection-state[data-state="open"]')

    # The free seats read as words, each whole and on the phone's screen.
    seats = page.evaluate(SEATS)
    assert len(seats) == 3
    for seat in seats:
        assert seat["name"]["text"] == "Свободное место", seat
        assert seat["name"]["shown"] and seat["name"]["uncut"] and seat["name"]["onScreen"], seat
        assert seat["seatUncut"] and seat["seatOnScreen"], seat
    assert "Партия с ботом идёт без рейтинга." in page.inner_text("#table-waiting")

    guest = Player(browser, live_server_url, "Гость", "en", viewport=DESKTOP)
    guest.page.goto(page.url)
    guest.page.get_by_role("button", name="Take a seat").click()
    # Seated, the page comes back with the guest's own tools.
    guest.page.get_by_role("button", name="Leave the table").wait_for()
    guest.page.wait_for_selector('#connection-state[data-state="open"]')
    assert guest.page.inner_text("#table-rated") == "Rated game"
    guest.page.locator("#table-ratings").wait_for(state="visible")
    page.wait_for_function(
        "() => document.querySelectorAll('#table-seats .seat.free').length === 2"
    )

    page.select_option("#table-waiting select[name=bots]", "easy")
    page.get_by_role("button", name="Начать с ботами на свободных местах").click()
    page.wait_for_selector("#table-hand .hand-card")
    page.wait_for_selector('#connection-state[data-state="open"]')

    check_seats(host, 4, {2: "easy", 3: "easy"}, people={1: "Гость"})
    guest.page.wait_for_selector("#table-hand .hand-card")
    assert guest.page.inner_text("#table-rated") == "Unrated game"
    assert not guest.page.locator("#table-ratings").is_visible()
    guest.check_page()
    assert page.inner_text("#table-rated") == "Партия без рейтинга"
    assert not page.locator("#table-waiting select").count()
    host.check_page()
    match = Match.objects.get(pk=int(page.url.rstrip("/").rsplit("/", 1)[1]))
    assert match.status == Match.Status.PLAYING and not match.is_rated
