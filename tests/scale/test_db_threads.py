"""The sockets' database threads (games.db_threads) outlive a dead connection."""

from __future__ import annotations

import pytest
from django.db import OperationalError, connection

from games import db_threads
from tests.sockets import db, in_own_loop

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


def terminate_backend(pid: int) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [pid])


@needs_postgresql
@pytest.mark.django_db(transaction=True)
@in_own_loop
async def test_a_call_after_the_server_ended_the_connection_runs_on_a_new_one(one_db_thread):
    first = await db_threads.on_db_thread(backend_pid)()
    assert await db_threads.on_db_thread(backend_pid)() == first  # the thread keeps it

    await db(terminate_backend, first)

    second = await db_threads.on_db_thread(backend_pid)()
    assert second != first


@pytest.mark.django_db(transaction=True)
@in_own_loop
async def test_an_error_on_a_working_connection_is_not_retried(one_db_thread):
    calls = []

    def failing() -> None:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        calls.append(1)
        raise OperationalError("refused by the database")

    with pytest.raises(OperationalError, match="refused by the database"):
        await db_threads.on_db_thread(failing)()
    assert len(calls) == 1
