"""What a block and presence mean to the games app, told by its signals."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver
from django.utils.translation import gettext as _

from friends.blocks import watching_refused
from friends.models import Block
from friends.services import tell_friends
from games import signals
from games.services import ActionRefused


@receiver(signals.seat_wanted)
def refuse_blocked_player(sender: Any, match: Any, seats: list, user: Any, **kwargs: Any) -> None:
    seated = [s.user_id for s in seats if s.user_id]
    if Block.objects.filter(blocker_id__in=seated, blocked=user).exists():
        raise ActionRefused(_("A player at this table has blocked you."), code="blocked")


@receiver(signals.watching_refused)
def refuse_blocked_watcher(sender: Any, match: Any, user: Any, **kwargs: Any) -> bool:
    return watching_refused(match, user)


@receiver(signals.socket_changed)
def tell_friends_of_presence(sender: Any, user_id: int, **kwargs: Any) -> None:
    tell_friends(user_id)


@receiver(signals.seats_changed)
def tell_friends_of_seats(sender: Any, user_ids: list[int], **kwargs: Any) -> None:
    for user_id in user_ids:
        tell_friends(user_id)
