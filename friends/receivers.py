"""What a block means to who sits at a table, and what the games app's news of seats
and sockets means to friends."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver
from django.utils.translation import gettext as _

from friends.models import Block
from friends.services import tell_friends
from games import signals
from games.seat_rules import seat_check
from games.services import Refused


@seat_check
def refuse_blocked_player(match: Any, seats: list, user: Any) -> None:
    seated = [s.user_id for s in seats if s.user_id]
    if Block.objects.filter(blocker_id__in=seated, blocked=user).exists():
        raise Refused(_("A player at this table has blocked you."), code="blocked")


@receiver(signals.socket_changed)
def tell_friends_of_presence(sender: Any, user_id: int, **kwargs: Any) -> None:
    tell_friends(user_id)


@receiver(signals.seats_changed)
def tell_friends_of_seats(sender: Any, user_ids: list[int], **kwargs: Any) -> None:
    for user_id in user_ids:
        tell_friends(user_id)
