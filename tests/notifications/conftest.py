from __future__ import annotations

import pytest

from tests.notifications.keys import KeyPair

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
