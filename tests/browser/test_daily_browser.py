"""The daily deal in Chromium: two people play the day's deal, one on a phone in
Russian and one on a desktop in English; both land on the day's board, and a second
try is refused."""

from __future__ import annotations

import re

import pytest

from daily.models import DailyEntry
from games.models import Deal, Match

from .test_table_browser import DESKTOP, LATIN_ALLOWED, PAGE_WIDTH, PAGE_WORDS, PHONE, Player

# Bots that answer at once, on a bot worker process beside the server.
pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fast_bots", "fresh_process_state"),
]

PLAY = {"ru": "Сыграть сдачу дня", "en": "Play today's deal"}
BOARD = {"ru": "Таблица дня", "en": "The day's board"}
REFUSED = {"ru": "Вы уже сыграли сегодняшнюю сдачу", "en": "You have already played today's deal"}


def russian_words_only(player: Player, names: set[str]) -> None:
    words = set(re.findall(r"[A-Za-z]{2,}", player.page.evaluate(PAGE_WORDS)))
    assert not words - LATIN_ALLOWED - names, f"English on a Russian page: {sorted(words)}"


def play_the_daily_deal(player: Player, shots) -> Match:
    """Open the daily page, keep a second tab of it, play the deal, open the board."""
    page = player.page
    page.goto(player.url + "/")
    page.locator(".lobby-daily a").click()
    page.wait_for_url("**/daily/")
    # A second tab, opened before the game, still shows the button.
    second = player.context.new_page()
    second.goto(player.url + "/daily/")
    page.bring_to_front()  # a page in a background tab gets no animation frames
    page.get_by_role("button", name=PLAY[player.lang]).click()
    page.wait_for_url(re.compile(r".*/games/\d+/$"))
    page.wait_for_selector('#connection-state[data-state="open"]')
    page.wait_for_selector("#table-hand .hand-card")
    match = Match.objects.get(pk=int(page.url.rstrip("/").rsplit("/", 1)[1]))
    player.play()
    page.locator("#table-result").wait_for(state="visible")
    assert not page.locator("#table-result .control-rematch").count()
    player.check_page()
    page.screenshot(path=str(shots / f"daily-table-{player.lang}.png"))
    # The second try, from the tab still showing the button: refused, no new table.
    tables = Match.objects.count()
    second.bring_to_front()
    second.get_by_role("button", name=PLAY[player.lang]).click()
    second.wait_for_selector(".daily-error")
    assert REFUSED[player.lang] in second.locator(".daily-error").inner_text()
    assert not second.get_by_role("button", name=PLAY[player.lang]).count()
    assert Match.objects.count() == tables
    assert Deal.objects.filter(match=match).count() == 1
    second.close()
    page.bring_to_front()
    page.locator("#table-result .result-daily", has_text=BOARD[player.lang]).click()
    page.wait_for_url("**/daily/")
    page.wait_for_selector(f'.daily-board tr[data-user="{player.user.username}"]')
    return match


def test_two_players_play_the_days_deal_and_both_are_on_its_board(
    browser, live_server_url, tmp_path
):
    olga = Player(browser, live_server_url, "Ольга", "ru", viewport=PHONE)
    bob = Player(browser, live_server_url, "Bob", "en", viewport=DESKTOP)
    first = play_the_daily_deal(olga, tmp_path)
    second = play_the_daily_deal(bob, tmp_path)
    # The same cards for both.
    assert (
        Deal.objects.get(match=first).deck == Deal.objects.get(match=second).deck
        and first.seed == second.seed
    )
    for player in (olga, bob):
        page = player.page
        page.reload()
        board = page.locator(".daily-board tbody tr")
        assert board.count() == 2
        assert {board.nth(i).get_attribute("data-user") for i in range(2)} == {"Ольга", "Bob"}
        # How the field did with the same cards, and the best game to replay.
        assert page.locator(".daily-field .daily-shares li").count() >= 4
        assert page.locator(".daily-top-replay").count() == 1
        assert page.locator(".daily-streak").count() == 1
        assert page.evaluate(PAGE_WIDTH) <= page.viewport_size["width"]
        # The board fits the screen: its last column is not scrolled out of view.
        box = page.locator(".daily-board").bounding_box()
        assert box and box["x"] + box["width"] <= page.viewport_size["width"], box
        if player.lang == "ru":
            russian_words_only(player, {"Bob"})
        page.screenshot(path=str(tmp_path / f"daily-{player.lang}.png"), full_page=True)
    assert DailyEntry.objects.exclude(result="").count() == 2
    # The best game opens in the replay for the other player.
    bob.page.locator(".daily-top-replay").click()
    bob.page.wait_for_url(re.compile(r".*/games/\d+/replay/$"))
    assert bob.page.locator("#replay-step [data-card]").count() > 0
    assert not olga.errors and not bob.errors, (olga.errors, bob.errors)
