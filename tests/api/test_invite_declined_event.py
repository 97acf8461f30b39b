"""The event stream tells a challenger when their challenge (an invite they sent) is
declined, once, whether it was sent before the stream opened or after, and not a
decline that happened before it opened, nor anyone else's."""

from __future__ import annotations

import pytest

from api.events import AccountEvents
from friends import services as friends
from friends.models import Invite
from matchmaking import challenges
from matchmaking.bot_accounts import turn_into_bot

from .helpers import api_client, make_user, token_of

pytestmark = pytest.mark.django_db


def befriend(one, other) -> None:
    friends.accept_friend(other, friends.request_friend(one, other).pk)


def declined(invite) -> dict:
    return {
        "type": "invite_declined",
        "invite_id": invite.pk,
        "match_id": invite.match_id,
        "by": invite.to_user.username,
    }


def challenged(person, other):
    match = challenges.challenge(person, other)
    return Invite.objects.get(match=match)


def test_a_decline_through_the_api_is_told_to_the_challenger_once():
    ann, robo = make_user("ann"), turn_into_bot(make_user("robo"))
    befriend(ann, robo)
    events = AccountEvents(ann, token_id=0)
    assert events.news() == []
    invite = challenged(ann, robo)  # sent, and declined before the next look
    answered = api_client(token_of(robo)).post(f"/api/invites/{invite.pk}/decline")
    assert answered.status_code == 200
    assert events.news() == [declined(invite)]
    assert events.news() == []


def test_a_challenge_waiting_when_the_stream_opened_is_told_when_declined():
    ann, bob = make_user("ann"), make_user("bob")
    befriend(ann, bob)
    invite = challenged(ann, bob)
    events = AccountEvents(ann, token_id=0)
    events.news()
    friends.answer_invite(bob, invite.pk, accept=False)
    assert events.news() == [declined(invite)]


def test_old_declines_and_other_peoples_are_not_told_nor_an_accepted_challenge():
    ann, bob, cid = make_user("ann"), make_user("bob"), make_user("cid")
    befriend(ann, bob)
    befriend(cid, bob)
    old = challenged(ann, bob)
    friends.answer_invite(bob, old.pk, accept=False)  # before the stream opened
    events = AccountEvents(ann, token_id=0)
    assert events.news() == []
    theirs = challenged(cid, bob)
    friends.answer_invite(bob, theirs.pk, accept=False)
    accepted = challenged(ann, bob)
    friends.answer_invite(bob, accepted.pk, accept=True)
    assert events.news() == [{"type": "game_started", "match_id": accepted.match_id, "seat": 0}]
