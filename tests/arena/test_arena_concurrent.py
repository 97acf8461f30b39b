"""Pairing called by several processes' tickers at once seats each player once."""

from __future__ import annotations

import threading
from collections import Counter

import pytest
from django.db import connections

from arena import services
from arena.models import ArenaGame
from games.models import Seat

from .conftest import person, running_arena

pytestmark = pytest.mark.django_db(transaction=True)

CALLERS = 4


def test_pairing_called_at_once_seats_each_player_once():
    arena = running_arena()
    users = [person() for _ in range(6)]
    for user in users:
        services.join(user, arena)
    start = threading.Barrier(CALLERS)
    made: list[int] = []
    failures: list[BaseException] = []

    def pair() -> None:
        try:
            start.wait()
            made.extend(services.pair_waiting(arena))
        except BaseException as error:  # reported below, not lost in the thread
            failures.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=pair) for _ in range(CALLERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert len(made) == 3 == ArenaGame.objects.filter(arena=arena).count()
    seated = Counter(Seat.objects.values_list("user_id", flat=True))
    assert seated == Counter({user.pk: 1 for user in users})
