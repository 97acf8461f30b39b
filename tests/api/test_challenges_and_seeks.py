"""Challenging a friend (a person or a bot account) with rules, and "Play now" seeks,
through the API: made by the site's own services, refused as the site refuses them,
and a refusal (a bot account seeking, a stranger, a rule the panel does not offer)
makes nothing."""

from __future__ import annotations

import pytest

from api.events import AccountEvents
from friends import services as friends
from friends.models import Invite
from games.models import Match, Seat
from matchmaking.bot_accounts import turn_into_bot
from matchmaking.models import Seek

from .helpers import api_client, make_user, token_of

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_bots_at_once(settings) -> None:
    settings.MATCHMAKING_ALONE_BOT_SECONDS = 60


def befriend(one, other) -> None:
    friends.accept_friend(other, friends.request_friend(one, other).pk)


def post(secret: str, path: str, body: dict | None = None, language: str = "en"):
    return api_client(secret, language).post(
        path, body if body is not None else {}, content_type="application/json"
    )


# ------------------------------------------------------------------ challenges


def test_a_person_challenges_a_bot_account_with_rules_and_it_accepts():
    person, robo = make_user("ann"), turn_into_bot(make_user("robo"))
    befriend(person, robo)
    events = AccountEvents(robo, token_id=0)
    rules = {"mode": "perevodnoy", "deck_size": 24, "speed": "fast", "is_rated": False}

    made = post(token_of(person), "/api/challenges", {"username": "ROBO", **rules})

    assert made.status_code == 201, made.content
    body = made.json()
    match = Match.objects.get(pk=body["match_id"])
    invite = Invite.objects.get(pk=body["invite_id"])
    assert body == {
        "invite_id": invite.pk,
        "match_id": match.pk,
        "to": "robo",
        "seat": 0,
        "game_status": "waiting",
        "mode": "perevodnoy",
        "deck_size": 24,
        "turn_seconds": 15,
        "is_rated": False,
    }
    assert match.is_private and match.players == 2 and not match.is_rated
    assert (match.engine_rules.mode, match.engine_rules.deck_size) == ("perevodnoy", 24)
    assert (invite.from_user, invite.to_user, invite.status) == (person, robo, "pending")
    assert events.news() == [
        {"type": "invite", "invite_id": invite.pk, "match_id": match.pk, "from": "ann"}
    ]
    accepted = post(token_of(robo), f"/api/invites/{invite.pk}/accept")
    assert accepted.json()["game_status"] == "playing"


def test_rules_left_out_are_the_site_buttons():
    ann, bob = make_user("ann"), make_user("bob")
    befriend(ann, bob)
    made = post(token_of(ann), "/api/challenges", {"username": "bob", "deck_size": 52})
    assert made.status_code == 201, made.content
    match = Match.objects.get(pk=made.json()["match_id"])
    assert (match.engine_rules.mode, match.engine_rules.deck_size) == ("podkidnoy", 52)
    assert match.turn_seconds == 30 and match.is_rated


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"username": "nobody"}, 404, "not_found"),
        ({"username": "cid"}, 400, "not_friend"),
        ({"username": "ann"}, 400, "self"),
        ({"username": "bob", "deck_size": 40}, 422, "malformed"),
        ({"username": "bob", "mode": "chess"}, 422, "malformed"),
        ({"username": "bob", "speed": "ludicrous"}, 422, "malformed"),
        ({"username": "bob", "is_rated": "maybe"}, 422, "malformed"),
        ({"deck_size": 36}, 422, "malformed"),
    ],
)
def test_a_challenge_the_site_would_refuse_makes_nothing(body, status, code):
    ann, bob = make_user("ann"), make_user("bob")
    make_user("cid")
    befriend(ann, bob)
    refused = post(token_of(ann), "/api/challenges", body)
    assert refused.status_code == status, refused.content
    assert refused.json()["code"] == code
    assert not Match.objects.exists() and not Invite.objects.exists()


def test_a_rule_out_of_range_names_its_field_in_the_requests_language():
    ann, bob = make_user("ann"), make_user("bob")
    befriend(ann, bob)
    refused = post(token_of(ann), "/api/challenges", {"username": "bob", "deck_size": 40}, "ru")
    assert refused.status_code == 422
    assert refused.json()["message"] == "Запрос составлен неверно."
    assert [error["loc"] for error in refused.json()["errors"]] == [["body", "deck_size"]]


def test_a_bot_account_does_not_challenge_and_a_blocked_player_cannot_be():
    ann, bob, robo = make_user("ann"), make_user("bob"), turn_into_bot(make_user("robo"))
    befriend(robo, bob)
    refused = post(token_of(robo), "/api/challenges", {"username": "bob"})
    assert refused.json()["code"] == "bot_account"
    befriend(ann, bob)
    friends.block(bob, ann)
    refused = post(token_of(ann), "/api/challenges", {"username": "bob"})
    assert refused.json()["code"] == "blocked"
    assert not Match.objects.exists() and not Invite.objects.exists()


def test_challenging_needs_the_play_scope():
    ann, bob = make_user("ann"), make_user("bob")
    befriend(ann, bob)
    refused = post(token_of(ann, ("read", "bot")), "/api/challenges", {"username": "bob"})
    assert refused.status_code == 403 and refused.json()["code"] == "scope"
    assert api_client(None).post("/api/challenges").status_code == 401
    assert not Match.objects.exists()


# ------------------------------------------------------------------ seeks


def test_a_seek_waits_then_is_cancelled():
    ann = make_user("ann")
    secret = token_of(ann)
    made = post(secret, "/api/seeks", {"deck_size": 24, "speed": "slow", "is_rated": False})
    assert made.status_code == 201, made.content
    seek = Seek.objects.get(user=ann)
    assert made.json() == {
        "seek_id": seek.pk,
        "status": "waiting",
        "match_id": None,
        "mode": "podkidnoy",
        "players": 2,
        "deck_size": 24,
        "speed": "slow",
        "is_rated": False,
        "allow_bots": True,
        "min_reliability": 0,
        "pool": "people",
    }
    again = post(secret, "/api/seeks", {})
    assert again.status_code == 400 and again.json()["code"] == "seeking"
    assert Seek.objects.filter(user=ann).count() == 1

    cancelled = api_client(secret).delete("/api/seeks")
    assert cancelled.status_code == 200
    assert cancelled.json()["status"] == "cancelled"
    assert Seek.objects.get(user=ann).status == Seek.Status.CANCELLED
    none_left = api_client(secret).delete("/api/seeks")
    assert none_left.status_code == 400 and none_left.json()["code"] == "not_seeking"


def test_two_seeks_of_the_same_game_are_seated_together():
    ann, bob = make_user("ann"), make_user("bob")
    wishes = {"allow_bots": False, "is_rated": False}
    assert post(token_of(ann), "/api/seeks", wishes).json()["status"] == "waiting"
    seated = post(token_of(bob), "/api/seeks", wishes).json()
    assert seated["status"] == "seated"
    match = Match.objects.get(pk=seated["match_id"])
    assert match.status == Match.Status.PLAYING
    assert set(Seat.objects.filter(match=match).values_list("user__username", flat=True)) == {
        "ann",
        "bob",
    }


def test_a_bot_account_may_not_seek_in_a_pool_of_people():
    robo = turn_into_bot(make_user("robo"))
    asked = {"allow_bots": False, "pool": "people"}
    refused = post(token_of(robo), "/api/seeks", asked, language="ru")
    assert refused.status_code == 400
    assert refused.json()["code"] == "bot_account"
    assert "бот" in refused.json()["message"]
    assert not Seek.objects.exists()


@pytest.mark.parametrize(
    "body",
    [
        {"players": 9},
        {"players": 1},
        {"deck_size": 0},
        {"speed": "ludicrous"},
        {"mode": ""},
        {"min_reliability": 55},
        {"allow_bots": "perhaps"},
    ],
)
def test_a_seek_with_a_wish_the_panel_does_not_offer_is_refused(body):
    ann = make_user("ann")
    refused = post(token_of(ann), "/api/seeks", body)
    assert refused.status_code == 422, refused.content
    assert refused.json()["code"] == "malformed"
    assert not Seek.objects.exists()


def test_seeking_needs_the_play_scope():
    ann = make_user("ann")
    secret = token_of(ann, ("read",))
    assert post(secret, "/api/seeks", {}).status_code == 403
    assert api_client(secret).delete("/api/seeks").status_code == 403
    assert not Seek.objects.exists()
