"""Ties in the standings: performance over the arena first, then who reached the score
first."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from arena import services
from arena.models import ArenaGame, ArenaPlayer
from arena.scoring import Outcome, game_performance
from history.models import Rating

from .conftest import end_with_fool, entry, person, running_arena, table_of

pytestmark = pytest.mark.django_db


def rated(rating: float):
    user = person()
    Rating.objects.create(user=user, rating_class="two_player", rating=rating, games=20)
    return user


def test_a_games_performance_is_the_opponents_rating_give_or_take_400():
    assert game_performance(Outcome.NOT_FOOL, [1600]) == 2000
    assert game_performance(Outcome.DRAW, [1600]) == 1600
    assert game_performance(Outcome.FOOL, [1600]) == 1200
    assert game_performance(Outcome.NOT_FOOL, [1500, 1700]) == 2000  # their mean
    assert game_performance(Outcome.FOOL, []) == 1100  # nobody rated: the start, 1500


def two_tables(arena, first_pair, second_pair) -> tuple[int, int]:
    """Pair ``first_pair`` and ``second_pair`` at a table each (joined in that order,
    nearby ranks sit together)."""
    for user in (*first_pair, *second_pair):
        services.join(user, arena)
    made = services.pair_waiting(arena)
    by_table = {frozenset(table_of(match_id)): match_id for match_id in made}
    return (
        by_table[frozenset(u.pk for u in first_pair)],
        by_table[frozenset(u.pk for u in second_pair)],
    )


def order(arena) -> list[int]:
    return [row.user_id for row in services.standings(arena)]


def test_equal_points_go_to_the_better_performance_though_reached_later():
    arena = running_arena()
    early, weak = rated(1500), rated(1400)
    late, strong = rated(1500), rated(1900)
    first, second = two_tables(arena, (early, weak), (late, strong))
    end_with_fool(first, weak)
    end_with_fool(second, strong)
    assert entry(arena, early).points == entry(arena, late).points == 2
    assert entry(arena, early).performance == 1400 + 400
    assert entry(arena, late).performance == 1900 + 400
    assert order(arena)[:2] == [late.pk, early.pk]
    # The ratings are those of the seating: a later change moves nothing.
    Rating.objects.filter(user=strong).update(rating=1000)
    recomputed = services.recompute(arena)
    for row in ArenaPlayer.objects.filter(arena=arena):
        assert recomputed[row.user_id] == (
            row.points,
            row.games,
            row.on_fire,
            row.performance,
            row.bot_games,
        )
    assert ArenaGame.objects.get(match_id=second).ratings[str(strong.pk)] == 1900


def test_equal_points_and_performance_go_to_who_reached_the_score_first():
    arena = running_arena()
    a, a_rival = rated(1500), rated(1600)
    b, b_rival = rated(1500), rated(1600)
    first, second = two_tables(arena, (a, a_rival), (b, b_rival))
    end_with_fool(second, b_rival)  # b reaches 2 points first
    end_with_fool(first, a_rival)
    assert entry(arena, a).performance == entry(arena, b).performance == 2000
    assert order(arena)[:2] == [b.pk, a.pk]


def test_points_come_before_performance():
    arena = running_arena()
    winner, weak = rated(1500), rated(1000)
    fool, strong = rated(1500), rated(2400)
    first, second = two_tables(arena, (winner, weak), (fool, strong))
    end_with_fool(first, weak)
    end_with_fool(second, fool)
    # The fool against a strong player performed better (2000) than the winner
    # against a weak one (1400), but the points come first.
    assert entry(arena, fool).performance > entry(arena, winner).performance
    assert order(arena).index(winner.pk) < order(arena).index(fool.pk)


def services_pair(arena, *users) -> list[int]:
    for user in users:
        services.join(user, arena)
    return services.pair_waiting(arena)


def test_the_standings_show_each_players_performance():
    arena = running_arena()
    a, b = rated(1500), rated(1700)
    (match_id,) = services_pair(arena, a, b)
    end_with_fool(match_id, b)
    client = Client(HTTP_ACCEPT_LANGUAGE="ru")
    client.force_login(a)
    html = client.get(reverse("arena:standings", args=[arena.pk])).content.decode()
    assert "Перформанс" in html
    assert "2100" in html and "1100" in html
