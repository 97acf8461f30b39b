"""Settings of the matchmaking, with defaults; any may be set in Django settings."""

from __future__ import annotations

from typing import Any

from django.conf import settings

DEFAULTS: dict[str, Any] = {
    # A seek that allows bots gets them after waiting this many seconds for people,
    # when others were looking for the same game as it was made;
    "MATCHMAKING_BOT_SECONDS": 20,
    # and after this many when nobody else was: a newcomer does not wait alone.
    "MATCHMAKING_ALONE_BOT_SECONDS": 1,
    # The rating gap two seeks accept: this many points at once, widening by the
    # second many each second of waiting.
    "MATCHMAKING_WINDOW": (150.0, 15.0),
    # At most this many seeks (and cancels) per user within this many seconds.
    "MATCHMAKING_SEEK_RATE": (6, 60),
    # The bots that fill a table after the wait.
    "MATCHMAKING_BOT_LEVEL": "medium",
    # A guest with nothing done for this many days is removed (matchmaking.guests),
    "MATCHMAKING_GUEST_IDLE_DAYS": 7,
    # by a clean-up a new guest queues at most once in this many seconds (0: never).
    "MATCHMAKING_GUEST_SWEEP_SECONDS": 3600,
}


def setting(name: str) -> Any:
    return getattr(settings, name, DEFAULTS[name])
