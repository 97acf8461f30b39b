"""Tables, users and fingerprints shared by the security tests."""

from __future__ import annotations

import itertools
from typing import Any

from django.contrib.auth import get_user_model

from games import services
from games.models import Match, RuleVariant

_names = itertools.count()


def make_user(prefix: str = "u", **extra: Any):
    """A user without a password hash (nothing here logs in by form)."""
    return get_user_model().objects.create(username=f"{prefix}{next(_names)}", **extra)


def two_player_table(variant: str = "classic") -> tuple[Match, list]:
    users = [make_user("host"), make_user("guest")]
    match = services.create_match(users[0], RuleVariant.objects.get(slug=variant), 2)
    services.join_match(match, users[1])
    match.refresh_from_db()
    return match, users
