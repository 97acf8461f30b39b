"""Fixtures of the scale tests: standard variants, users with sessions, sockets, a cluster."""

from __future__ import annotations

import copy
import itertools
import os
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from tests import sockets
from tests.redis_db import redis_url_for_tests
from tests.sockets import (  # noqa: F401  (re-exported for the test modules)
    CARD,
    ERROR,
    VERSION,
    card_codes,
    db,
    frame_version,
    in_own_loop,
    session_cookie,
)

needs_cluster_backends = pytest.mark.skipif(
    not (os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL")),
    reason="several processes need DATABASE_URL (PostgreSQL) and REDIS_URL (channels-redis)",
)
_names = itertools.count()


@pytest.fixture(scope="session", autouse=True)
def drop_stray_connections(django_db_setup, django_db_blocker) -> Iterator[None]:
    """Before the test database is dropped, end connections other threads left open.

    Consumers run queries in worker threads that keep their connection (CONN_MAX_AGE);
    PostgreSQL refuses to drop a database somebody is still connected to.
    """
    yield
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )


@pytest.fixture(autouse=True)
def quiet_ticker(settings) -> None:
    # In-process sockets run on the test's event loop: no background ticker there.
    settings.GAMES_TICKER = False
    settings.GAMES_BOT_DELAY = (0.0, 0.0)


def make_user(prefix: str = "u", **extra: Any):
    """A user without a password hash (hashing is slow and nothing here logs in by form)."""
    return get_user_model().objects.create(username=f"{prefix}{next(_names)}", **extra)


class Socket(sockets.Socket):
    """One viewer's in-process WebSocket through the project's real ASGI application."""

    drain_quiet = 0.1

    def application(self):
        from durak_site.asgi import application

        return application


@pytest.fixture(autouse=True)
def channels_prefix(settings) -> Iterator[str]:
    """A Redis key prefix of this test only, shared with any child process it starts.

    Test databases of parallel runs reuse match ids, so without it their groups
    ("match-1") would meet in one Redis.
    """
    from channels.layers import channel_layers

    prefix = f"durak-test-{uuid.uuid4().hex[:10]}"
    if os.environ.get("REDIS_URL"):
        layers = copy.deepcopy(settings.CHANNEL_LAYERS)
        layers["default"]["CONFIG"]["prefix"] = prefix
        address = redis_url_for_tests(os.environ["REDIS_URL"])
        layers["default"]["CONFIG"]["hosts"] = [
            {**host, "address": address} if isinstance(host, dict) else address
            for host in layers["default"]["CONFIG"]["hosts"]
        ]
        settings.CHANNEL_LAYERS = layers
    channel_layers.backends.clear()
    yield prefix
    channel_layers.backends.clear()
