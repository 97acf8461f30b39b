"""Property tests of the service layer: random interleavings keep the table consistent.

Random legal and illegal actions from every seat, turn timers expiring (with the
clock moved past the deadline) and seats disconnecting and coming back, in any
order, always keep: every card in exactly one place, a gap-free move sequence,
and a stored snapshot equal to the engine replayed from the stored moves.
A refused action changes nothing at all.
"""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta
from unittest import mock

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from durak.engine import Game, deck_codes
from games import services
from games.models import Match, Move, RuleVariant
from tests.scale.invariants import (
    assert_every_card_in_one_place,
    assert_moves_gap_free,
    assert_snapshot_is_replay,
)
from tests.table_fingerprint import table_fingerprint

pytestmark = pytest.mark.django_db

VARIANTS = [
    ("classic", 2),
    ("classic", 3),
    ("transfer", 2),
    ("transfer-trump-show", 3),
    ("teams-2x2", 4),
    ("short-deck-24", 2),
    ("one-winner", 3),
    ("full-deck-52", 5),
]
_user_numbers = itertools.count()


class Clock:
    """The services' notion of now, moved by the test (timers need it to pass)."""

    def __init__(self) -> None:
        self.now = datetime(2030, 1, 1, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


def _users(n: int):
    from django.contrib.auth import get_user_model

    User = get_user_model()
    return [User.objects.create(username=f"prop{next(_user_numbers)}") for _ in range(n)]


def _check(match_id: int) -> None:
    match = Match.objects.get(pk=match_id)
    if match.state is not None:
        assert_every_card_in_one_place(match.state)
    assert_moves_gap_free(match_id)
    assert_snapshot_is_replay(match)


def _illegal_texts(game: Game, state: dict, seat: int, rng) -> list[str]:
    """Action texts for ``seat`` that the engine or the service must refuse."""
    hand = state["hands"][seat]
    others = [c for s, h in enumerate(state["hands"]) if s != seat for c in h]
    texts = [
        f"{seat} fly",
        f"{seat} attack ZZ",
        f"{seat} attack 1H",
        f"{seat} defend",
        "garbage",
        "",
    ]
    if others:
        texts.append(f"{seat} attack {rng.choice(others)}")
    not_in_deck = [c for c in deck_codes(52) if c not in deck_codes(state["rules"]["deck_size"])]
    if not_in_deck:
        texts.append(f"{seat} attack {rng.choice(not_in_deck)}")
    legal = {str(a) for a in game.legal_actions()}
    for card in hand:
        for text in (f"{seat} attack {card}", f"{seat} transfer {card}"):
            if text not in legal:
                texts.append(text)
    if f"{seat} take" not in legal:
        texts.append(f"{seat} take")
    return texts


@settings(
    max_examples=10,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    variant_players=st.sampled_from(VARIANTS),
    steps=st.lists(
        st.tuples(
            st.sampled_from(
                [
                    "legal",
                    "legal",
                    "legal",
                    "legal",
                    "illegal",
                    "forged",
                    "stale",
                    "timeout",
                    "away",
                    "back",
                ]
            ),
            st.integers(0, 10_000),
        ),
        min_size=10,
        max_size=60,
    ),
)
def test_random_interleavings_keep_the_table_consistent(variant_players, steps) -> None:
    slug, players = variant_players
    clock = Clock()
    # Each example rolls back, so examples never see each other's tables (or timers).
    with mock.patch("django.utils.timezone.now", clock), transaction.atomic():
        _play(slug, players, steps, clock)
        transaction.set_rollback(True)


def _channel(match_id: int, seat: int) -> str:
    # One socket per seat; a seat that comes back opens a socket of the same name.
    return f"test-socket-{match_id}-{seat}"


def _play(slug: str, players: int, steps: list[tuple[str, int]], clock: Clock) -> None:
    import random

    users = _users(players)
    variant = RuleVariant.objects.get(slug=slug)
    match = services.create_match(users[0], variant, players)
    for user in users[1:]:
        services.join_match(match.pk, user)
    for number, user in enumerate(users):
        services.seat_connected(match.pk, user, _channel(match.pk, number))
    match_id = match.pk
    connected = set(range(players))
    _check(match_id)

    for kind, pick in steps:
        rng = random.Random(pick)
        clock.advance(rng.uniform(0.05, 3.0))
        match = Match.objects.get(pk=match_id)
        if match.status != Match.Status.PLAYING:
            break
        game = Game.from_snapshot(match.state)
        seat = pick % players
        before = table_fingerprint(match_id)

        if kind == "legal":
            legal = game.legal_actions()
            action = legal[pick % len(legal)]
            outcome = services.apply_action(
                match_id, users[action.seat], str(action), version=match.version
            )
            assert outcome.version == match.version + 1
            assert Move.objects.get(match_id=match_id, seq=outcome.seq).action == str(action)
        elif kind in ("illegal", "forged", "stale"):
            if kind == "illegal":
                texts = _illegal_texts(game, match.state, seat, rng)
                text, version, sender = rng.choice(texts), match.version, users[seat]
            elif kind == "forged":
                # Another seat's legal action, sent by someone else.
                action = rng.choice(game.legal_actions())
                other = (action.seat + 1 + pick % (players - 1)) % players
                text, version, sender = str(action), match.version, users[other]
            else:
                action = rng.choice(game.legal_actions())
                text, sender = str(action), users[action.seat]
                version = match.version - 1 - pick % 3
            with pytest.raises(services.Refused):
                services.apply_action(match_id, sender, text, version=version)
            assert table_fingerprint(match_id) == before, f"{kind} {text!r} changed the table"
        elif kind == "timeout":
            if match.turn_deadline is not None:
                clock.now = max(clock.now, match.turn_deadline + timedelta(milliseconds=1))
                handled = services.expire_deadlines(now=clock.now)
                after = Match.objects.get(pk=match_id)
                assert handled == 1
                assert after.version > match.version
        elif kind == "away" and seat in connected:
            services.seat_disconnected(match_id, _channel(match_id, seat))
            connected.discard(seat)
        elif kind == "back" and seat not in connected:
            services.seat_connected(match_id, users[seat], _channel(match_id, seat))
            connected.add(seat)
        _check(match_id)
