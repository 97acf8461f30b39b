"""The tests keep to their Redis database and prefix: a cache clear deletes only
their own keys, never another run's."""

from __future__ import annotations

import os

import pytest
import redis
from django.conf import settings
from django.core.cache import cache

from tests.redis_db import TEST_REDIS_DB, redis_url_for_tests

pytestmark = pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs REDIS_URL")


def test_the_cache_and_the_layer_use_the_test_database() -> None:
    assert settings.CACHES["default"]["LOCATION"].endswith(f"/{TEST_REDIS_DB}")
    hosts = settings.CHANNEL_LAYERS["default"]["CONFIG"]["hosts"]
    assert all(host["address"].endswith(f"/{TEST_REDIS_DB}") for host in hosts)


def test_a_cache_clear_leaves_other_keys_alone() -> None:
    client = redis.Redis.from_url(redis_url_for_tests(os.environ["REDIS_URL"]))
    other = f"another-run-{os.getpid()}:1:kept"
    try:
        client.set(other, "1", ex=60)
        cache.set("mine", 1)
        cache.clear()
        assert cache.get("mine") is None
        assert client.get(other) == b"1"
    finally:
        client.delete(other)
        client.close()
