"""Work the task worker (``manage.py task_worker``) runs, never a web process."""

from __future__ import annotations

from django_tasks import task


@task()
def sweep_idle_guests() -> None:
    """Remove the guests idle too long (``matchmaking.guests.remove_idle_guests``)."""
    from matchmaking.guests import remove_idle_guests

    remove_idle_guests()
