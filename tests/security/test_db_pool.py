"""PostgreSQL connections stay bounded by Django's pool, however many requests run at once."""

from __future__ import annotations

import threading
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="the connection pool is PostgreSQL's"
    ),
]

REQUESTS = 200
# The server's connections carry this name; other processes of the suite (a cluster
# test's servers, say) may be connected to the same test database.
SERVER_TAG = "durak-pool-test"


@pytest.fixture
def tagged_server_connections():
    """Name the connections of the server forked after this fixture."""
    options = connection.settings_dict["OPTIONS"]
    options["application_name"] = SERVER_TAG
    yield
    options.pop("application_name", None)
    connection.close()
    connection.close_pool()


def _server_connections(stop: threading.Event, seen: list[int]) -> None:
    """Sample how many backends the server holds on the test database until ``stop``."""
    import psycopg

    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    with psycopg.connect(**params, autocommit=True) as own:
        me = own.info.backend_pid
        while not stop.is_set():
            row = own.execute(
                "SELECT count(*) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> %s AND application_name = %s",
                [me, SERVER_TAG],
            ).fetchone()
            seen.append(row[0])
            time.sleep(0.01)


def _get(url: str) -> int:
    with urllib.request.urlopen(url, timeout=60) as response:
        response.read()
        return response.status


def test_parallel_requests_never_hold_more_connections_than_the_pool(
    tagged_server_connections, live_server_url
) -> None:
    from django.conf import settings

    maximum = settings.DATABASES["default"]["OPTIONS"]["pool"]["max_size"]
    # The test's own connection must not count as the server's.
    connection.close()
    stop, seen = threading.Event(), []
    sampler = threading.Thread(target=_server_connections, args=(stop, seen))
    sampler.start()
    try:
        with ThreadPoolExecutor(max_workers=50) as clients:
            urls = [f"{live_server_url}/leaderboard/"] * REQUESTS
            statuses = list(clients.map(_get, urls))
    finally:
        stop.set()
        sampler.join()
    assert statuses == [200] * REQUESTS
    assert seen and max(seen) > 0, "the sampler saw no server connection at all"
    assert max(seen) <= maximum, f"the server held {max(seen)} connections, pool max {maximum}"
