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


@pytest.mark.django_db(transaction=True)
def test_the_client_challenges_seeks_and_a_bot_account_is_kept_out_of_peoples_pools(
    live_server_url,
):
    person, robo = make_user("ann"), turn_into_bot(make_user("robo"))
    friends.accept_friend(robo, friends.request_friend(person, robo).pk)
    ann, bot = token_of(person), token_of(robo)
    connections.close_all()
    ann_client, bot_client = DurakClient(live_server_url, ann), DurakClient(live_server_url, bot)

    made = ann_client.challenge("robo", deck_size=24, speed="fast", is_rated=False)
    assert (made["to"], made["deck_size"], made["turn_seconds"]) == ("robo", 24, 15)
    assert bot_client.decline_invite(made["invite_id"])["status"] == "declined"

    waiting = ann_client.seek(is_rated=False, allow_bots=False)
    assert waiting["status"] == "waiting" and waiting["match_id"] is None
    assert ann_client.cancel_seek()["status"] == "cancelled"

    with pytest.raises(ApiError) as refused:
        bot_client.seek(pool="people")
    assert (refused.value.status, refused.value.code) == (400, "bot_account")
    # Its own seek is in the bot pool, apart from people's.
    assert bot_client.seek()["pool"] == "bots"
    assert bot_client.cancel_seek()["status"] == "cancelled"
    with pytest.raises(ApiError) as refused:
        bot_client.challenge("ann")
    assert refused.value.code == "bot_account"
