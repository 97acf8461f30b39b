"""What sets a push off: a turn starting for a player away from the table, an invite,
a friend request, a friend's new public arena.  Each is queued for the task worker once its change is committed,
and only for someone with a browser that asked for pushes."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models.signals import post_save
from django.dispatch import receiver

from arena.models import Arena
from arena.signals import public_arena_created
from friends.models import Friendship, Invite
from friends.services import friend_ids
from games.signals import turn_started
from notifications import conf
from notifications.models import PushSubscription
from notifications.tasks import send_push
from notifications.texts import ARENA, FRIEND_REQUEST, INVITE, TURN


def _subscribed(user_ids: list[int]) -> list[int]:
    if not conf.enabled() or not user_ids:
        return []
    found = PushSubscription.objects.filter(user_id__in=user_ids).values_list("user_id", flat=True)
    return sorted(set(found))


@receiver(turn_started)
def push_turn(sender: Any, match_id: int, user_ids: list[int], **kwargs: Any) -> None:
    # Sent after the commit already: queue at once.
    for user_id in _subscribed(user_ids):
        send_push.enqueue(user_id, TURN, match_id=match_id)


@receiver(post_save, sender=Invite)
def push_invite(sender: Any, instance: Invite, created: bool, **kwargs: Any) -> None:
    if not created:
        return

    def queue() -> None:
        for user_id in _subscribed([instance.to_user_id]):
            send_push.enqueue(
                user_id, INVITE, match_id=instance.match_id, from_user_id=instance.from_user_id
            )

    transaction.on_commit(queue)


@receiver(post_save, sender=Friendship)
def push_friend_request(sender: Any, instance: Friendship, created: bool, **kwargs: Any) -> None:
    if not created or instance.accepted_at is not None:
        return

    def queue() -> None:
        for user_id in _subscribed([instance.to_user_id]):
            send_push.enqueue(user_id, FRIEND_REQUEST, from_user_id=instance.from_user_id)

    transaction.on_commit(queue)


@receiver(public_arena_created, sender=Arena)
def push_friends_arena(sender: Any, arena_id: int, creator_id: int, **kwargs: Any) -> None:
    # Sent after the commit already: queue at once, one push per friend.
    for user_id in _subscribed(sorted(friend_ids(creator_id))):
        send_push.enqueue(user_id, ARENA, arena_id=arena_id, from_user_id=creator_id)
