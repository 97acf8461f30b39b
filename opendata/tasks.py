"""Work the task worker (``manage.py task_worker``) runs, never a web process."""

from __future__ import annotations

from django_tasks import task


@task()
def build_month_file(year: int, month: int) -> None:
    """(Re)build the open-data file of a month (see files.build_month)."""
    from opendata import files

    files.build_month(year, month)
