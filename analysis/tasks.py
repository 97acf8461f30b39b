"""Work the task worker (``manage.py db_worker``) runs, never a web process."""

from __future__ import annotations

from django_tasks import task


@task()
def analyse_deal(analysis_id: int) -> None:
    """Run the claimed analysis ``analysis_id`` to the end (see services.run_analysis)."""
    from analysis import services

    services.run_analysis(analysis_id)
