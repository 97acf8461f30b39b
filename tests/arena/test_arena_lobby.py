"""The lobby's arenas panel: the arenas running and the next ones, each with its
players joined and a link to its page, in one query; in English and Russian."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from arena.lobby import ARENAS_IN_LOBBY, lobby_arenas
from arena.models import Arena, ArenaPlayer

from .conftest import person, running_arena

pytestmark = pytest.mark.django_db


def lobby_html(language: str = "en", user=None) -> str:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    if user is not None:
        client.force_login(user)
    response = client.get(reverse("table:lobby"))
    assert response.status_code == 200
    return response.content.decode()


def panel_of(html: str) -> str:
    found = re.search(r'<section class="card lobby-arenas".*?</section>', html, re.S)
    return found.group(0) if found else ""


def rows_of(panel: str) -> dict[int, str]:
    return {
        int(pk): row
        for pk, row in re.findall(r'<li data-arena="(\d+)"[^>]*>(.*?)</li>', panel, re.S)
    }


def with_players(arena: Arena, joined: int, withdrawn: int = 0) -> Arena:
    for number in range(joined + withdrawn):
        ArenaPlayer.objects.create(arena=arena, user=person("lb"), withdrawn=number >= joined)
    return arena


def scheduled(name: str, in_minutes: int) -> Arena:
    return running_arena(
        name=name,
        status=Arena.Status.SCHEDULED,
        starts_at=timezone.now() + timedelta(minutes=in_minutes),
    )


def test_the_panel_lists_running_then_next_arenas_with_their_players():
    running = with_players(running_arena(name="Fast podkidnoy"), joined=3, withdrawn=1)
    later = with_players(scheduled("Evening tournament", 120), joined=1)
    sooner = scheduled("Night owls", 30)
    finished = running_arena(name="Yesterday's", status=Arena.Status.FINISHED)
    panel = panel_of(lobby_html("en"))
    rows = rows_of(panel)
    assert list(rows) == [running.pk, sooner.pk, later.pk]  # running first, then soonest
    assert finished.pk not in rows and "Yesterday" not in panel
    assert f'href="{reverse("arena:detail", args=[running.pk])}"' in rows[running.pk]
    assert "Fast podkidnoy" in rows[running.pk]
    # The withdrawn player is not counted.
    assert "3 players joined" in rows[running.pk]
    assert f"running, ends at {running.ends_at:%H:%M}" in rows[running.pk]
    assert "1 player joined" in rows[later.pk]
    starts = later.starts_at
    assert f"starts {starts.day} {starts:%B}, {starts:%H:%M}" in rows[later.pk]
    assert "0 players joined" in rows[sooner.pk]


def test_the_panel_in_russian():
    running = with_players(running_arena(name="Быстрый подкидной"), joined=2)
    later = with_players(scheduled("Вечерний турнир", 90), joined=5)
    panel = panel_of(lobby_html("ru", user=person("ruview")))
    rows = rows_of(panel)
    assert "Арены сейчас и скоро" in panel
    assert f"идёт, конец в {running.ends_at:%H:%M}" in rows[running.pk]
    assert "2 участника" in rows[running.pk]
    assert f"начало {later.starts_at.day} " in rows[later.pk]
    assert f"{later.starts_at:%H:%M}" in rows[later.pk] and "5 участников" in rows[later.pk]
    assert "players joined" not in panel and "starts " not in panel and "ends at" not in panel


def test_no_panel_without_arenas_to_come():
    running_arena(name="Over", status=Arena.Status.FINISHED)
    html = lobby_html("en")
    assert panel_of(html) == ""
    assert 'data-testid="lobby-arenas"' not in html


def test_the_panel_shows_at_most_a_few_arenas():
    arenas = [scheduled(f"Arena {n}", 10 + n) for n in range(ARENAS_IN_LOBBY + 2)]
    rows = rows_of(panel_of(lobby_html("en")))
    assert list(rows) == [arena.pk for arena in arenas[:ARENAS_IN_LOBBY]]


def test_the_arenas_cost_one_query_however_many_arenas_and_players():
    with_players(running_arena(name="One"), joined=2)
    with CaptureQueriesContext(connection) as one:
        assert [arena.joined for arena in lobby_arenas()] == [2]
    for n in range(4):
        with_players(scheduled(f"More {n}", 20 + n), joined=3, withdrawn=1)
    with CaptureQueriesContext(connection) as five:
        assert [arena.joined for arena in lobby_arenas()] == [2, 3, 3, 3, 3]
    assert len(one) == len(five) == 1


def test_the_lobby_page_costs_no_query_per_arena():
    viewer = person("qv")
    with_players(running_arena(name="One"), joined=2)
    lobby_html("en", user=viewer)  # caches warmed (variants, sessions)
    with CaptureQueriesContext(connection) as one_arena:
        html = lobby_html("en", user=viewer)
    assert len(rows_of(panel_of(html))) == 1
    for n in range(4):
        with_players(scheduled(f"More {n}", 20 + n), joined=3)
    with CaptureQueriesContext(connection) as five_arenas:
        html = lobby_html("en", user=viewer)
    assert len(rows_of(panel_of(html))) == 5
    assert len(five_arenas) == len(one_arena)
