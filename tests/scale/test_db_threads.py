"""The sockets' database threads (games.db_threads) outlive a dead connection."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import OperationalError, connection

from games import db_threads

needs_postgresql = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="ending a server connection needs PostgreSQL"
)


def backend_pid() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


@pytest.fixture
def one_db_thread(settings, monkeypatch):
    """A pool of one thread, so that each call runs on the same connection."""
    settings.GAMES_DB_THREADS = 1
    monkeypatch.setattr(db_threads, "_pool", None)
    yield
    db_threads._executor().submit(lambda: connection.close()).result()
    db_threads._executor().shutdown()


def on_the_pool(function):
    # An event loop of its own in a thread of its own: a browser test may have left
    # this thread's loop marked as running (tests/sockets.py, in_own_loop).
    with ThreadPoolExecutor(max_workers=1) as runner:
        return runner.submit(asyncio.run, db_threads.on_db_thread(function)()).result()


@needs_postgresql
@pytest.mark.django_db(transaction=True)
def test_a_call_after_the_server_ended_the_connection_runs_on_a_new_one(one_db_thread):
    first = on_the_pool(backend_pid)
    assert on_the_pool(backend_pid) == first  # the thread keeps it

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [first])

    second = on_the_pool(backend_pid)
    assert second != first


@pytest.mark.django_db(transaction=True)
def test_an_error_on_a_working_connection_is_not_retried(one_db_thread):
    calls = []

    def failing() -> None:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        calls.append(1)
        raise OperationalError("refused by the database")

    with pytest.raises(OperationalError, match="refused by the database"):
        on_the_pool(failing)
    assert len(calls) == 1
