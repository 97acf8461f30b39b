"""A player's profile lists the arenas they played, with their final place and points,
and a trophy for each podium place of a finished arena; in English and Russian."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from arena import services
from arena.models import Arena, ArenaPlayer

from .conftest import end_with_fool, person, running_arena, table_of

pytestmark = pytest.mark.django_db


def profile_of(user, language: str = "en", viewer=None) -> str:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    if viewer is not None:
        client.force_login(viewer)
    response = client.get(reverse("accounts:profile", args=[user.username]))
    assert response.status_code == 200
    return response.content.decode()


def arena_rows(html: str) -> dict[int, tuple[int, int, str]]:
    """Arena id -> (place, points, the place's cell) as the profile shows them."""
    rows = {}
    for arena_id, row in re.findall(r'<tr data-arena="(\d+)">(.*?)</tr>', html, re.S):
        cell = re.search(r'data-place="(\d+)">([^<]*)<', row)
        points = re.search(r'data-points="(\d+)"', row)
        rows[int(arena_id)] = (int(cell.group(1)), int(points.group(1)), cell.group(2))
    return rows


def played_and_finished(players: list) -> Arena:
    """An arena in which ``players`` joined, were paired and played one game each (the
    later of each pair the fool), then the arena ended."""
    arena = running_arena()
    for user in players:
        services.join(user, arena)
    for match_id in services.pair_waiting(arena):
        seated = table_of(match_id)
        fool = next(user for user in players if user.pk in seated and user.pk != min(seated))
        end_with_fool(match_id, fool)
    Arena.objects.filter(pk=arena.pk).update(
        status=Arena.Status.FINISHED, starts_at=timezone.now() - timedelta(hours=1)
    )
    return Arena.objects.get(pk=arena.pk)


def test_places_and_trophies_match_the_final_standings():
    players = [person("pr") for _ in range(5)]
    arena = played_and_finished(players)
    # Nobody on the standings' own page may stand elsewhere on a profile.
    final = list(services.standings(arena))
    assert [row.games for row in final].count(1) == 4  # one of five waited without a game
    medals = {1: "🥇", 2: "🥈", 3: "🥉"}
    for place, row in enumerate(final, start=1):
        shown = arena_rows(profile_of(row.user))
        assert shown[arena.pk][:2] == (place, row.points)
        assert shown[arena.pk][2].startswith(medals.get(place, str(place)))
    # The winner wins a second arena: two gold trophies; a running arena gives none.
    winner = final[0].user
    second = running_arena(name="Second", status=Arena.Status.FINISHED)
    ArenaPlayer.objects.create(arena=second, user=winner, points=6, games=3)
    ArenaPlayer.objects.create(arena=second, user=players[4], points=2, games=3)
    running = running_arena(name="Still on")
    ArenaPlayer.objects.create(arena=running, user=winner, points=4, games=2)
    html = profile_of(winner)
    trophies = re.search(r'data-testid="arena-trophies">(.*?)</p>', html, re.S).group(1)
    assert 'data-medal="🥇"' in trophies and ">🥇×2<" in trophies
    assert "🥈" not in trophies and "🥉" not in trophies
    assert arena_rows(html)[running.pk] == (1, 4, "1")  # first, but no trophy yet
    assert "(running now)" in html


def test_a_withdrawn_player_is_still_listed_at_their_place():
    players = [person("wd") for _ in range(4)]
    arena = played_and_finished(players)
    final = list(services.standings(arena))
    gone = final[1]
    ArenaPlayer.objects.filter(pk=gone.pk).update(withdrawn=True)
    html = profile_of(gone.user)
    assert arena_rows(html)[arena.pk][:2] == (2, gone.points)
    assert "(withdrew)" in html
    assert "(вышел из турнира)" in profile_of(gone.user, "ru")


def test_nothing_for_a_player_with_no_arenas():
    lonely = person("na")
    running_arena()  # an arena they never joined
    for language in ("en", "ru"):
        html = profile_of(lonely, language, viewer=person("viewer"))
        assert 'data-testid="profile-arenas"' not in html
        assert "<tr data-arena" not in html


def test_the_section_in_russian():
    players = [person("ru") for _ in range(2)]
    arena = played_and_finished(players)
    winner = services.standings(arena)[0].user
    html = profile_of(winner, "ru")
    assert "<h2>Арены</h2>" in html
    assert "Трофеи:" in html and "🥇" in html
    assert ">Место<" in html and ">Очки<" in html
    assert "1 место на пьедестале" in html
    english = profile_of(winner, "en")
    assert "<h2>Arenas</h2>" in english and "Trophies:" in english
    assert ">Place<" in english and "1 podium place" in english
