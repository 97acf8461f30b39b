"""Helpers of the arena tests: players, arenas and games ended by a resignation."""

from __future__ import annotations

import itertools
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.utils import timezone

from arena.models import Arena, ArenaPlayer
from games import services as games
from games.models import Match, RuleVariant, Seat
from tests.stray_connections import drop_stray_connections  # noqa: F401 (the fixture)

_names = itertools.count()


def person(prefix: str = "ar"):
    name = f"{prefix}{next(_names)}"
    return get_user_model().objects.create_user(username=name, password="pw-" + name)


def running_arena(**fields) -> Arena:
    values = {
        "name": "Evening arena",
        "variant": RuleVariant.objects.get(slug="classic"),
        "starts_at": timezone.now() - timedelta(minutes=1),
        "minutes": 30,
        "status": Arena.Status.RUNNING,
    }
    values.update(fields)
    return Arena.objects.create(**values)


def entry(arena: Arena, user) -> ArenaPlayer:
    return ArenaPlayer.objects.get(arena=arena, user=user)


def end_with_fool(match_id: int, fool) -> None:
    """End the game at ``match_id`` with ``fool`` as its fool (they resign)."""
    games.resign(match_id, fool)
    assert Match.objects.get(pk=match_id).status == Match.Status.FINISHED


def table_of(match_id: int) -> set[int]:
    return set(Seat.objects.filter(match_id=match_id).values_list("user_id", flat=True))
