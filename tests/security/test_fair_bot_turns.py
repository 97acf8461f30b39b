"""One person's many bot tables do not starve everyone else's bots: the bot workers
claim due turns in turn between the tables' creators, still each turn exactly once.

Run with DATABASE_URL set, the concurrent claims are PostgreSQL's SKIP LOCKED at
work; on SQLite the writers take turns.
"""

from __future__ import annotations

import threading
from collections import Counter
from datetime import timedelta

import pytest
from django.db import connections
from django.utils import timezone

from games import services
from games.models import Match, RuleVariant
from games.services.timers import claim_due_bot_turn

from .helpers import make_user

FLOOD = 20


def hard_bot_table(user, players: int = 6) -> Match:
    variant = RuleVariant.objects.get(slug="classic")
    return services.create_match(user, variant, players, bots=["hard"] * (players - 1))


def due_in_order(matches: list[Match], first_due) -> None:
    """Make each table's bot due, a millisecond apart in the order given."""
    for number, match in enumerate(matches):
        due = first_due + timedelta(milliseconds=number)
        Match.objects.filter(pk=match.pk).update(status=Match.Status.PLAYING, bot_due_at=due)


@pytest.mark.django_db
def test_another_persons_bot_is_served_among_the_first_claims_not_after_a_flood():
    flooder, other = make_user("flood"), make_user("other")
    flood = [hard_bot_table(flooder) for _ in range(FLOOD)]
    own = hard_bot_table(other, players=2)
    start = timezone.now()
    due_in_order(flood, start)
    # The other person's bot is due after every one of the flood's.
    due_in_order([own], start + timedelta(seconds=1))
    now = start + timedelta(seconds=2)

    claimed = [claim_due_bot_turn(now).match_id for _ in range(FLOOD + 1)]

    assert own.pk in claimed[:2]
    # Every due turn was claimed, each once, the flood's in their due order.
    assert sorted(claimed) == sorted([m.pk for m in flood] + [own.pk])
    assert [pk for pk in claimed if pk != own.pk] == [m.pk for m in flood]
    assert claim_due_bot_turn(now) is None


@pytest.mark.django_db
def test_two_flooding_creators_and_a_third_take_turns():
    people = [make_user("a"), make_user("b"), make_user("c")]
    tables = {person.pk: [hard_bot_table(person, 2) for _ in range(4)] for person in people[:2]}
    tables[people[2].pk] = [hard_bot_table(people[2], 2)]
    start = timezone.now()
    # The first creator's tables are all due before the second's, the third's last.
    due_in_order(tables[people[0].pk] + tables[people[1].pk] + tables[people[2].pk], start)
    owner = {m.pk: person for person, ms in tables.items() for m in ms}

    # A worker's claims, each at its own instant.
    claimed = [
        owner[claim_due_bot_turn(start + timedelta(seconds=1, milliseconds=n)).match_id]
        for n in range(9)
    ]

    a, b, c = (person.pk for person in people)
    assert claimed[:3] == [a, b, c]
    assert claimed[3:] == [a, b, a, b, a, b]


@pytest.mark.django_db(transaction=True)
def test_workers_claiming_at_once_take_each_due_turn_exactly_once():
    flooder, other = make_user("flood"), make_user("other")
    flood = [hard_bot_table(flooder, 2) for _ in range(FLOOD)]
    own = hard_bot_table(other, 2)
    start = timezone.now()
    due_in_order([*flood, own], start)
    now = start + timedelta(seconds=1)
    workers = 4
    together = threading.Barrier(workers)
    claims: list[int] = []
    failures: list[BaseException] = []

    def worker() -> None:
        try:
            together.wait()
            misses = 0
            while misses < 3:  # a claim that lost a race claims nothing: look again
                claim = claim_due_bot_turn(now)
                if claim is None:
                    misses += 1
                else:
                    claims.append(claim.match_id)
        except BaseException as error:  # reported below, not lost in the thread
            failures.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=worker) for _ in range(workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert failures == []
    assert Counter(claims) == Counter([m.pk for m in flood] + [own.pk])
    # However the workers interleaved, the other person waited for one claim each at most.
    assert claims.index(own.pk) < 2 * workers
