"""Friend requests through the API: the event stream tells each one waiting, and
``POST /api/friends/{username}`` asks or accepts as the profile's Add friend button
does, so a bot account can take people's requests and then be challenged."""

from __future__ import annotations

import pytest

from api.events import AccountEvents
from friends import services as friends
from friends.models import Friendship
from matchmaking.bot_accounts import turn_into_bot

from .helpers import api_client, make_user, token_of

pytestmark = pytest.mark.django_db


def befriend(secret: str, username: str):
    return api_client(secret).post(f"/api/friends/{username}")


def test_a_bot_account_takes_a_persons_request_and_is_then_challenged():
    ann, robo = make_user("ann"), turn_into_bot(make_user("robo"))
    events = AccountEvents(robo, token_id=0)
    assert events.news() == []
    asked = friends.request_friend(ann, robo)
    assert events.news() == [{"type": "friend_request", "request_id": asked.pk, "from": "ann"}]
    assert events.news() == []  # told once

    taken = befriend(token_of(robo), "ANN")

    assert taken.status_code == 200, taken.content
    assert taken.json() == {"username": "ann", "friends": True}
    assert Friendship.objects.get(pk=asked.pk).accepted_at is not None
    assert events.news() == []
    challenged = api_client(token_of(ann)).post(
        "/api/challenges", {"username": "robo"}, content_type="application/json"
    )
    assert challenged.status_code == 201, challenged.content


def test_asking_a_player_waits_for_their_answer_and_asking_twice_is_refused():
    robo, bob = turn_into_bot(make_user("robo")), make_user("bob")
    secret = token_of(robo)
    asked = befriend(secret, "bob")
    assert asked.json() == {"username": "bob", "friends": False}
    again = befriend(secret, "bob")
    assert (again.status_code, again.json()["code"]) == (400, "asked")
    assert Friendship.objects.filter(from_user=robo, to_user=bob, accepted_at=None).count() == 1


def test_refusals_change_nothing():
    ann, bob = make_user("ann"), make_user("bob")
    friends.block(bob, ann)
    secret = token_of(ann)
    for username, status, code in (
        ("ann", 400, "self"),
        ("bob", 400, "blocked"),
        ("nobody", 404, "not_found"),
    ):
        refused = befriend(secret, username)
        assert (refused.status_code, refused.json()["code"]) == (status, code)
    assert befriend(token_of(ann, ("read",)), "bob").status_code == 403
    assert api_client(None).post("/api/friends/bob").status_code == 401
    assert not Friendship.objects.exists()
