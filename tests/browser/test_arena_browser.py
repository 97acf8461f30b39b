"""An arena in Chromium: two people join it, one on a Russian phone and one on an
English desktop; they are paired and each sees the link to their table and their row."""

from __future__ import annotations

import re
import time

import pytest

from arena import services
from arena.models import ArenaPlayer
from tests.arena.conftest import person, running_arena

from .people import signed_in_page
from .test_table_browser import DESKTOP, PHONE

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fresh_process_state"),
]

JOIN = {"ru": "Участвовать", "en": "Join the arena"}
WITHDRAW = {"ru": "Выйти из турнира", "en": "Withdraw"}
TO_TABLE = {"ru": "К вашему столу", "en": "Go to your table"}
# In the lobby before each joins: the Russian player comes first.
JOINED_BEFORE = {"ru": "0 участников", "en": "1 player joined"}


def test_two_players_join_are_paired_and_see_their_table(live_server_url, browser):
    arena = running_arena(name="Вечерний турнир")
    people = {"ru": (person("aru"), PHONE), "en": (person("aen"), DESKTOP)}
    pages = {}
    for lang, (user, device) in people.items():
        page = signed_in_page(browser, live_server_url, user, lang, {"viewport": device})
        page.goto(live_server_url + "/")
        # The lobby's panel names the running arena and who joined it (the Russian
        # player joins first), and on a phone it stays within the screen.
        arena_row = page.get_by_test_id("lobby-arenas").locator(f'li[data-arena="{arena.pk}"]')
        assert arena_row.get_by_role("link", name="Вечерний турнир").is_visible()
        assert JOINED_BEFORE[lang] in arena_row.inner_text()
        box = arena_row.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= device["width"]
        page.locator(".lobby-arena a").click()
        page.wait_for_url("**/arena/")
        page.get_by_role("link", name="Вечерний турнир").click()
        page.get_by_role("button", name=JOIN[lang]).click()
        # In: waiting, or already paired if the server's ticker came between the join
        # and the page that follows it.
        page.get_by_role("button", name=WITHDRAW[lang]).wait_for()
        page.wait_for_selector(
            f'.notice-socket[ws-connect="/ws/arena/{arena.pk}/"]', state="attached"
        )
        pages[lang] = page
    assert ArenaPlayer.objects.filter(arena=arena).count() == 2

    # The server's ticker pairs them within a tick. (Not paired from here: with the
    # in-memory channel layer this process's push would reach no page of the server's.)
    (ru_user, _), (en_user, _) = people.values()
    deadline = time.monotonic() + 30
    while (match_id := services.open_table_of(arena, ru_user)) is None:
        assert time.monotonic() < deadline, "the server's ticker paired nobody in 30 s"
        time.sleep(0.2)
    assert services.open_table_of(arena, en_user) == match_id
    for lang, page in pages.items():
        # The arena's socket says it changed: the table's link appears without a reload
        # (well before the page's slow poll of the clock).
        link = page.get_by_role("link", name=TO_TABLE[lang])
        link.wait_for(timeout=10_000)
        assert link.get_attribute("href").endswith(f"/games/{match_id}/")
        assert page.locator('[data-testid="arena-my-row"]').count() == 1
        page.screenshot(path=f"/tmp/shots-arena/arena-{lang}.png", full_page=True)
    pages["ru"].get_by_role("link", name=TO_TABLE["ru"]).click()
    pages["ru"].wait_for_url(re.compile(rf".*/games/{match_id}/$"))
