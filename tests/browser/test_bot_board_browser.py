"""The leaderboard's "Bot accounts" tab: on a Russian phone it lists the bot accounts
by their bots' rating, each with its «бот» badge, no person, and fits the screen's
width; on an English desktop the tab is reached from the people's board."""

from __future__ import annotations

import pytest

from games import services
from matchmaking import services as matchmaking
from matchmaking.bot_accounts import turn_into_bot
from tests.api.helpers import make_user
from tests.browser.hand_table import off_the_loop
from tests.browser.test_table_browser import PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
WISHES = {
    "mode": "podkidnoy", "players": 2, "deck_size": 36, "speed": "normal",
    "is_rated": True, "allow_bots": False,
}  # fmt: skip


@pytest.fixture(autouse=True)
def one_game_on_the_board(settings) -> None:
    # Set before the live server starts, so its process reads them too.
    settings.LEADERBOARD_MIN_GAMES = 1
    settings.MATCHMAKING_ALONE_BOT_SECONDS = 60


def played(one, other, *, bot_pool: bool) -> None:
    """A rated game of the two, ``one`` resigning (off the browser's event loop, where
    the services' pushes cannot be sent)."""

    def play() -> None:
        matchmaking.create_seek(one, **WISHES, bot_pool=bot_pool)
        match = matchmaking.create_seek(other, **WISHES, bot_pool=bot_pool).match
        services.resign(match.pk, one)

    off_the_loop(play)


def board_rows(page) -> list[tuple[str, str]]:
    """Each row's player and the badge by their name ("" for none)."""
    rows = page.locator("[data-testid=leaderboard] tbody tr").all()
    return [
        (
            row.locator("a").inner_text(),
            row.locator(".bot-badge").inner_text() if row.locator(".bot-badge").count() else "",
        )
        for row in rows
    ]


def test_the_bots_board_on_a_russian_phone_and_an_english_desktop(browser, live_server_url):
    robo, droid = turn_into_bot(make_user("robo")), turn_into_bot(make_user("droid"))
    played(robo, droid, bot_pool=True)
    played(make_user("ann"), make_user("bob"), bot_pool=False)

    phone = browser.new_context(locale="ru-RU", viewport=PHONE, is_mobile=True, has_touch=True)
    page = phone.new_page()
    errors: list[str] = []
    page.on("console", lambda msg: msg.type == "error" and errors.append(msg.text))
    page.goto(live_server_url + "/leaderboard/?class=bots")
    assert page.locator(".leaderboard-classes strong").inner_text() == "Аккаунты ботов"
    assert board_rows(page) == [("droid", "бот"), ("robo", "бот")]
    assert "людей в этой таблице нет" in page.inner_text("[data-testid=bots-board-note]")
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390, width
    page.screenshot(path="/tmp/bots-board-ru-phone.png", full_page=True)
    assert not errors, errors
    phone.close()

    desktop = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 900})
    page = desktop.new_page()
    page.goto(live_server_url + "/leaderboard/")
    assert sorted(board_rows(page)) == [("ann", ""), ("bob", "")]
    page.get_by_role("link", name="Bot accounts").click()
    page.wait_for_url("**/leaderboard/?class=bots")
    assert board_rows(page) == [("droid", "bot"), ("robo", "bot")]
    desktop.close()
