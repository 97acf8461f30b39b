"""A challenge: a private two-player table made for a friend, who is invited to it.

The table is dealt as the challenger's last "Play now" wishes ask (for a player who
never made one: podkidnoy, 36 cards, normal speed, rated), from the variant
``table_for`` picks.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from friends import services as friends
from games.models import Match
from matchmaking.models import TURN_SECONDS, Game, Speed
from matchmaking.services import create_table, last_choice, table_for

FIRST_CHALLENGE = {
    "mode": Game.PODKIDNOY,
    "deck_size": 36,
    "speed": Speed.NORMAL,
    "is_rated": True,
}


def challenge(user: Any, friend: Any) -> Match:
    """The private table ``user`` now waits at, ``friend`` invited; ActionRefused (and
    nothing made) when the invite may not be sent: not friends, a block, a flood."""
    wishes = {**FIRST_CHALLENGE, **last_choice(user)}
    variant, rules = table_for(wishes["mode"], wishes["deck_size"], 2)
    with transaction.atomic():
        match = create_table(
            user,
            variant,
            2,
            is_private=True,
            rules=rules,
            turn_seconds=TURN_SECONDS[wishes["speed"]],
            is_rated=wishes["is_rated"],
        )
        friends.invite(user, friend, match.pk)
    return match
