"""The leaderboard is alive on a new site: week's games and wins with people, games
against bots, puzzle ratings and daily streaks beside the rating board, in both
languages, each board a fixed number of queries."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from daily import services as daily
from games import services as games
from games.models import RuleVariant
from history.models import PlayerGame
from history.seeding import get_user, play_match
from puzzles.models import PuzzleRating

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def short_searches(settings):
    settings.GAMES_BOT_PLAYOUTS = 40


def classic() -> RuleVariant:
    return RuleVariant.objects.get(slug="classic")


def board(html: str, name: str) -> str:
    """The HTML of one board (its ``data-testid``)."""
    start = html.index(f'data-testid="{name}"')
    return html[start : html.index("</section>", start)]


def names_on(html: str, name: str) -> list[str]:
    return re.findall(r'<tr data-user="([^"]+)"', board(html, name))


def leaderboard(language: str) -> str:
    response = Client().get(reverse("daily:leaderboard"), HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return response.content.decode()


@pytest.fixture
def new_site():
    """A site with one game each: anna and boris together, vera against a bot, gleb's
    one puzzle, dasha's one daily deal."""
    play_match(["anna", "boris"], "classic", seed=4)
    vera = get_user("vera")
    games.resign(games.create_match(vera, classic(), 2, bots=["random"]).pk, vera)
    PuzzleRating.objects.create(user=get_user("gleb"), rating=1620, rd=300, attempts=1, solved=1)
    dasha = get_user("dasha")
    entry = daily.start_daily(dasha, daily.deal_of_the_day(classic()))
    games.resign(entry.match_id, dasha)
    winner = PlayerGame.objects.get(user__username__in=["anna", "boris"], result="safe")
    return winner.user.username


@pytest.mark.parametrize(
    ("language", "headings"),
    [
        (
            "en",
            [
                "Most games this week",
                "Most wins this week",
                "Against bots this week",
                "Puzzle ratings",
                "Daily deal streaks",
                "Nobody has played enough rated games in this class yet.",
            ],
        ),
        (
            "ru",
            [
                "Больше всех партий за неделю",
                "Больше всех побед за неделю",
                "Против ботов за неделю",
                "Рейтинг в задачах",
                "Серии в сдаче дня",
                "Сыграно дней",
            ],
        ),
    ],
)
def test_a_new_sites_leaderboard_shows_its_players(new_site, language, headings):
    html = leaderboard(language)
    for heading in headings:
        assert heading in html
    # Nobody has 10 rated games: the rating board is empty, the others are not.
    assert 'data-testid="leaderboard"' not in html
    assert sorted(names_on(html, "board-week-games")) == ["anna", "boris"]
    assert names_on(html, "board-week-wins") == [new_site]
    assert sorted(names_on(html, "board-week-bots")) == ["dasha", "vera"]
    assert names_on(html, "board-puzzles") == ["gleb"]
    assert names_on(html, "board-daily") == ["dasha"]
    row = re.search(r'<tr data-user="dasha">.*?</tr>', board(html, "board-daily")).group(0)
    assert re.findall(r"<td>(\d+)</td>", row) == ["1", "1", "1"]  # place, in a row, days


def test_the_boards_order_their_players_and_leave_out_last_week():
    play_match(["anna", "boris"], "classic", deals=3, seed=4)
    play_match(["anna", "vera"], "classic", seed=5)
    old = play_match(["gleb", "vera"], "classic", seed=6)
    PlayerGame.objects.filter(match=old).update(finished_at=timezone.now() - timedelta(days=8))
    PuzzleRating.objects.create(user=get_user("low"), rating=1400, rd=80, attempts=9, solved=3)
    PuzzleRating.objects.create(user=get_user("high"), rating=1700, rd=80, attempts=9, solved=8)
    PuzzleRating.objects.create(user=get_user("never"), attempts=0)
    html = leaderboard("en")
    assert names_on(html, "board-week-games") == ["anna", "boris", "vera"]
    assert "gleb" not in html
    assert names_on(html, "board-puzzles") == ["high", "low"]
    rows = re.findall(
        r'<tr data-user="(\w+)"><td>\d+</td><td>.*?</td><td>(\d+)</td><td>(\d+)</td></tr>',
        board(html, "board-week-wins"),
    )
    won = PlayerGame.objects.filter(result="safe").exclude(match=old)
    assert {name for name, _wins, _games in rows} == set(
        won.values_list("user__username", flat=True)
    )
    assert all(int(wins) > 0 for _name, wins, _games in rows)
    assert [int(wins) for _name, wins, _games in rows] == sorted(
        (int(wins) for _name, wins, _games in rows), reverse=True
    )


def test_the_daily_board_counts_streaks_and_days():
    variant = classic()
    today = daily.today()
    streaker, lapsed = get_user("streaker"), get_user("lapsed")
    for back in (3, 2, 1):
        deal = daily.deal_of_the_day(variant, today - timedelta(days=back))
        entry = daily.DailyEntry.objects.create(
            daily=deal,
            user=streaker,
            match=games.create_match(streaker, variant, 2, bots=["hard"], is_private=True),
            streak=daily.streak_before(streaker, deal.day) + 1,
        )
    assert entry.streak == 3
    games.resign(daily.start_daily(streaker, daily.deal_of_the_day(variant)).match_id, streaker)
    deal = daily.deal_of_the_day(variant, today - timedelta(days=5))
    daily.DailyEntry.objects.create(
        daily=deal,
        user=lapsed,
        match=games.create_match(lapsed, variant, 2, bots=["hard"], is_private=True),
    )
    html = leaderboard("ru")
    assert names_on(html, "board-daily") == ["streaker", "lapsed"]
    streaks = board(html, "board-daily")
    streaker_row = re.search(r'data-user="streaker">.*?</tr>', streaks).group(0)
    assert re.findall(r"<td>(\d+)</td>", streaker_row) == ["1", "4", "4"]
    lapsed_row = re.search(r'data-user="lapsed">.*?</tr>', streaks).group(0)
    assert "—" in lapsed_row and lapsed_row.endswith("<td>1</td></tr>")


def test_more_players_do_not_mean_more_queries():
    play_match(["anna", "boris"], "classic", seed=4)
    PuzzleRating.objects.create(user=get_user("anna"), attempts=1, solved=1)
    anna = get_user("anna")
    games.resign(daily.start_daily(anna, daily.deal_of_the_day(classic())).match_id, anna)
    with CaptureQueriesContext(connection) as few:
        leaderboard("en")
    for seed in range(3):
        play_match([f"p{seed}", f"q{seed}", f"r{seed}"], "classic", seed=seed)
        PuzzleRating.objects.create(user=get_user(f"p{seed}"), attempts=2, solved=1)
        player = get_user(f"q{seed}")
        entry = daily.start_daily(player, daily.deal_of_the_day(classic()))
        games.resign(entry.match_id, player)
    with CaptureQueriesContext(connection) as many:
        html = leaderboard("en")
    assert len(names_on(html, "board-week-games")) == 10  # the board's rows
    assert len(many.captured_queries) == len(few.captured_queries)


def test_the_migration_counts_the_streaks_of_earlier_tries():
    from importlib import import_module

    from django.apps import apps

    variant = classic()
    today = daily.today()
    player = get_user("anna")
    for back in (5, 2, 1, 0):
        daily.DailyEntry.objects.create(
            daily=daily.deal_of_the_day(variant, today - timedelta(days=back)),
            user=player,
            match=games.create_match(player, variant, 2, bots=["hard"], is_private=True),
        )
    import_module("daily.migrations.0004_entry_streak").count_streaks(apps, None)
    streaks = daily.DailyEntry.objects.order_by("daily__day").values_list("streak", flat=True)
    assert list(streaks) == [1, 1, 2, 3]
