"""The standings part's shared table: rendered once per arena, standings version and
language for every viewer, the viewer's own row still theirs, a change seen by the
very next fetch."""

from __future__ import annotations

import re
from contextlib import contextmanager

import pytest
from django.db import connection
from django.test import Client
from django.test.signals import template_rendered
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from arena import services

from .conftest import end_with_fool, person, running_arena

pytestmark = pytest.mark.django_db

# The standings' order (arena.services.STANDING_ORDER) starts with the points, best first.
STANDINGS_QUERY = '"points" DESC'


def client_of(user, language: str = "en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


@contextmanager
def templates_rendered():
    """The names of the templates rendered inside the block, one per render."""
    names: list[str] = []

    def heard(sender, template, context, **kwargs) -> None:
        names.append(template.name)

    template_rendered.connect(heard)
    try:
        yield names
    finally:
        template_rendered.disconnect(heard)


def fetch(client: Client, arena) -> str:
    response = client.get(reverse("arena:standings", args=[arena.pk]))
    assert response.status_code == 200
    return response.content.decode()


def my_row(html: str) -> str:
    (row,) = re.findall(r'<tr class="arena-mine" data-testid="arena-my-row">.*?</tr>', html, re.S)
    return row


def standings_rows(html: str) -> list[str]:
    table = html.split('data-testid="arena-standings"')[1].split("</table>")[0]
    return re.findall(r"<tr[ >].*?</tr>", table.split("<tbody>")[1], re.S)


def test_two_viewers_of_one_language_share_one_render_of_the_table():
    arena = running_arena()
    users = [person() for _ in range(25)]
    for user in users:
        services.join(user, arena)
    first, last = users[0], users[-1]  # all at 0 points: in the order they joined

    with templates_rendered() as rendered, CaptureQueriesContext(connection) as queries:
        fetch(client_of(first), arena)
    assert rendered.count("arena/_standing_row.html") == 21  # the top 20, then their own
    assert any(STANDINGS_QUERY in query["sql"] for query in queries.captured_queries)

    second = client_of(last)
    with templates_rendered() as rendered, CaptureQueriesContext(connection) as queries:
        html = fetch(second, arena)
    assert rendered.count("arena/_standing_row.html") == 1  # only their own, below the top
    assert "arena/_arena_games.html" not in rendered
    assert not [q["sql"] for q in queries.captured_queries if STANDINGS_QUERY in q["sql"]]
    rows = standings_rows(html)
    assert len(rows) == 21
    assert all(user.username in "".join(rows) for user in users[:20])
    assert last.username in my_row(html) and "<td>25</td>" in my_row(html)


def test_each_viewer_sees_their_own_row_marked_in_the_shared_table():
    arena = running_arena()
    a, b, c = person(), person(), person()
    for user in (a, b, c):
        services.join(user, arena)
    fetch(client_of(a), arena)  # the table is kept from a's fetch

    for viewer, place in ((b, 2), (c, 3), (a, 1)):
        html = fetch(client_of(viewer), arena)
        row = my_row(html)
        assert viewer.username in row and f"<td>{place}</td>" in row
        assert len(standings_rows(html)) == 3  # their row in its place, not twice


def test_a_game_ending_is_seen_by_the_next_fetch(django_capture_on_commit_callbacks):
    arena = running_arena()
    a, b = person(), person()
    for user in (a, b):
        services.join(user, arena)
    (match_id,) = services.pair_waiting(arena)
    watcher = client_of(person())
    before = fetch(watcher, arena)
    assert "arena-games" in before  # their game is being played
    assert "<td>0</td>" in standings_rows(before)[0]
    # Nothing changed: the table kept from the first fetch.
    assert standings_rows(fetch(watcher, arena)) == standings_rows(before)

    with django_capture_on_commit_callbacks(execute=True):
        end_with_fool(match_id, b)

    after = fetch(watcher, arena)
    winner_row = standings_rows(after)[0]
    assert a.username in winner_row and "<td>2</td>" in winner_row
    assert "arena-games" not in after  # the game is over
    assert a.username in my_row(fetch(client_of(a), arena))


def test_russian_and_english_viewers_each_get_their_own_language(
    django_capture_on_commit_callbacks,
):
    arena = running_arena()
    resting, ru_viewer, en_viewer = person(), person(), person()
    for user in (resting, ru_viewer, en_viewer):
        services.join(user, arena)
    with django_capture_on_commit_callbacks(execute=True):
        services.set_paused(resting, arena, True)

    russian = fetch(client_of(ru_viewer, "ru"), arena)
    english = fetch(client_of(en_viewer, "en"), arena)
    assert "(на паузе)" in standings_rows(russian)[0] and "paused" not in russian
    assert "(paused)" in standings_rows(english)[0] and "на паузе" not in english
    assert "Таблица" in russian and "Standings" in english
    # And the language kept first is still served to the next Russian viewer.
    assert "(на паузе)" in fetch(client_of(resting, "ru"), arena)
