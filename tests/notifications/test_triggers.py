"""What queues a push: a turn starting for a player away from the table, an invite, a
friend request; and only for someone whose browser asked for pushes."""

from __future__ import annotations

import pytest
from django_tasks_db.models import DBTaskResult

from friends import services as friends
from friends.models import Friendship
from games import services as games
from games.models import Match, RuleVariant
from notifications.models import PushSubscription
from tests.matchmaking.conftest import make_user
from tests.notifications.keys import Browser

pytestmark = pytest.mark.django_db

SEND_PUSH = "notifications.tasks.send_push"


def subscribe(user) -> None:
    subscription = Browser.new().subscription(f"https://push.example.net/{user.pk}")
    PushSubscription.objects.create(
        user=user, endpoint=subscription["endpoint"], **subscription["keys"], language="ru"
    )


def queued() -> list[tuple[int, str, dict]]:
    """(user, kind, the rest) of each push queued for the worker."""
    rows = DBTaskResult.objects.filter(task_path=SEND_PUSH).order_by("enqueued_at")
    return [
        (row.args_kwargs["args"][0], row.args_kwargs["args"][1], row.args_kwargs["kwargs"])
        for row in rows
    ]


def lead_once(match: Match) -> None:
    """The player to lead plays a card."""
    match.refresh_from_db()
    game = games.load_game(match)
    (leader,) = game.to_act()
    action = next(a for a in game.legal_actions(leader) if a.kind == "attack")
    games.apply_action(match.pk, int(leader), str(action), version=match.version)


def test_a_turn_starting_for_an_away_player_queues_one_push_and_none_for_one_present(
    vapid, django_capture_on_commit_callbacks
):
    anna, boris = make_user(), make_user()
    subscribe(anna)
    subscribe(boris)
    with django_capture_on_commit_callbacks(execute=True):
        match = games.create_match(anna, RuleVariant.objects.get(slug="classic"), 2)
        # Anna has the table open; Boris joined and left it.
        games.seat_connected(match.pk, anna, "anna-socket")
        games.join_match(match, boris)
        match.refresh_from_db()
        assert match.status == Match.Status.PLAYING
        # Whoever leads, the other defends next: Boris's turn starts exactly once.
        lead_once(match)
    assert queued() == [(boris.pk, "turn", {"match_id": match.pk})]


def test_nobody_without_a_subscription_and_no_keys_queue_nothing(
    vapid, settings, django_capture_on_commit_callbacks
):
    anna, boris = make_user(), make_user()
    with django_capture_on_commit_callbacks(execute=True):
        match = games.create_match(anna, RuleVariant.objects.get(slug="classic"), 2)
        games.join_match(match, boris)
        lead_once(match)
    assert queued() == []
    settings.WEBPUSH_VAPID_PRIVATE_KEY = ""
    subscribe(boris)
    with django_capture_on_commit_callbacks(execute=True):
        friends.request_friend(anna, boris)
    assert queued() == []


def test_a_friend_request_and_an_invite_queue_a_push(vapid, django_capture_on_commit_callbacks):
    anna, boris = make_user(), make_user()
    subscribe(boris)
    with django_capture_on_commit_callbacks(execute=True):
        friends.request_friend(anna, boris)
    assert queued() == [(boris.pk, "friend_request", {"from_user_id": anna.pk})]
    with django_capture_on_commit_callbacks(execute=True):
        friends.accept_friend(boris, Friendship.objects.get().pk)
        match = games.create_match(anna, RuleVariant.objects.get(slug="classic"), 2)
        friends.invite(anna, boris, match.pk)
    # Accepting is no new request; the invite is news.
    assert queued()[1:] == [(boris.pk, "invite", {"match_id": match.pk, "from_user_id": anna.pk})]
