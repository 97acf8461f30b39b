"""The version of an arena's standings: a number in the site's cache that changes
whenever anything the standings show may have changed (``notify_arena_changed``
bumps it as the change commits).  A render of the standings kept under one version
is never served once the version has moved on.

A version that is missing (never set, evicted, the cache restarted) starts again
from the clock in nanoseconds, never from 0, so it cannot come back to a number an
earlier render was kept under.
"""

from __future__ import annotations

import time

from django.core.cache import cache


def _version_key(arena_id: int) -> str:
    return f"arena:{arena_id}:standings-version"


def standings_version(arena_id: int) -> int:
    """The current version of ``arena_id``'s standings."""
    key = _version_key(arena_id)
    version = cache.get(key)
    if version is None:
        cache.add(key, time.time_ns(), timeout=None)
        version = cache.get(key)
    return int(version)


def bump_standings_version(arena_id: int) -> int:
    """The standings of ``arena_id`` changed: no render kept so far is current.  The
    new version."""
    key = _version_key(arena_id)
    try:
        return int(cache.incr(key))
    except ValueError:  # missing: any fresh start is past every earlier version
        return standings_version(arena_id)
