"""A session fixture for test packages whose threads open their own database
connections: PostgreSQL will not drop a test database that still has sessions."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(scope="session", autouse=True)
def drop_stray_connections(django_db_setup, django_db_blocker) -> Iterator[None]:
    """Before the test database is dropped, end connections other threads left open
    (worker threads' pooled connections, the socket tests' database thread)."""
    yield
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
