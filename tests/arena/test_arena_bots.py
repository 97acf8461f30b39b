"""Bots fill a wait: a player left without an opponent for the arena's wait plays a bot
of its level, in an unrated game that scores for them and is marked."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from arena import services
from arena.models import ArenaPlayer
from durak.engine import Action
from games.models import BotLevel, Deal, Match, Move, RuleVariant, Seat
from games.services.common import load_game
from games.services.play import apply_locked, lock_with_seats
from history.models import Rating

from .conftest import end_with_fool, entry, person, running_arena, table_of

pytestmark = pytest.mark.django_db

WAIT = 30


def bots_arena(**fields):
    values = {"bots_allowed": True, "bot_wait_seconds": WAIT, "bot_level": BotLevel.EASY}
    values.update(fields)
    return running_arena(**values)


def bot_seats(match_id: int) -> list[Seat]:
    return list(Seat.objects.filter(match_id=match_id, user__isnull=True))


def bot_resigns(match_id: int) -> None:
    """End the game at ``match_id`` with its bot as the fool (the bot gives up)."""
    (bot,) = bot_seats(match_id)
    with transaction.atomic():
        match, seats = lock_with_seats(match_id)
        apply_locked(
            match,
            seats,
            load_game(match),
            Action(bot.number, "resign"),
            source=Move.Source.BOT,
            now=timezone.now(),
            end_reason=Deal.EndReason.RESIGNED,
        )
    assert Match.objects.get(pk=match_id).status == Match.Status.FINISHED


def wait_out(arena, start) -> list[int]:
    """Pair ``arena`` on a tick at ``start``, then just before and as its wait runs out."""
    assert services.pair_waiting(arena, start) == []
    assert services.pair_waiting(arena, start + timedelta(seconds=WAIT - 1)) == []
    return services.pair_waiting(arena, start + timedelta(seconds=WAIT))


def test_a_lone_player_plays_a_bot_of_the_arenas_level_once_the_wait_runs_out():
    arena = bots_arena()
    lone = person()
    services.join(lone, arena)
    (match_id,) = wait_out(arena, timezone.now())
    assert table_of(match_id) == {lone.pk, None}
    (bot,) = bot_seats(match_id)
    assert bot.bot_level == BotLevel.EASY
    assert Match.objects.get(pk=match_id).status == Match.Status.PLAYING
    # Seated: the wait is over, and no second table comes while they play.
    assert entry(arena, lone).waiting_since is None
    later = timezone.now() + timedelta(seconds=3 * WAIT)
    assert services.pair_waiting(arena, later) == []


def test_without_bots_allowed_a_lone_player_just_waits():
    arena = running_arena(bot_wait_seconds=WAIT)
    services.join(person(), arena)
    start = timezone.now()
    assert services.pair_waiting(arena, start) == []
    assert services.pair_waiting(arena, start + timedelta(minutes=5)) == []
    assert not Match.objects.exists()
    assert entry(arena, ArenaPlayer.objects.get().user).waiting_since is None


def test_a_person_who_comes_during_the_wait_is_paired_instead_of_a_bot():
    arena = bots_arena()
    first, second = person(), person()
    services.join(first, arena)
    start = timezone.now()
    assert services.pair_waiting(arena, start) == []
    services.join(second, arena)
    (match_id,) = services.pair_waiting(arena, start + timedelta(seconds=WAIT))
    assert table_of(match_id) == {first.pk, second.pk}
    assert bot_seats(match_id) == []


def test_the_bots_game_scores_is_marked_and_never_rated():
    classic = RuleVariant.objects.get(slug="classic")
    classic.rated_with_bots = True  # the variant would rate it: the arena must not
    classic.save()
    arena = bots_arena(is_rated=True)
    player = person()
    services.join(player, arena)
    (first,) = wait_out(arena, timezone.now())
    assert Match.objects.get(pk=first).is_rated is False
    end_with_fool(first, player)
    (second,) = wait_out(arena, timezone.now())
    bot_resigns(second)
    mine = entry(arena, player)
    assert (mine.points, mine.games, mine.bot_games) == (0 + 2, 2, 2)
    # The bot counts as unrated (1500) in the performance: 1100 then 1900.
    assert mine.performance == 1500
    assert not Rating.objects.filter(user=player).exists()
    # The bot stands nowhere: the standings are the one person.
    assert [row.user_id for row in services.standings(arena)] == [player.pk]
    assert services.recompute(arena) == {
        player.pk: (mine.points, mine.games, mine.on_fire, mine.performance, 2)
    }


def test_a_game_between_people_is_no_bot_game_and_stays_rated():
    arena = bots_arena(is_rated=True)
    a, b = person(), person()
    for user in (a, b):
        services.join(user, arena)
    (match_id,) = services.pair_waiting(arena)
    assert Match.objects.get(pk=match_id).is_rated is True
    end_with_fool(match_id, b)
    assert (entry(arena, a).bot_games, entry(arena, b).bot_games) == (0, 0)


def test_a_paused_player_gets_no_bot_and_their_wait_starts_again_on_return():
    arena = bots_arena()
    player = person()
    services.join(player, arena)
    start = timezone.now()
    assert services.pair_waiting(arena, start) == []
    services.set_paused(player, arena, True)
    assert services.pair_waiting(arena, start + timedelta(seconds=WAIT)) == []
    services.set_paused(player, arena, False)
    back = start + timedelta(seconds=WAIT + 5)
    # Back after the wait would have run out: they wait it out again from now.
    assert wait_out(arena, back)


def test_at_a_table_of_three_two_who_waited_sit_with_one_bot():
    arena = bots_arena(players_per_table=3)
    a, b = person(), person()
    for user in (a, b):
        services.join(user, arena)
    (match_id,) = wait_out(arena, timezone.now())
    assert table_of(match_id) == {a.pk, b.pk, None}
    assert len(bot_seats(match_id)) == 1


def test_no_bot_in_the_last_minute():
    arena = bots_arena(starts_at=timezone.now() - timedelta(minutes=29, seconds=20))
    services.join(person(), arena)
    start = timezone.now() - timedelta(seconds=WAIT)
    services.pair_waiting(arena, start)
    assert services.pair_waiting(arena) == []
    assert not Match.objects.exists()


@pytest.mark.parametrize(
    ("language", "rule", "mark", "game_mark"),
    [
        ("en", "Bots fill a wait", "Played a bot in 1 game", "with a bot, unrated"),
        ("ru", "Боты вместо ожидания", "1 партия с ботом", "с ботом, без рейтинга"),
    ],
)
def test_the_page_tells_the_rule_and_marks_bot_games(language, rule, mark, game_mark):
    arena = bots_arena()
    player = person()
    services.join(player, arena)
    (first,) = wait_out(arena, timezone.now())
    end_with_fool(first, player)
    wait_out(arena, timezone.now())  # a second bot game, being played
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(player)
    page = client.get(reverse("arena:detail", args=[arena.pk])).content.decode()
    assert rule in page
    assert mark in page
    assert game_mark in page
    assert "🤖" in page
