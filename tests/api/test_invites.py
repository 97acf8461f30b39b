"""Answering an invite (a challenge) through the API: a bot account accepts a person's
challenge and plays it, a decline seats nobody, and every hostile answer (someone
else's invite, one answered or expired, a forged id, a wrong token) is refused with a
JSON code and changes nothing."""

from __future__ import annotations

import pytest
from django.urls import reverse

from api.events import AccountEvents
from friends import services as friends
from friends.models import Invite
from games import services
from games.models import Match, RuleVariant, Seat
from matchmaking import challenges
from matchmaking.bot_accounts import turn_into_bot

from .helpers import api_client, make_user, token_of

pytestmark = pytest.mark.django_db


def befriend(one, other) -> None:
    friends.accept_friend(other, friends.request_friend(one, other).pk)


def a_challenge(person, robo) -> Invite:
    """``person`` challenges ``robo`` (a friend) as the site's Play button does."""
    befriend(person, robo)
    match = challenges.challenge(person, robo)
    return Invite.objects.get(match=match, to_user=robo)


def answer(secret: str, invite_id: object, verb: str, language: str = "en"):
    return api_client(secret, language).post(f"/api/invites/{invite_id}/{verb}")


def unchanged(invite: Invite, user) -> None:
    """The invite still waits and ``user`` has no seat at its table."""
    invite.refresh_from_db()
    assert invite.status == Invite.Status.PENDING
    assert not Seat.objects.filter(match_id=invite.match_id, user=user).exists()


def test_a_bot_account_accepts_a_persons_challenge_and_the_game_starts():
    person, robo = make_user("ann"), turn_into_bot(make_user("robo"))
    invite = a_challenge(person, robo)
    events = AccountEvents(robo, token_id=0)
    assert events.news() == [
        {"type": "invite", "invite_id": invite.pk, "match_id": invite.match_id, "from": "ann"}
    ]
    secret = token_of(robo)

    answered = answer(secret, invite.pk, "accept")

    assert answered.status_code == 200, answered.content
    assert answered.json() == {
        "invite_id": invite.pk,
        "match_id": invite.match_id,
        "status": "accepted",
        "seat": 1,
        "game_status": "playing",
    }
    assert Seat.objects.get(match_id=invite.match_id, user=robo).number == 1
    assert events.news() == [{"type": "game_started", "match_id": invite.match_id, "seat": 1}]
    # The bot plays the game it accepted through the API (here: it gives up).
    resigned = api_client(secret).post(f"/api/games/{invite.match_id}/resign")
    assert resigned.status_code == 200, resigned.content
    assert Match.objects.get(pk=invite.match_id).status == Match.Status.FINISHED


def test_a_person_accepts_a_friends_invite_through_the_api():
    ann, bob = make_user("ann"), make_user("bob")
    invite = a_challenge(ann, bob)
    answered = answer(token_of(bob), invite.pk, "accept")
    assert answered.status_code == 200
    assert answered.json()["status"] == "accepted"
    assert Match.objects.get(pk=invite.match_id).status == Match.Status.PLAYING


def test_a_decline_seats_nobody_and_the_table_keeps_waiting():
    person, robo = make_user("ann"), turn_into_bot(make_user("robo"))
    invite = a_challenge(person, robo)
    answered = answer(token_of(robo), invite.pk, "decline")
    assert answered.status_code == 200
    assert answered.json() == {
        "invite_id": invite.pk,
        "match_id": invite.match_id,
        "status": "declined",
        "seat": None,
        "game_status": "waiting",
    }
    assert Invite.objects.get(pk=invite.pk).status == Invite.Status.DECLINED
    assert not Seat.objects.filter(match_id=invite.match_id, user=robo).exists()


@pytest.mark.parametrize("verb", ["accept", "decline"])
def test_someone_elses_invite_is_answered_as_none_and_changes_nothing(verb):
    person, robo, intruder = make_user("ann"), make_user("robo"), make_user("eve")
    invite = a_challenge(person, robo)
    for who in (intruder, person):  # a stranger, and the inviter themself
        answered = answer(token_of(who), invite.pk, verb)
        assert answered.status_code == 404
        assert answered.json() == {"code": "not_found", "message": "There is no such invite."}
    unchanged(invite, robo)
    seated = Seat.objects.filter(match_id=invite.match_id, user__isnull=False)
    assert list(seated.values_list("user", flat=True)) == [person.pk]


@pytest.mark.parametrize(
    ("first", "then"),
    [("accept", "accept"), ("accept", "decline"), ("decline", "accept"), ("decline", "decline")],
)
def test_an_answered_invite_cannot_be_answered_again(first, then):
    person, robo = make_user("ann"), make_user("robo")
    invite = a_challenge(person, robo)
    secret = token_of(robo)
    assert answer(secret, invite.pk, first).status_code == 200
    status = Invite.objects.get(pk=invite.pk).status
    seated = Seat.objects.filter(user=robo).count()

    again = answer(secret, invite.pk, then)

    assert again.status_code == 400
    assert again.json() == {
        "code": "answered",
        "message": "This invite has already been answered.",
    }
    assert Invite.objects.get(pk=invite.pk).status == status
    assert Seat.objects.filter(user=robo).count() == seated


def test_an_invite_to_a_closed_table_has_expired():
    person, robo = make_user("ann"), make_user("robo")
    invite = a_challenge(person, robo)
    services.abort_match(invite.match_id, "test")
    answered = answer(token_of(robo), invite.pk, "accept", language="ru")
    assert answered.status_code == 400
    assert answered.json() == {
        "code": "expired",
        "message": "Приглашение устарело: стол больше не ждёт игроков.",
    }
    unchanged(invite, robo)


def test_an_invite_to_a_table_that_started_without_you_has_expired():
    ann, bob, cid = make_user("ann"), make_user("bob"), make_user("cid")
    befriend(ann, bob)
    table = services.create_match(ann, RuleVariant.objects.get(slug="classic"), 2)
    invite = friends.invite(ann, bob, table.pk)
    services.join_match(table, cid)  # the seat went to someone else first
    answered = answer(token_of(bob), invite.pk, "accept")
    assert answered.status_code == 400
    assert answered.json()["code"] == "expired"
    unchanged(invite, bob)


@pytest.mark.parametrize(
    ("forged", "status", "code"),
    [
        ("987654", 404, "not_found"),
        ("0", 422, "malformed"),
        ("-3", 422, "malformed"),
        ("99999999999999999999999", 422, "malformed"),
        ("abc", 422, "malformed"),
        ("1.5", 422, "malformed"),
    ],
)
def test_a_forged_invite_id_is_refused(forged, status, code):
    person, robo = make_user("ann"), make_user("robo")
    invite = a_challenge(person, robo)
    answered = answer(token_of(robo), forged, "accept")
    assert answered.status_code == status
    assert answered.json()["code"] == code
    unchanged(invite, robo)


def test_answering_needs_a_live_token_of_the_play_scope():
    person, robo = make_user("ann"), make_user("robo")
    invite = a_challenge(person, robo)
    for verb in ("accept", "decline"):
        assert api_client(None).post(f"/api/invites/{invite.pk}/{verb}").status_code == 401
        assert answer("durak_forged", invite.pk, verb).status_code == 401
        refused = answer(token_of(robo, ("read",)), invite.pk, verb)
        assert refused.status_code == 403
        assert refused.json()["code"] == "scope"
    unchanged(invite, robo)


def test_the_site_still_refuses_a_bot_account_and_the_invite_then_waits_for_the_api():
    person, robo = make_user("ann"), turn_into_bot(make_user("robo"))
    invite = a_challenge(person, robo)
    client = api_client(None)
    client.force_login(robo)
    client.post(reverse("friends:answer", args=[invite.pk]), {"answer": "join"})
    unchanged(invite, robo)
    assert answer(token_of(robo), invite.pk, "accept").status_code == 200


def test_the_challenger_withdraws_by_leaving_the_table_and_the_invite_expires():
    person, robo = make_user("ann"), turn_into_bot(make_user("robo"))
    invite = a_challenge(person, robo)
    left = api_client(token_of(person)).post(f"/api/games/{invite.match_id}/leave")
    assert left.status_code == 200, left.content
    assert left.json() == {"match_id": invite.match_id, "game_status": "aborted"}
    assert Match.objects.get(pk=invite.match_id).status == Match.Status.ABORTED
    answered = answer(token_of(robo), invite.pk, "accept")
    assert answered.json()["code"] == "expired"
    unchanged(invite, robo)


def test_leaving_is_refused_for_a_table_not_yours_one_started_or_none():
    ann, bob, eve = make_user("ann"), make_user("bob"), make_user("eve")
    invite = a_challenge(ann, bob)
    leave = f"/api/games/{invite.match_id}/leave"
    refused = api_client(token_of(eve)).post(leave)
    assert (refused.status_code, refused.json()["code"]) == (400, "not_seated")
    assert answer(token_of(bob), invite.pk, "accept").status_code == 200
    refused = api_client(token_of(ann)).post(leave)
    assert (refused.status_code, refused.json()["code"]) == (400, "started")
    assert Match.objects.get(pk=invite.match_id).status == Match.Status.PLAYING
    missing = api_client(token_of(ann)).post("/api/games/987654/leave")
    assert (missing.status_code, missing.json()["code"]) == (404, "not_found")
    assert api_client(token_of(ann)).post("/api/games/0/leave").status_code == 422
    assert api_client(token_of(ann, ("read",))).post(leave).status_code == 403
