"""The one Redis database the tests use, and a cache whose ``clear`` stays in it.

``TEST_REDIS_DB`` picks the database (default 15); with ``REDIS_URL`` set, every
test, the cache, the channel layer and any server a test starts talk to that
database of ``REDIS_URL``'s server.  Nothing here ever flushes a database: a
cache clear deletes the keys under this run's own prefix, and each run (and each
xdist worker of it) has its own prefixes, so parallel runs share the database.
"""

from __future__ import annotations

import os
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import redis
from django.core.cache.backends.redis import RedisCache

TEST_REDIS_DB = int(os.environ.get("TEST_REDIS_DB", "15"))


def redis_url_for_tests(url: str) -> str:
    """``url`` with the test Redis database in place of its own."""
    return urlunsplit(urlsplit(url)._replace(path=f"/{TEST_REDIS_DB}"))


def run_prefix() -> str:
    """A key prefix of this test process alone (each xdist worker is a process)."""
    return f"durak-test-{os.getpid()}"


class PrefixedRedisCache(RedisCache):
    """Django's Redis cache whose ``clear`` deletes only its own prefix's keys.

    The stock ``clear`` is FLUSHDB, which would also wipe other runs' keys, and the
    channel layer's, in the shared test database.
    """

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self.location = server

    def clear(self) -> None:
        client = redis.Redis.from_url(self.location)
        try:
            keys = list(client.scan_iter(match=f"{self.key_prefix}:*", count=1000))
            if keys:
                client.delete(*keys)
        finally:
            client.close()
