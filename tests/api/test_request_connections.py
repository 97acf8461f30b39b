"""A request served over ASGI runs on a thread made for it alone: the database
connections it opened are closed as it ends, not left open until the garbage
collector finds them."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync
from channels.testing import HttpCommunicator
from django.core.asgi import get_asgi_application
from django.db.backends.signals import connection_created

from .helpers import make_user, token_of


def served_over_asgi(path: str, secret: str) -> int:
    communicator = HttpCommunicator(
        get_asgi_application(),
        "GET",
        path,
        headers=[(b"authorization", f"Bearer {secret}".encode()), (b"host", b"localhost")],
    )
    return async_to_sync(communicator.get_response)()["status"]


@pytest.mark.django_db(transaction=True)
def test_an_api_request_leaves_no_database_connection_open():
    secret = token_of(make_user("ann"))
    opened = []

    def record(sender, connection, **kwargs):
        opened.append(connection)

    connection_created.connect(record)
    try:
        statuses = [served_over_asgi("/api/account", secret) for _ in range(3)]
    finally:
        connection_created.disconnect(record)
    assert statuses == [200, 200, 200]
    assert len(opened) >= 3  # each request read its token on a connection of its own
    assert [c for c in opened if c.connection is not None] == []
