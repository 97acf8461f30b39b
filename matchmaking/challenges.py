"""A challenge: a private two-player table made for a friend, who is invited to it.

The table is dealt as the challenger's last "Play now" wishes ask (for a player who
never made one: podkidnoy, 36 cards, normal speed, rated), as "Play now" tables are.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from friends import services as friends
from games.models import Match
from matchmaking.bot_pool import rated_between, refuse_challenge
from matchmaking.models import Game, Speed
from matchmaking.services import last_choice, table_as_wished

FIRST_CHALLENGE = {
    "mode": Game.PODKIDNOY,
    "deck_size": 36,
    "speed": Speed.NORMAL,
    "is_rated": True,
}


def challenge(
    user: Any, friend: Any, rules: dict[str, Any] | None = None, *, through_api: bool = False
) -> Match:
    """The private table ``user`` now waits at, ``friend`` invited; Refused (and
    nothing made) when the invite may not be sent: not friends, a block, a flood.

    ``rules`` (``mode``, ``deck_size``, ``speed``, ``is_rated``, as a seek takes them)
    override the last "Play now" wishes: the API's challenge names them.  A bot
    account challenges other bot accounts, ``through_api`` only; a game between a
    person and a bot account is unrated (``bot_pool``).
    """
    refuse_challenge(user, friend, through_api)
    wishes = {**FIRST_CHALLENGE, **last_choice(user), **(rules or {})}
    # A guest plays unrated games only; people's and bots' ratings never mix.
    wishes["is_rated"] = rated_between(user, friend, wishes["is_rated"]) and not user.is_guest
    with transaction.atomic():
        match = table_as_wished(user, wishes, 2, is_private=True)
        friends.invite(user, friend, match.pk)
    return match
