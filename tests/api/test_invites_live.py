"""A bot account on a real daphne, with the reference client: it hears of a person's
challenge on its event stream, accepts it, is told the game started and follows its
seat there; a second answer is refused with the service's code."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from django.db import connections

from friends import services as friends
from matchmaking import challenges
from matchmaking.bot_accounts import turn_into_bot

from .helpers import make_user, token_of

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "clients"))

from durak_api import ApiError, DurakClient  # noqa: E402


@pytest.mark.django_db(transaction=True)
def test_a_bot_account_accepts_a_challenge_from_its_event_stream(live_server_url):
    person, robo = make_user("ann"), turn_into_bot(make_user("robo"))
    friends.accept_friend(robo, friends.request_friend(person, robo).pk)
    secret = token_of(robo)
    connections.close_all()
    client = DurakClient(live_server_url, secret)
    lines = client.events()

    match = challenges.challenge(person, robo)
    connections.close_all()
    invite = next(lines)
    assert invite["type"] == "invite"
    assert (invite["match_id"], invite["from"]) == (match.pk, "ann")

    accepted = client.accept_invite(invite["invite_id"])
    assert accepted["status"] == "accepted" and accepted["game_status"] == "playing"
    assert next(lines) == {"type": "game_started", "match_id": match.pk, "seat": 1}
    seat_stream = client.stream(match.pk)
    state = next(seat_stream)
    seat_stream.close()
    assert (state["status"], state["seat"]) == ("playing", 1)
    assert len(state["view"]["hand"]) == 6

    with pytest.raises(ApiError) as refused:
        client.decline_invite(invite["invite_id"])
    assert (refused.value.status, refused.value.code) == (400, "answered")
    lines.close()
