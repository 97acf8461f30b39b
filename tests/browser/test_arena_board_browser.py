"""A player who watches the arena from below its top 20, on a Russian phone: when two
others' game ends, the standings on their page change without a reload (the board is
pushed to them, not fetched), and their own row stays theirs, apart, with its place."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from arena import services
from arena.models import Arena
from tests.arena.conftest import person, running_arena

from .people import signed_in_page
from .test_arena_browser import TO_TABLE
from .test_arena_flow_browser import new_table_of
from .test_table_browser import PHONE

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fresh_process_state"),
]

SHOTS = "/tmp/shots-arena"
ONE_WIN = {"ru": "2", "en": "2"}


def test_a_game_end_reaches_a_watcher_below_the_top_as_the_board(live_server_url, browser):
    # Joined before the start, so that the server's ticker pairs nobody until all but
    # the two who play are paused.
    arena = running_arena(
        name="Дневная арена",
        status=Arena.Status.SCHEDULED,
        starts_at=timezone.now() + timedelta(hours=1),
    )
    first, second = person("Ира"), person("Оля")
    crowd = [person("Гость") for _ in range(20)]
    watcher = person("Зритель")
    for user in [first, second, *crowd, watcher]:
        services.join(user, arena)
    for user in [*crowd, watcher]:
        services.set_paused(user, arena, True)
    Arena.objects.filter(pk=arena.pk).update(
        status=Arena.Status.RUNNING, starts_at=timezone.now() - timedelta(minutes=1)
    )
    arena_url = f"{live_server_url}/arena/{arena.pk}/"

    page = signed_in_page(browser, live_server_url, watcher, "ru", {"viewport": PHONE})
    page.goto(arena_url)
    page.wait_for_selector(f'.notice-socket[ws-connect="/ws/arena/{arena.pk}/"]', state="attached")
    mine = page.locator('[data-testid="arena-my-row"]')
    assert mine.locator("td").first.inner_text() == "23"  # the last to join, below the top
    page.evaluate("window.sameDocument = true")  # gone if the page reloads

    # The server's ticker pairs the two; the first resigns at the table.
    match_id = new_table_of(arena, first, besides=set())
    loser = signed_in_page(browser, live_server_url, first, "ru", {"viewport": PHONE})
    loser.goto(f"{live_server_url}/games/{match_id}/")
    loser.wait_for_selector('#connection-state[data-state="open"]')
    loser.on("dialog", lambda dialog: dialog.accept())
    loser.locator(".control-resign").click()

    # On the watcher's page the winner's row moves to the top with their points.
    top = page.locator('[data-testid="arena-standings"] tbody tr').first
    top.filter(has_text=second.username).wait_for(timeout=10_000)
    assert top.locator("td").nth(2).inner_text() == ONE_WIN["ru"]
    assert page.evaluate("window.sameDocument === true"), "the page reloaded"
    # Their own row is still theirs, below the top, with its place, and nothing of the
    # players' (no link to a table) came to it.
    assert mine.count() == 1
    assert mine.locator("td").first.inner_text() == "23"
    assert "(на паузе)" in mine.inner_text()
    assert page.get_by_role("link", name=TO_TABLE["ru"]).count() == 0
    assert "Гость" not in page.locator('[data-testid="arena-games"]').inner_text()
    box = page.locator('[data-testid="arena-standings"]').bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    page.screenshot(path=f"{SHOTS}/board-watcher-ru-phone.png", full_page=True)
