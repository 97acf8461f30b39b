"""Work the task worker (``manage.py db_worker``) runs, never a web process."""

from __future__ import annotations

from django_tasks import task


@task()
def find_deal_puzzles(deal_id: int) -> None:
    """Search the finished deal ``deal_id`` for puzzles (see generation.generate_for_deal)."""
    from puzzles import generation

    generation.generate_for_deal(deal_id)


@task()
def find_swing_puzzles(deal_id: int) -> None:
    """Search the analysed deal ``deal_id`` at its big swings (see generation)."""
    from puzzles import generation

    generation.generate_at_swings(deal_id)


@task()
def seed_from_bot_games(games: int, seed: int) -> None:
    """Play ``games`` bot games and store their puzzles (``manage.py seed_puzzles --queue``)."""
    from puzzles import generation

    generation.seed_puzzles(games, seed)
