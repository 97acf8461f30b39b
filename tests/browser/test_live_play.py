"""Live play in a real browser: two people at one table.

Whole games against bots, with the rematch, are in test_table_browser.py.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tests.browser.moves import click_a_legal_move

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fresh_process_state"),
]


@pytest.fixture
def variants(django_db_blocker):
    import importlib

    from django.apps import apps

    migration = importlib.import_module("games.migrations.0002_standard_variants")
    with django_db_blocker.unblock():
        migration.create_variants(apps, None)


def logged_in(browser, live_server_url: str, name: str):
    user = get_user_model().objects.create_user(username=name, password="pw-" + name)
    client = Client()
    client.force_login(user)
    context = browser.new_context(locale="en-US", viewport={"width": 1100, "height": 900})
    context.set_default_timeout(15_000)
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server_url}]
    )
    return context, context.new_page(), user


# Waits are written as functions: the site's Content-Security-Policy forbids eval,
# which is how Playwright would run a bare expression in the page.


def version(page) -> int:
    return int(page.get_attribute("#table-version", "data-version"))


def wait_for_live(page) -> None:
    page.wait_for_selector('#connection-state[data-state="open"]')


def test_two_players_see_each_others_moves_without_reload(variants, browser, live_server_url):
    context_a, page_a, alice = logged_in(browser, live_server_url, "Alla")
    context_b, page_b, bob = logged_in(browser, live_server_url, "Bogdan")
    page_a.goto(live_server_url + "/")
    page_a.select_option("#id_seat_1", "")
    page_a.get_by_role("button", name="Create table").click()
    page_a.wait_for_url(f"{live_server_url}/games/*/")
    wait_for_live(page_a)
    page_b.goto(live_server_url + "/")
    # The new table is listed in the lobby; Bob joins it from there.
    page_b.get_by_role("button", name="Join").click()
    page_b.wait_for_url(f"{live_server_url}/games/*/")
    wait_for_live(page_b)
    # Alice's page started the game live when Bob sat down.
    page_a.wait_for_selector("#table-hand .hand-card")
    for _ in range(4):
        pages = [page_a, page_b]
        mover = next(
            p
            for p in pages
            if p.locator(
                "#table-controls button[data-action], #table-hand .hand-card:not([disabled])"
            ).count()
        )
        watcher = page_b if mover is page_a else page_a
        before = version(watcher)
        assert click_a_legal_move(mover)
        watcher.wait_for_function(
            f"() => parseInt(document.getElementById('table-version').dataset.version) > {before}"
        )
        # Both pages settle on the same version before the next move is chosen.
        mover.wait_for_function(
            f"() => parseInt(document.getElementById('table-version').dataset.version) >= {version(watcher)}"
        )
        assert version(watcher) == version(mover)
        table_a = page_a.locator("#table-felt").inner_text()
        assert table_a == page_b.locator("#table-felt").inner_text()
    context_a.close()
    context_b.close()
