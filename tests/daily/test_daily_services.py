"""The daily deal's services: one try each, the same bot for everyone, the board."""

from __future__ import annotations

import datetime
import random

import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from analysis.models import DealAnalysis
from daily import services
from daily.models import DailyDeal, DailyEntry
from durak.engine import Game
from games import services as games
from games.models import Deal, Match, Move, RuleVariant

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def short_searches(settings):
    settings.GAMES_BOT_PLAYOUTS = 40


def person(name: str):
    return get_user_model().objects.create_user(username=name, password="pw-" + name)


def classic_today() -> DailyDeal:
    return services.deal_of_the_day(RuleVariant.objects.get(slug="classic"))


def later() -> datetime.datetime:
    return timezone.now() + datetime.timedelta(hours=1)


def play_out(match_id: int, user, moves: list[str] | None, rng: random.Random) -> list[str]:
    """Play the player's side of a daily game to its end, the bot answering through the
    bot workers' own path (``run_bot_turn``: claim, search, apply).  ``moves`` replays
    a list of the player's moves; without it moves are picked by ``rng``.  Returns the
    player's moves."""
    played: list[str] = []
    for _ in range(500):
        match = Match.objects.get(pk=match_id)
        if match.status != Match.Status.PLAYING:
            return played
        if games.run_bot_turn(match_id, later()) is not None:
            continue
        game = Game.from_snapshot(match.state)
        if 0 not in game.to_act():
            continue
        if moves is None:
            legal = [a for a in game.legal_actions(0) if a.kind not in ("resign", "swap")]
            action = str(rng.choice(legal))
        else:
            action = moves[len(played)]
        games.apply_action(match_id, user, action, version=match.version)
        played.append(action)
    raise AssertionError("the game did not end")


def moves_of(match_id: int) -> list[tuple[int, str, str]]:
    return list(
        Move.objects.filter(match_id=match_id)
        .order_by("seq")
        .values_list("seat", "action", "source")
    )


def test_the_same_moves_from_two_accounts_meet_the_same_bot_replies(
    django_capture_on_commit_callbacks,
):
    daily = classic_today()
    anna, boris = person("anna"), person("boris")
    first = services.start_daily(anna, daily)
    second = services.start_daily(boris, daily)
    decks = list(
        Deal.objects.filter(match__daily_entry__daily=daily).values_list("deck", flat=True)
    )
    assert len(decks) == 2 and decks[0] == decks[1]
    with django_capture_on_commit_callbacks(execute=True):
        moves = play_out(first.match_id, anna, None, random.Random(5))
        play_out(second.match_id, boris, moves, random.Random())
    bot_moves = [m for m in moves_of(first.match_id) if m[2] == Move.Source.BOT]
    assert len(bot_moves) >= 5
    assert moves_of(first.match_id) == moves_of(second.match_id)
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.result and first.result == second.result
    # Both finished games wait for their analysis, for the board's accuracy.
    assert DealAnalysis.objects.filter(deal__match__daily_entry__daily=daily).count() == 2
    # The task worker's run gives the board its accuracy.
    from analysis.services import run_analysis
    from durak.bots.analysis import AnalysisBudget

    queued = DealAnalysis.objects.get(deal__match_id=first.match_id)
    run_analysis(queued.pk, AnalysisBudget(seconds=0.01, samples=2))
    services.refresh_accuracies(daily)
    first.refresh_from_db()
    assert first.accuracy is not None and 0 <= first.accuracy <= 100


def test_a_second_try_is_refused_and_changes_nothing():
    daily = classic_today()
    anna = person("anna")
    entry = services.start_daily(anna, daily)
    tables = Match.objects.count()
    with pytest.raises(games.Refused) as refused:
        services.start_daily(anna, daily)
    assert refused.value.code == "played"
    assert "already played today's deal" in refused.value.message
    assert Match.objects.count() == tables
    assert list(DailyEntry.objects.values_list("pk", flat=True)) == [entry.pk]
    # The database itself holds the line, whatever the service checks.
    other = games.create_match(anna, daily.variant, 2, bots=["hard"])
    with pytest.raises(IntegrityError):
        DailyEntry.objects.create(daily=daily, user=anna, match=other)


def test_a_second_try_by_post_gets_a_clear_refusal_and_no_table():
    daily = classic_today()
    anna = person("anna")
    client = Client()
    client.force_login(anna)
    url = reverse("daily:play", args=["classic"])
    first = client.post(url)
    entry = DailyEntry.objects.get(user=anna)
    assert first.status_code == 302 and first["Location"] == f"/games/{entry.match_id}/"
    tables = Match.objects.count()
    again = client.post(url)
    assert again.status_code == 409
    assert "You have already played today&#x27;s deal" in again.content.decode()
    assert Match.objects.count() == tables and DailyEntry.objects.filter(daily=daily).count() == 1
    # Russian too.
    client.cookies["django_language"] = "ru"
    again = client.post(url, HTTP_ACCEPT_LANGUAGE="ru")
    assert again.status_code == 409 and "Вы уже сыграли" in again.content.decode()
    # A variant without a daily deal, and a GET, change nothing either.
    assert client.post(reverse("daily:play", args=["transfer"])).status_code == 404
    assert client.get(url).status_code == 405
    assert Match.objects.count() == tables


def test_a_suspended_player_is_refused():
    daily = classic_today()
    anna = person("anna")
    get_user_model().objects.filter(pk=anna.pk).update(
        suspended_until=timezone.now() + datetime.timedelta(days=1)
    )
    with pytest.raises(games.Refused) as refused:
        services.start_daily(anna, daily)
    assert refused.value.code == "suspended"
    assert not Match.objects.exists() and not DailyEntry.objects.exists()


def test_an_earlier_days_deal_is_not_played():
    yesterday = services.deal_of_the_day(
        RuleVariant.objects.get(slug="classic"), services.today() - datetime.timedelta(days=1)
    )
    with pytest.raises(games.Refused) as refused:
        services.start_daily(person("anna"), yesterday)
    assert refused.value.code == "day_over" and not Match.objects.exists()


def test_a_daily_table_has_no_rematch_and_is_unrated():
    anna = person("anna")
    entry = services.start_daily(anna, classic_today())
    match = Match.objects.get(pk=entry.match_id)
    assert match.is_private and not match.is_rated and match.seed
    games.resign(match.pk, anna)
    with pytest.raises(games.Refused) as refused:
        games.start_next_deal(match.pk, anna)
    assert refused.value.code == "fixed_deal"
    assert Deal.objects.filter(match=match).count() == 1
    entry.refresh_from_db()
    assert entry.result == DailyEntry.Result.FOOL and entry.result_rank == 3


def test_no_hints_at_a_daily_table():
    from analysis import hints
    from analysis.models import HintRequest
    from analysis.services import Refused

    anna = person("anna")
    entry = services.start_daily(anna, classic_today())
    with pytest.raises(Refused, match="without hints"):
        hints.request_hint(entry.match_id, anna)
    assert not HintRequest.objects.exists()
    games.run_bot_turn(entry.match_id, later())  # the bot leads, if it holds the lead
    match = Match.objects.get(pk=entry.match_id)
    assert 0 in Game.from_snapshot(match.state).to_act()
    client = Client()
    client.force_login(anna)
    page = client.get(reverse("table:table", args=[entry.match_id])).content.decode()
    assert "table-hand" in page and "control-hint" not in page
    assert "table-daily" in page and "one try, no hints" in page


def finished_entry(name: str, daily: DailyDeal, result: str, accuracy, seconds: int) -> DailyEntry:
    user = person(name)
    entry = services.start_daily(user, daily)
    games.resign(entry.match_id, user)
    DailyEntry.objects.filter(pk=entry.pk).update(
        result=result,
        result_rank=DailyEntry.RESULT_RANK[result],
        accuracy=accuracy,
        think_seconds=seconds,
    )
    return entry


def test_the_board_ranks_result_then_accuracy_then_time():
    daily = classic_today()
    Result = DailyEntry.Result
    finished_entry("fool", daily, Result.FOOL, 99.0, 10)
    finished_entry("slow", daily, Result.OUT_FIRST, 80.0, 300)
    finished_entry("unanalysed", daily, Result.OUT_FIRST, None, 5)
    finished_entry("fast", daily, Result.OUT_FIRST, 80.0, 100)
    finished_entry("sharp", daily, Result.OUT_FIRST, 90.0, 900)
    finished_entry("draw", daily, Result.NOT_FOOL, 95.0, 50)
    services.start_daily(person("playing"), daily)  # not finished: not on the board
    names = [e.user.username for e in services.board(daily)]
    assert names == ["sharp", "fast", "slow", "unanalysed", "draw", "fool"]
    field = services.field_of(daily)
    assert field.players == 6
    assert [(value, percent) for value, _label, percent in field.shares] == [
        ("out_first", 67),
        ("not_fool", 17),
        ("fool", 17),
    ]
    assert field.average_accuracy == pytest.approx((99 + 80 + 80 + 90 + 95) / 5)


def test_the_accuracy_comes_from_the_finished_analysis(django_capture_on_commit_callbacks):
    daily = classic_today()
    anna = person("anna")
    entry = services.start_daily(anna, daily)
    with django_capture_on_commit_callbacks(execute=True):
        games.resign(entry.match_id, anna)
    analysis = DealAnalysis.objects.get(deal__match_id=entry.match_id)
    analysis.status = DealAnalysis.Status.DONE
    analysis.result = {
        "decisions": [{"seat": 0, "loss": 0.0}, {"seat": 0, "loss": 100.0}, {"seat": 1, "loss": 50}]
    }
    analysis.save()
    services.refresh_accuracies(daily)
    entry.refresh_from_db()
    assert entry.accuracy == pytest.approx(50.0, abs=1)


def test_streaks_count_consecutive_days():
    anna = person("anna")
    variant = RuleVariant.objects.get(slug="classic")
    today = services.today()
    for back in (1, 2, 4):
        daily = services.deal_of_the_day(variant, today - datetime.timedelta(days=back))
        match = games.create_match(anna, variant, 2, bots=["hard"], is_private=True)
        DailyEntry.objects.create(daily=daily, user=anna, match=match)
    # Not played today yet: the streak of the two days before still stands.
    assert services.streak(anna) == 2
    services.start_daily(anna, classic_today())
    assert services.streak(anna) == 3
    assert services.streak(person("boris")) == 0


def test_others_games_replay_only_after_ones_own_try():
    daily = classic_today()
    anna, boris = person("anna"), person("boris")
    entry = services.start_daily(anna, daily)
    games.resign(entry.match_id, anna)
    replay = reverse("analysis:replay", args=[entry.match_id])
    client = Client()
    client.force_login(boris)
    assert client.get(replay).status_code == 404  # the deck stays hidden before his try
    assert "daily-top-replay" not in client.get(reverse("daily:today")).content.decode()
    mine = services.start_daily(boris, daily)
    assert client.get(replay).status_code == 404  # still playing
    games.resign(mine.match_id, boris)
    assert client.get(replay).status_code == 200
    page = client.get(reverse("daily:today")).content.decode()
    assert "daily-top-replay" in page and 'data-user="anna"' in page
    # A stranger to the daily deal still sees no private game.
    stranger = Client()
    stranger.force_login(person("carl"))
    assert stranger.get(replay).status_code == 404


def test_the_pages_for_visitors_and_other_days(settings):
    anna = person("anna")
    entry = services.start_daily(anna, classic_today())
    games.resign(entry.match_id, anna)
    visitor = Client()
    page = visitor.get(reverse("daily:today"))
    assert page.status_code == 200
    text = page.content.decode()
    assert 'data-user="anna"' in text and "Log in to play today" in text
    assert "daily-top-replay" not in text  # the deck stays hidden from visitors today
    yesterday = (services.today() - datetime.timedelta(days=1)).isoformat()
    assert visitor.get(reverse("daily:day", args=[yesterday])).status_code == 200
    tomorrow = (services.today() + datetime.timedelta(days=1)).isoformat()
    assert visitor.get(reverse("daily:day", args=[tomorrow])).status_code == 404
    assert visitor.get(reverse("daily:day", args=["not-a-day"])).status_code == 404
    # A variant can be given a daily deal by its slug.
    settings.DAILY_VARIANTS = ("classic", "transfer")
    assert [v.slug for v in services.daily_variants()] == ["classic", "transfer"]
