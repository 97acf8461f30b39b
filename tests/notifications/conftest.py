from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.notifications.keys import KeyPair
from tests.notifications.push_service import FakePushService, running_push_service

CONTACT = "mailto:push@example.org"


@pytest.fixture
def vapid(settings) -> KeyPair:
    """The site with VAPID keys set (push notifications on) and its task table."""
    pair = KeyPair.new()
    settings.WEBPUSH_VAPID_PRIVATE_KEY = pair.private_b64
    settings.WEBPUSH_VAPID_PUBLIC_KEY = pair.public_b64
    settings.WEBPUSH_CONTACT = CONTACT
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    return pair


@pytest.fixture
def push_service() -> Iterator[FakePushService]:
    with running_push_service() as server:
        yield server
