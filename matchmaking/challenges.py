"""A challenge: a private two-player table made for a friend, who is invited to it.

The table is dealt as the challenger's last "Play now" wishes ask (for a player who
never made one: podkidnoy, 36 cards, normal speed, rated), as "Play now" tables are.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from friends import services as friends
from games.models import Match
from games.services import refuse_bot_account
from matchmaking.models import Game, Speed
from matchmaking.services import last_choice, table_as_wished

FIRST_CHALLENGE = {
    "mode": Game.PODKIDNOY,
    "deck_size": 36,
    "speed": Speed.NORMAL,
    "is_rated": True,
}


def challenge(user: Any, friend: Any, rules: dict[str, Any] | None = None) -> Match:
    """The private table ``user`` now waits at, ``friend`` invited; Refused (and
    nothing made) when the invite may not be sent: not friends, a block, a flood.

    ``rules`` (``mode``, ``deck_size``, ``speed``, ``is_rated``, as a seek takes them)
    override the last "Play now" wishes: the API's challenge names them.
    """
    refuse_bot_account(user)  # a bot account may be challenged, not challenge here
    wishes = {**FIRST_CHALLENGE, **last_choice(user), **(rules or {})}
    if user.is_guest:  # a guest plays unrated games only
        wishes["is_rated"] = False
    with transaction.atomic():
        match = table_as_wished(user, wishes, 2, is_private=True)
        friends.invite(user, friend, match.pk)
    return match
