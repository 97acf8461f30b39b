"""Helpers of the matchmaking tests: users and seeks with the usual wishes."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tests.stray_connections import drop_stray_connections  # noqa: F401 (the fixture)

_names = itertools.count()

USUAL = {
    "mode": "podkidnoy",
    "players": 2,
    "deck_size": 36,
    "speed": "normal",
    "is_rated": True,
    "allow_bots": False,
}


@pytest.fixture(autouse=True)
def fresh_limits(settings) -> None:
    settings.MATCHMAKING_BOT_SECONDS = 20
    settings.MATCHMAKING_ALONE_BOT_SECONDS = 2
    settings.MATCHMAKING_WINDOW = (150.0, 15.0)


def make_user(prefix: str = "seeker", **extra: Any):
    # No password: hashing is slow, and the tests sign in with force_login.
    return get_user_model().objects.create(username=f"{prefix}{next(_names)}", **extra)


def wishes(**changes: Any) -> dict[str, Any]:
    return {**USUAL, **changes}


@pytest.fixture(autouse=True)
def fresh_channel_layer():
    """As in the live tests: a new layer per event loop, and no connection left open
    in asgiref's database thread (PostgreSQL would not drop the test database)."""
    from asgiref.sync import SyncToAsync
    from channels.layers import channel_layers
    from django.db import connections

    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()
    SyncToAsync.single_thread_executor.submit(connections.close_all).result()


def client_for(user, language: str = "en") -> Client:
    """A test client signed in as ``user``, reading ``language``."""
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client
