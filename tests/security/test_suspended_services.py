"""The service layer itself refuses suspended users, whatever called it and whatever
user object it was handed (a socket holds the one it opened with)."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from durak.engine import Game
from games import services
from games.models import Match, RuleVariant
from tests.table_fingerprint import table_fingerprint

from .helpers import make_user, two_player_table

pytestmark = pytest.mark.django_db


def suspend_behind_its_back(user) -> None:
    """Suspend as the admin does, leaving the caller's object as it was loaded."""
    get_user_model().objects.filter(pk=user.pk).update(
        suspended_until=timezone.now() + datetime.timedelta(days=1),
        suspension_reason="cheating",
    )
    assert not user.is_suspended  # the object the caller holds still says otherwise


def refused_as_suspended(call, *args, **kwargs) -> services.Refused:
    with pytest.raises(services.Refused) as refused:
        call(*args, **kwargs)
    assert refused.value.code == "suspended"
    assert "cheating" in refused.value.message
    return refused.value


def test_moves_resign_and_chat_of_a_suspended_player_are_refused() -> None:
    match, users = two_player_table()
    game = Game.from_snapshot(match.state)
    action = game.legal_actions()[0]
    mover = users[action.seat]
    suspend_behind_its_back(mover)
    before = table_fingerprint(match.pk)
    refused_as_suspended(services.apply_action, match.pk, mover, str(action), version=match.version)
    refused_as_suspended(services.resign, match.pk, mover)
    refused_as_suspended(services.post_chat, match.pk, mover, "still here")
    assert table_fingerprint(match.pk) == before
    # The other player is not affected.
    other = users[1 - action.seat]
    services.post_chat(match.pk, other, "hello")


def test_join_create_start_and_rematch_of_a_suspended_user_are_refused() -> None:
    classic = RuleVariant.objects.get(slug="classic")
    host = make_user("host")
    table = services.create_match(host, classic, 2)
    newcomer = make_user("newcomer")
    suspend_behind_its_back(newcomer)
    before = table_fingerprint(table.pk)
    refused_as_suspended(services.join_match, table, newcomer)
    refused_as_suspended(services.create_match, newcomer, classic, 2)
    assert table_fingerprint(table.pk) == before
    assert Match.objects.count() == 1

    match, users = two_player_table()
    services.resign(match.pk, users[0])
    suspend_behind_its_back(users[1])
    before = table_fingerprint(match.pk)
    refused_as_suspended(services.start_next_deal, match.pk, users[1])
    assert table_fingerprint(match.pk) == before


def test_a_muted_user_held_from_before_cannot_chat() -> None:
    match, users = two_player_table()
    get_user_model().objects.filter(pk=users[0].pk).update(
        muted_until=timezone.now() + datetime.timedelta(hours=1)
    )
    before = table_fingerprint(match.pk)
    with pytest.raises(services.Refused) as refused:
        services.post_chat(match.pk, users[0], "shh")
    assert refused.value.code == "muted"
    assert table_fingerprint(match.pk) == before


def test_a_server_move_for_a_suspended_players_seat_still_runs() -> None:
    # Turn timers act for a seat by number; the suspension must not stall the table.
    match, users = two_player_table()
    game = Game.from_snapshot(match.state)
    action = game.legal_actions()[0]
    suspend_behind_its_back(users[action.seat])
    outcome = services.apply_action(match.pk, action.seat, str(action), version=match.version)
    assert outcome.version == match.version + 1
