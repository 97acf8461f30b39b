"""Helpers for live-play tests: users, sessions and WebSocket clients on the real stack."""

from __future__ import annotations

from typing import Any

import pytest
from channels.routing import URLRouter
from channels.security.websocket import AllowedHostsOriginValidator
from django.contrib.auth import get_user_model

from durak_site.routing import websocket_urlpatterns
from games.socket_guard import socket_auth_stack
from tests import sockets
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


@pytest.fixture(autouse=True)
def fresh_channel_layer():
    """Each async test runs its own event loop; channels-redis binds to one, so start anew."""
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()
    # Consumers query from asgiref's one sync thread, which keeps its connection;
    # close it so the test database can be dropped at the end.
    from asgiref.sync import SyncToAsync
    from django.db import connections

    SyncToAsync.single_thread_executor.submit(connections.close_all).result()


@pytest.fixture(autouse=True)
def fast_live_settings(settings):
    settings.GAMES_BOT_DELAY = (0.0, 0.0)
    settings.GAMES_CHAT_RATE = (3, 10)


def make_user(name: str, **extra: Any):
    return get_user_model().objects.create_user(username=name, password="pw-" + name, **extra)


def application():
    return AllowedHostsOriginValidator(socket_auth_stack(URLRouter(websocket_urlpatterns)))


class Socket(sockets.Socket):
    """A viewer's socket on the WebSocket stack alone: no ticker starts in tests."""

    def application(self):
        return application()
