"""Puzzles show both hands: they come from public games only, never from a private
table or a daily deal, whichever path would make them."""

from __future__ import annotations

import random
from importlib import import_module

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django_tasks_db.models import DBTaskResult

from analysis.models import DealAnalysis
from analysis.signals import analysis_done
from daily import services as daily_services
from daily.models import DailyDeal
from durak.bots.puzzles import FoundPuzzle, find_puzzles
from games.models import Deal, Match, RuleVariant
from history.replay import deal_record
from history.seeding import play_match
from puzzles.generation import generate_at_swings, generate_for_deal, position_hash
from puzzles.models import Puzzle, PuzzleAttempt, PuzzleScan
from tests.daily.test_daily_services import play_out

from .helpers import found_puzzles, store

pytestmark = pytest.mark.django_db

DATABASE_TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
# A two-player deal whose endgame the solver settles quickly, with puzzles in it.
DEAL_WITH_PUZZLES = 37


def finished_deal(*, is_private: bool = False, seed: str = "") -> Deal:
    match = play_match(
        ["anna", "boris"], "classic", seed=DEAL_WITH_PUZZLES, is_private=is_private, is_rated=False
    )
    Match.objects.filter(pk=match.pk).update(seed=seed)
    return match.deals.get()


def make_public(deal: Deal) -> None:
    Match.objects.filter(pk=deal.match_id).update(is_private=False, seed="")


def analysed_at_a_proven_position(deal: Deal) -> DealAnalysis:
    """The deal's analysis, done, with a big swing where the solver proves a puzzle."""
    swing = find_puzzles(deal_record(deal), per_deal=99)[-1].move
    analysis, _ = DealAnalysis.objects.update_or_create(
        deal=deal,
        defaults={
            "status": DealAnalysis.Status.DONE,
            "result": {"decisions": [{"move": swing, "loss": 100.0}]},
        },
    )
    return analysis


def distinct_positions(count: int) -> list[FoundPuzzle]:
    """``count`` puzzles of different positions, from as many bot games as it takes."""
    positions: dict[str, FoundPuzzle] = {}
    for seed in range(1, 50):
        for found in found_puzzles(seed):
            positions.setdefault(position_hash(found), found)
        if len(positions) >= count:
            return list(positions.values())[:count]
    raise AssertionError(f"fewer than {count} puzzles in 50 bot games")


def queued_searches() -> list[tuple[str, list]]:
    return sorted(
        (row.task_path, row.args_kwargs["args"])
        for row in DBTaskResult.objects.filter(task_path__startswith="puzzles.tasks.")
    )


@pytest.mark.parametrize(
    ("is_private", "seed"),
    [(True, ""), (False, "a fixed deal"), (True, "a fixed deal")],
    ids=["private", "fixed-public", "fixed-private"],
)
def test_a_private_or_fixed_deal_gives_no_puzzle_and_the_same_deal_public_does(is_private, seed):
    deal = finished_deal(is_private=is_private, seed=seed)
    assert generate_for_deal(deal.pk) == 0
    assert not Puzzle.objects.exists() and not PuzzleScan.objects.exists()
    make_public(deal)
    assert generate_for_deal(deal.pk) > 0
    assert Puzzle.objects.filter(deal=deal).exists()


def test_a_private_deal_gives_no_puzzle_at_its_analysed_swings():
    deal = finished_deal(is_private=True)
    analysed_at_a_proven_position(deal)
    assert generate_at_swings(deal.pk) == 0
    assert not Puzzle.objects.exists()
    make_public(deal)
    assert generate_at_swings(deal.pk) == 1


def test_only_a_public_deal_queues_a_puzzle_search(settings, django_capture_on_commit_callbacks):
    settings.TASKS = DATABASE_TASKS
    with django_capture_on_commit_callbacks(execute=True):
        public = play_match(["anna", "boris"], "classic", seed=3, is_rated=False).deals.get()
        hidden = play_match(
            ["anna", "boris"], "classic", seed=4, is_private=True, is_rated=False
        ).deals.get()
    assert queued_searches() == [("puzzles.tasks.find_deal_puzzles", [public.pk])]
    with django_capture_on_commit_callbacks(execute=True):
        for deal in (public, hidden):
            row = DealAnalysis.objects.create(deal=deal, status=DealAnalysis.Status.DONE)
            analysis_done.send(sender=DealAnalysis, analysis=row)
    assert queued_searches() == [
        ("puzzles.tasks.find_deal_puzzles", [public.pk]),
        ("puzzles.tasks.find_swing_puzzles", [public.pk]),
    ]


def test_a_daily_try_gives_no_puzzle_whichever_way_it_is_searched(
    settings, django_capture_on_commit_callbacks
):
    settings.TASKS = DATABASE_TASKS
    player = get_user_model().objects.create_user(username="dasha", password="pw-dasha")
    daily = DailyDeal.objects.create(
        day=daily_services.today(),
        variant=RuleVariant.objects.get(slug="classic"),
        seed="a day with puzzles",
        # The random bot keeps the test quick; the day's deal is fixed all the same.
        bot_level="random",
    )
    with django_capture_on_commit_callbacks(execute=True):
        entry = daily_services.start_daily(player, daily)
        play_out(entry.match_id, player, None, random.Random(7))
    deal = Deal.objects.get(match_id=entry.match_id, status=Deal.Status.FINISHED)
    # The day's deal has positions the solver proves: a public game would give puzzles.
    analysis = analysed_at_a_proven_position(deal)
    with django_capture_on_commit_callbacks(execute=True):
        analysis_done.send(sender=DealAnalysis, analysis=analysis)
    assert queued_searches() == []
    assert generate_for_deal(deal.pk) == 0
    assert generate_at_swings(deal.pk) == 0
    assert not Puzzle.objects.exists() and not PuzzleScan.objects.exists()


def test_the_migration_removes_the_puzzles_of_private_and_fixed_deals_with_their_attempts():
    remove = import_module("puzzles.migrations.0004_no_puzzles_from_hidden_deals")
    solver = get_user_model().objects.create_user(username="sveta", password="pw-sveta")
    deals = {
        "public": finished_deal(),
        "private": finished_deal(is_private=True),
        "daily": finished_deal(is_private=True, seed="the day's deal"),
        "fixed": finished_deal(seed="a fixed deal"),
    }
    positions = distinct_positions(len(deals) + 1)
    puzzles = {}
    for (name, deal), position in zip(deals.items(), positions, strict=False):
        puzzles[name] = store(position)
        Puzzle.objects.filter(pk=puzzles[name].pk).update(deal=deal)
        PuzzleScan.objects.create(deal=deal, found=1)
        PuzzleAttempt.objects.create(user=solver, puzzle=puzzles[name])
    # A puzzle whose game was deleted: nothing says where it came from, so it stays.
    orphan = store(positions[-1])

    remove.remove_puzzles_of_hidden_deals(apps, None)

    assert set(Puzzle.objects.values_list("pk", flat=True)) == {puzzles["public"].pk, orphan.pk}
    assert list(PuzzleAttempt.objects.values_list("puzzle", flat=True)) == [puzzles["public"].pk]
    assert list(PuzzleScan.objects.values_list("deal", flat=True)) == [deals["public"].pk]
