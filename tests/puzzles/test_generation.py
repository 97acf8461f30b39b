"""Puzzles are found in stored bot games, and every answer stands when solved again."""

import random
from io import StringIO

import pytest
from django.core.management import call_command
from django_tasks_db.models import DBTaskResult

from analysis import services as analysis_services
from analysis.models import DealAnalysis
from durak.bots.analysis import AnalysisBudget
from durak.bots.play import play_game
from durak.bots.puzzles import MAX_PLAYER_MOVES, NOT_FOOL, OUT_FIRST, find_puzzles, goal_values
from durak.engine import Game, Rules
from history.replay import deal_record
from history.seeding import get_user, play_match
from puzzles.generation import (
    bot_move,
    generate_at_swings,
    generate_for_deal,
    seed_puzzles,
    swing_moves,
)
from puzzles.models import Puzzle, PuzzleScan

pytestmark = pytest.mark.django_db


@pytest.fixture
def seeded():
    games, stored = seed_puzzles(4, seed=7)
    assert games == 4
    assert stored == Puzzle.objects.count() > 0
    return list(Puzzle.objects.all())


def check_step(game, seat, goal, step, depth=1):
    """Every decision of the line is proven again from its position: its answers are
    exactly the moves that reach the goal, and the replies after each are legal."""
    assert game.talon_count <= 1 and len(game.out_order) == game.players - 2
    values = goal_values(game, seat, goal, max_nodes=None)
    assert values is not None
    winning = {str(a) for a, wins in values.items() if wins}
    # Every winning move is accepted, and nothing else: no second winning answer refused.
    assert winning == set(step["answers"])
    assert {str(a) for a in values} == set(step["options"])
    assert 0 < len(step["answers"]) <= len(step["options"]) / 2
    assert set(step["next"]) == winning
    checked = 1
    for answer, following in step["next"].items():
        after = game.copy()
        after.apply(answer)
        for reply in following["replies"]:
            after.apply(reply)  # IllegalAction if a stored reply were not legal
        if following["step"] is not None:
            assert depth < MAX_PLAYER_MOVES
            checked += check_step(after, seat, goal, following["step"], depth + 1)
    return checked


def test_every_seeded_puzzle_is_proven_again_by_the_solver(seeded):
    steps = 0
    for puzzle in seeded:
        game = Game.from_snapshot(puzzle.position)
        assert puzzle.line["answers"] == puzzle.answers
        steps += check_step(game, puzzle.seat, puzzle.goal, puzzle.line)
        if puzzle.goal == OUT_FIRST:
            # Asked only where every move already avoids being the fool.
            assert all(goal_values(game, puzzle.seat, NOT_FOOL, max_nodes=None).values())
    # The seeded set has puzzles of more than one move: their later decisions count too.
    assert steps > len(seeded)


def test_a_deal_is_searched_once(seeded):
    deal_id = seeded[0].deal_id
    assert PuzzleScan.objects.filter(deal_id=deal_id).exists()
    before = Puzzle.objects.count()
    assert generate_for_deal(deal_id) == 0
    assert Puzzle.objects.count() == before


def test_a_position_is_stored_once_whatever_deal_finds_it(seeded):
    hashes = list(Puzzle.objects.values_list("position_hash", flat=True))
    assert len(hashes) == len(set(hashes))


def test_a_finished_deal_queues_its_puzzle_search_after_commit(
    settings, django_capture_on_commit_callbacks
):
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    with django_capture_on_commit_callbacks(execute=True):
        match = play_match(["anna", "boris"], "classic", seed=3, is_rated=False)
        assert not DBTaskResult.objects.exists()
    deal = match.deals.get()
    queued = DBTaskResult.objects.filter(task_path="puzzles.tasks.find_deal_puzzles")
    assert [row.args_kwargs["args"] for row in queued] == [[deal.pk]]


def test_an_unfinished_or_unknown_deal_gives_no_puzzle():
    assert generate_for_deal(999_999) == 0
    assert not PuzzleScan.objects.exists()


def test_the_seed_command_plays_bot_games_and_stores_their_puzzles():
    out = StringIO()
    call_command("seed_puzzles", "--games", "2", "--seed", "7", stdout=out)
    stored = Puzzle.objects.count()
    assert f"Played 2 games, stored {stored} new puzzles." in out.getvalue()
    assert PuzzleScan.objects.count() == 2
    call_command("seed_puzzles", "--games", "2", "--if-empty", stdout=out)
    assert "The site has puzzles already." in out.getvalue()
    assert PuzzleScan.objects.count() == 2


def test_the_seed_command_can_leave_the_games_to_the_worker(settings):
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    call_command("seed_puzzles", "--games", "3", "--queue", "--if-empty", stdout=StringIO())
    queued = DBTaskResult.objects.get(task_path="puzzles.tasks.seed_from_bot_games")
    assert queued.args_kwargs["args"] == [3, 0]
    assert not Puzzle.objects.exists()


def test_a_proven_position_at_an_analysed_swing_is_kept_beyond_the_deals_share():
    game = Game.new(Rules(players=2), 1)
    play_game(game, ["medium", "medium"], random.Random(1))
    record = game.to_record()
    proven = find_puzzles(record)
    assert proven
    assert find_puzzles(record, per_deal=0) == []
    kept = find_puzzles(record, swing_moves=[proven[0].move], per_deal=0)
    assert [p.move for p in kept] == [proven[0].move]


def test_the_swings_are_read_from_the_deals_stored_analysis():
    match = play_match(["anna", "boris"], "classic", seed=3, is_rated=False)
    deal = match.deals.get()
    assert swing_moves(deal) == []
    DealAnalysis.objects.create(
        deal=deal,
        status=DealAnalysis.Status.DONE,
        result={"decisions": [{"move": 4, "loss": 35.0}, {"move": 9, "loss": 5.0}]},
    )
    assert swing_moves(deal) == [4]


def test_a_failed_search_leaves_the_deal_to_be_searched_again(monkeypatch):
    # A deal whose endgame the solver settles in a fraction of a second, with puzzles.
    match = play_match(["anna", "boris"], "classic", seed=37, is_rated=False)
    deal = match.deals.get()

    def broken(*args, **kwargs):
        raise RuntimeError("the worker died mid-search")

    monkeypatch.setattr("puzzles.generation.find_puzzles", broken)
    with pytest.raises(RuntimeError):
        generate_for_deal(deal.pk)
    assert not PuzzleScan.objects.filter(deal=deal).exists()
    monkeypatch.undo()
    assert generate_for_deal(deal.pk) > 0
    assert PuzzleScan.objects.filter(deal=deal).exists()


def test_a_finished_analysis_queues_the_search_at_its_swings(
    settings, django_capture_on_commit_callbacks
):
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    match = play_match(["anna", "boris"], "classic", seed=3, is_rated=False)
    deal = match.deals.get()
    row = DealAnalysis.objects.create(deal=deal)
    with django_capture_on_commit_callbacks(execute=True):
        analysis_services.run_analysis(row.pk, AnalysisBudget(seconds=0.002, samples=2))
    row.refresh_from_db()
    assert row.status == DealAnalysis.Status.DONE
    queued = DBTaskResult.objects.get(task_path="puzzles.tasks.find_swing_puzzles")
    assert queued.args_kwargs["args"] == [deal.pk]


def test_the_swing_search_stores_the_proven_positions_at_the_analysed_swings():
    creator = get_user("seeder")
    for seed in range(20):
        match = play_match(
            ["medium", "medium"],
            "classic",
            seed=seed,
            is_rated=False,
            creator=creator,
            choose=bot_move,
        )
        deal = match.deals.get()
        proven = find_puzzles(deal_record(deal), per_deal=99)
        if proven:
            break
    assert proven
    swing = proven[-1].move
    DealAnalysis.objects.create(
        deal=deal,
        status=DealAnalysis.Status.DONE,
        result={"decisions": [{"move": swing, "loss": 100.0}]},
    )
    assert generate_at_swings(deal.pk) == 1
    stored = Puzzle.objects.get(deal=deal)
    assert stored.move == swing and stored.from_swing
    # Idempotent: the position is stored once.
    assert generate_at_swings(deal.pk) == 0
