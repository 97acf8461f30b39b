"""The task worker (post-game analyses, puzzle searches): django-tasks' database worker
at a lower CPU priority than the web processes beside it."""

from __future__ import annotations

from typing import Any

from django_tasks_db.management.commands import db_worker

from analysis.priority import add_nice_argument, lower_priority


class Command(db_worker.Command):
    help = "Run queued tasks (analyses, puzzle searches) at a lower priority than the web."

    def add_arguments(self, parser: Any) -> None:
        super().add_arguments(parser)
        add_nice_argument(parser, "people's moves come before analyses and puzzle searches")

    def handle(self, *args: Any, nice: int, **options: Any) -> None:
        if nice:
            lower_priority(nice)
        super().handle(*args, **options)
