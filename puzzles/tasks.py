"""Work the task worker (``manage.py db_worker``) runs, never a web process."""

from __future__ import annotations

from django_tasks import task


@task()
def find_deal_puzzles(deal_id: int) -> None:
    """Search the finished deal ``deal_id`` for puzzles (see generation.generate_for_deal)."""
    from puzzles import generation

    generation.generate_for_deal(deal_id)
