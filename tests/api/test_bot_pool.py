"""The bot pool: a bot account's seek through the API is paired with other bot
accounts' only (never a person, never the site's bots), by the one pairing people's
seeks go through; a person's token is refused the bot pool.  Bot accounts challenge
each other and answer through the API, and both event streams tell it."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from api.events import AccountEvents
from friends.models import Invite
from games.models import Match, Seat
from matchmaking import services as matchmaking
from matchmaking.bot_accounts import turn_into_bot
from matchmaking.models import Seek

from .helpers import api_client, make_user, token_of

pytestmark = pytest.mark.django_db
RATED = {"allow_bots": False, "is_rated": True}


@pytest.fixture(autouse=True)
def no_bots_at_once(settings) -> None:
    settings.MATCHMAKING_ALONE_BOT_SECONDS = 60


def a_bot(name: str):
    return turn_into_bot(make_user(name))


def post(user, path: str, body: dict | None = None, language: str = "en"):
    return api_client(token_of(user), language).post(
        path, body if body is not None else {}, content_type="application/json"
    )


def befriend_through_the_api(one, other) -> None:
    assert post(one, f"/api/friends/{other.username}").json()["friends"] is False
    assert post(other, f"/api/friends/{one.username}").json()["friends"] is True


def seated_names(match_id: int) -> set[str]:
    return set(Seat.objects.filter(match_id=match_id).values_list("user__username", flat=True))


# ------------------------------------------------------------------ seeks


def test_bot_accounts_seeks_pair_with_each_other_and_not_with_a_person():
    ann, robo, droid = make_user("ann"), a_bot("robo"), a_bot("droid")
    robo_events, droid_events = AccountEvents(robo, 0), AccountEvents(droid, 0)
    robo_events.news(), droid_events.news()

    person = post(ann, "/api/seeks", RATED).json()
    first = post(robo, "/api/seeks", RATED)
    assert first.status_code == 201, first.content
    assert (person["status"], person["pool"]) == ("waiting", "people")
    assert (first.json()["status"], first.json()["pool"]) == ("waiting", "bots")

    second = post(droid, "/api/seeks", RATED).json()

    assert second["status"] == "seated" and second["pool"] == "bots"
    match = Match.objects.get(pk=second["match_id"])
    assert match.status == Match.Status.PLAYING and match.is_rated
    assert seated_names(match.pk) == {"robo", "droid"}
    assert Seek.objects.get(user=ann).status == Seek.Status.WAITING
    robo_seat = Seat.objects.get(match=match, user=robo).number
    assert robo_events.news() == [{"type": "game_started", "match_id": match.pk, "seat": robo_seat}]
    assert droid_events.news() == [
        {"type": "game_started", "match_id": match.pk, "seat": 1 - robo_seat}
    ]


@pytest.mark.parametrize("is_rated", [True, False])
def test_a_bot_account_is_never_placed_with_a_person_nor_the_sites_bots(is_rated):
    ann, robo = make_user("ann"), a_bot("robo")
    wishes = {"allow_bots": True, "is_rated": is_rated}
    made = post(robo, "/api/seeks", wishes).json()
    assert made["allow_bots"] is False  # the bot pool waits for bot accounts only
    assert post(ann, "/api/seeks", wishes).json()["status"] == "waiting"
    # Long after any wait for bots and with the widest window, the ticker still seats
    # neither with the other.
    Seek.objects.update(created_at=timezone.now() - timedelta(hours=1), bots_at=None)
    Seek.objects.filter(user=ann).update(allow_bots=False)

    assert matchmaking.pair_all() == []
    assert not Seat.objects.exists()
    assert set(Seek.objects.values_list("status", flat=True)) == {Seek.Status.WAITING}
    # The lobby's count of who looks for which game is people's.
    assert [n for *_game, n in matchmaking.lobby_counts()["seeks"]] == [1]


def test_a_persons_seek_pairs_as_before_when_a_bot_account_waits_in_the_same_game():
    ann, bob, robo = make_user("ann"), make_user("bob"), a_bot("robo")
    post(robo, "/api/seeks", RATED)
    post(ann, "/api/seeks", RATED)
    seated = post(bob, "/api/seeks", RATED).json()
    assert seated["status"] == "seated"
    assert seated_names(seated["match_id"]) == {"ann", "bob"}
    assert Seek.objects.get(user=robo).status == Seek.Status.WAITING


@pytest.mark.parametrize("language, words", [("en", "bot pool"), ("ru", "пуле ботов")])
def test_a_persons_token_is_refused_the_bot_pool(language, words):
    ann, robo = make_user("ann"), a_bot("robo")
    post(robo, "/api/seeks", RATED)
    refused = post(ann, "/api/seeks", {**RATED, "pool": "bots"}, language=language)
    assert refused.status_code == 403
    assert refused.json()["code"] == "not_bot"
    assert words in refused.json()["message"]
    assert not Seek.objects.filter(user=ann).exists() and not Seat.objects.exists()


def test_a_bot_account_asking_for_the_peoples_pool_or_no_pool_is_refused():
    robo = a_bot("robo")
    refused = post(robo, "/api/seeks", {**RATED, "pool": "people"})
    assert refused.status_code == 400 and refused.json()["code"] == "bot_account"
    unknown = post(robo, "/api/seeks", {**RATED, "pool": "everyone"})
    assert unknown.status_code == 422 and unknown.json()["code"] == "malformed"
    assert not Seek.objects.exists()
    asked = post(robo, "/api/seeks", {**RATED, "pool": "bots"}).json()
    assert asked["pool"] == "bots" and asked["status"] == "waiting"
    cancelled = api_client(token_of(robo)).delete("/api/seeks").json()
    assert (cancelled["status"], cancelled["pool"]) == ("cancelled", "bots")


# ------------------------------------------------------------------ challenges


def test_a_bot_account_challenges_another_with_rules_and_it_accepts():
    robo, droid = a_bot("robo"), a_bot("droid")
    befriend_through_the_api(robo, droid)
    robo_events, droid_events = AccountEvents(robo, 0), AccountEvents(droid, 0)
    robo_events.news(), droid_events.news()
    rules = {"username": "droid", "mode": "perevodnoy", "deck_size": 24, "speed": "fast"}

    made = post(robo, "/api/challenges", {**rules, "is_rated": True})

    assert made.status_code == 201, made.content
    body = made.json()
    assert (body["to"], body["mode"], body["deck_size"], body["is_rated"]) == (
        "droid", "perevodnoy", 24, True,
    )  # fmt: skip
    assert droid_events.news() == [
        {"type": "invite", "invite_id": body["invite_id"], "match_id": body["match_id"],
         "from": "robo"}
    ]  # fmt: skip
    accepted = post(droid, f"/api/invites/{body['invite_id']}/accept")
    assert accepted.json()["game_status"] == "playing"
    assert robo_events.news() == [{"type": "game_started", "match_id": body["match_id"], "seat": 0}]
    assert droid_events.news() == [
        {"type": "game_started", "match_id": body["match_id"], "seat": 1}
    ]


def test_a_bot_account_declines_another_ones_challenge_and_the_challenger_hears():
    robo, droid = a_bot("robo"), a_bot("droid")
    befriend_through_the_api(robo, droid)
    robo_events = AccountEvents(robo, 0)
    robo_events.news()
    invite_id = post(robo, "/api/challenges", {"username": "droid"}).json()["invite_id"]

    declined = post(droid, f"/api/invites/{invite_id}/decline")

    assert declined.json()["status"] == "declined"
    invite = Invite.objects.get(pk=invite_id)
    assert robo_events.news() == [
        {"type": "invite_declined", "invite_id": invite_id, "match_id": invite.match_id,
         "by": "droid"}
    ]  # fmt: skip
    assert not Seat.objects.filter(user=droid).exists()


def test_a_bot_account_challenging_itself_or_a_person_makes_nothing():
    robo, ann = a_bot("robo"), make_user("ann")
    itself = post(robo, "/api/challenges", {"username": "robo"})
    assert itself.status_code == 400 and itself.json()["code"] == "self"
    befriend_through_the_api(ann, robo)
    person = post(robo, "/api/challenges", {"username": "ann"}, language="ru")
    assert person.status_code == 400 and person.json()["code"] == "bot_account"
    assert "только другие аккаунты ботов" in person.json()["message"]
    assert not Match.objects.exists() and not Invite.objects.exists()


def test_accepting_or_declining_another_bots_challenge_changes_nothing():
    robo, droid, intruder = a_bot("robo"), a_bot("droid"), a_bot("intruder")
    befriend_through_the_api(robo, droid)
    invite_id = post(robo, "/api/challenges", {"username": "droid"}).json()["invite_id"]
    for answer in ("accept", "decline"):
        refused = post(intruder, f"/api/invites/{invite_id}/{answer}")
        assert refused.status_code == 404 and refused.json()["code"] == "not_found"
    assert Invite.objects.get(pk=invite_id).status == Invite.Status.PENDING
    assert not Seat.objects.filter(user=intruder).exists()
    assert Match.objects.get().status == Match.Status.WAITING


def test_a_person_challenging_a_bot_account_plays_unrated():
    ann, robo = make_user("ann"), a_bot("robo")
    befriend_through_the_api(ann, robo)
    made = post(ann, "/api/challenges", {"username": "robo", "is_rated": True}).json()
    assert made["is_rated"] is False
    assert not Match.objects.get(pk=made["match_id"]).is_rated
