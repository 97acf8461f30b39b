"""Many players press "Play now" at once: each is seated at most once, tables are whole.

Run with DATABASE_URL set, this is PostgreSQL's row locks at work (several
connections at once); on SQLite the writers take turns.
"""

from __future__ import annotations

import random
import threading
from collections import Counter, defaultdict

import pytest
from django.db import connections

from games.models import Match, Seat
from matchmaking import services
from matchmaking.models import POOL_FIELDS, Seek

from .conftest import make_user, wishes

pytestmark = pytest.mark.django_db(transaction=True)

SEEKERS = 30


def test_parallel_seekers_are_each_seated_once_at_whole_tables_of_one_kind():
    rng = random.Random(27)
    users = [make_user("par") for _ in range(SEEKERS)]
    choices = [wishes(players=rng.choice([2, 3]), deck_size=rng.choice([36, 52])) for _ in users]
    start = threading.Barrier(len(users))
    failures: list[BaseException] = []

    def seek(user, choice) -> None:
        try:
            start.wait()
            services.create_seek(user, **choice)
        except BaseException as error:  # reported below, not lost in the thread
            failures.append(error)
        finally:
            connections.close_all()

    threads = [
        threading.Thread(target=seek, args=pair) for pair in zip(users, choices, strict=True)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    # What the seeks themselves could not pair (each saw the others uncommitted),
    # the ticker's pass pairs.
    services.pair_all()

    seeks = list(Seek.objects.all())
    assert len(seeks) == SEEKERS
    assert Counter(s.user_id for s in seeks).most_common(1)[0][1] == 1
    by_match = defaultdict(list)
    for seek in seeks:
        if seek.status == Seek.Status.SEATED:
            by_match[seek.match_id].append(seek)
    seated_users = Counter(Seat.objects.filter(user__in=users).values_list("user_id", flat=True))
    assert all(count == 1 for count in seated_users.values())
    assert set(seated_users) == {s.user_id for group in by_match.values() for s in group}
    for match_id, group in by_match.items():
        match = Match.objects.get(pk=match_id)
        pools = {tuple(s.pool()[f] for f in POOL_FIELDS) for s in group}
        assert len(pools) == 1, "one table, one kind of seek"
        assert len(group) == match.players == Seat.objects.filter(match=match).count()
        assert match.engine_rules.deck_size == group[0].deck_size
        assert match.status == Match.Status.PLAYING
    # Whatever still waits could not fill a table of its kind.
    left = Counter(
        tuple(s.pool()[f] for f in POOL_FIELDS) for s in seeks if s.status == Seek.Status.WAITING
    )
    for pool, count in left.items():
        assert count < dict(zip(POOL_FIELDS, pool, strict=True))["players"]
