"""Turning an account into a bot account: by its owner, once, only while it has no
games; refused otherwise (by the API and by the profile's button) with nothing
changed.  The account then says it is a bot wherever its name shows."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games import services
from games.models import RuleVariant
from matchmaking import services as matchmaking
from matchmaking.bot_accounts import turn_into_bot
from matchmaking.guests import create_guest
from matchmaking.models import Seek

from .helpers import api_client, make_user, token_of

pytestmark = pytest.mark.django_db
User = get_user_model()
BECOME_BOT = "/api/account/bot"


def is_bot(user) -> bool:
    return User.objects.get(pk=user.pk).is_bot


def become_bot(secret: str | None, language: str = "en"):
    return api_client(secret, language).post(BECOME_BOT, "{}", content_type="application/json")


def seated(user):
    """``user`` at a table of their own: they have a game."""
    variant = RuleVariant.objects.get(slug="classic")
    return services.create_match(user, variant, 2)


def signed_in(user, language: str = "en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


# ------------------------------------------------------------------- the API call


def test_a_new_account_becomes_a_bot_account_through_the_api():
    robo = make_user("robo")
    response = become_bot(token_of(robo, ("bot",)))
    assert response.status_code == 200, response.content
    assert response.json()["username"] == "robo"
    assert response.json()["is_bot"] is True
    assert is_bot(robo)
    # Others read it as a bot too.
    reader = token_of(make_user("reader"), ("read",))
    assert api_client(reader).get("/api/users/robo").json()["is_bot"] is True


@pytest.mark.parametrize("scopes", [("read",), ("play",), ("read", "play")])
def test_a_token_without_the_bot_scope_changes_nothing(scopes):
    robo = make_user("robo")
    response = become_bot(token_of(robo, scopes))
    assert response.status_code == 403
    assert response.json()["code"] == "scope"
    assert not is_bot(robo)


def test_no_token_or_a_revoked_one_changes_nothing():
    robo = make_user("robo")
    assert become_bot(None).status_code == 401
    secret = token_of(robo, ("bot",))
    robo.api_tokens.update(revoked_at="2026-01-01T00:00:00Z")
    response = become_bot(secret)
    assert response.status_code == 401
    assert response.json()["code"] == "unauthorized"
    assert not is_bot(robo)


def test_an_account_that_has_played_is_refused_in_both_languages():
    ann = make_user("ann")
    seated(ann)
    secret = token_of(ann, ("bot",))
    english = become_bot(secret)
    assert english.status_code == 400
    assert english.json() == {
        "code": "has_games",
        "message": "Only an account that has never played can become a bot account.",
    }
    russian = become_bot(secret, "ru")
    assert russian.json()["code"] == "has_games"
    assert russian.json()["message"] != english.json()["message"]
    assert "бот" in russian.json()["message"]
    assert not is_bot(ann)


def test_an_account_whose_only_table_is_over_still_has_games():
    ann = make_user("ann")
    match = seated(ann)
    services.abort_match(match, "test")
    assert become_bot(token_of(ann, ("bot",))).json()["code"] == "has_games"
    assert not is_bot(ann)


def test_an_account_looking_for_a_game_is_refused():
    ann = make_user("ann")
    matchmaking.create_seek(
        ann, mode="podkidnoy", players=2, deck_size=36, speed="normal", is_rated=True,
        allow_bots=False,
    )  # fmt: skip
    response = become_bot(token_of(ann, ("bot",)))
    assert response.status_code == 400
    assert response.json()["code"] == "seeking"
    assert not is_bot(ann)
    assert Seek.objects.get(user=ann).status == Seek.Status.WAITING


def test_it_is_irreversible_a_second_turn_is_refused_and_it_stays_a_bot():
    robo = make_user("robo")
    secret = token_of(robo, ("bot",))
    assert become_bot(secret).status_code == 200
    again = become_bot(secret)
    assert again.status_code == 400
    assert again.json()["code"] == "already_bot"
    assert is_bot(robo)
    # No call of the API or form field of the profile turns it back.
    signed_in(robo).post(reverse("api:become_bot"), {"confirm": "no"})
    assert is_bot(robo)


def test_a_guest_cannot_become_a_bot_account():
    guest = create_guest("10.0.0.9", "en")
    with pytest.raises(services.Refused) as refused:
        turn_into_bot(guest)
    assert refused.value.code == "guest"
    assert not is_bot(guest)


def test_the_bot_scope_is_in_the_schema():
    schema = json.loads(Client().get("/api/openapi.json").content)
    operation = schema["paths"][BECOME_BOT]["post"]
    assert operation["operationId"].endswith("become_bot")


# ------------------------------------------------------------- the profile's button


def test_the_owner_turns_their_account_on_the_profile_once_ticked():
    robo = make_user("robo")
    client = signed_in(robo)
    profile = client.get(reverse("accounts:profile", args=["robo"])).content.decode()
    assert 'data-testid="become-bot"' in profile
    unticked = client.post(reverse("api:become_bot"), follow=True)
    assert not is_bot(robo)
    assert "Tick the box to confirm" in unticked.content.decode()
    ticked = client.post(reverse("api:become_bot"), {"confirm": "yes"}, follow=True)
    assert is_bot(robo)
    page = ticked.content.decode()
    assert "This is a bot account now" in page
    assert 'data-testid="bot-account"' in page
    assert 'data-testid="become-bot"' not in page


def test_only_the_owner_can_turn_an_account():
    robo, other = make_user("robo"), make_user("other")
    seated(other)
    # Another player's profile offers no button, and the post turns only the poster
    # (who has played, so is refused): the profile's owner is untouched.
    page = signed_in(other).get(reverse("accounts:profile", args=["robo"])).content.decode()
    assert 'data-testid="become-bot"' not in page
    response = signed_in(other).post(reverse("api:become_bot"), {"confirm": "yes"}, follow=True)
    assert "Only an account that has never played" in response.content.decode()
    assert not is_bot(robo) and not is_bot(other)
    # A visitor who is not signed in is sent to sign in.
    anonymous = Client().post(reverse("api:become_bot"), {"confirm": "yes"})
    assert anonymous.status_code == 302 and "login" in anonymous["Location"]
    assert not is_bot(robo)


def test_an_account_with_games_is_told_why_there_is_no_button_in_russian():
    ann = make_user("ann")
    seated(ann)
    page = signed_in(ann, "ru").get(reverse("accounts:profile", args=["ann"])).content.decode()
    assert 'data-testid="become-bot"' not in page
    assert "Only an account that has never played" not in page  # said in Russian
    assert "бот" in page


# ------------------------------------------------------------------ the badge


@pytest.mark.parametrize(("language", "word"), [("en", ">bot<"), ("ru", ">бот<")])
def test_a_bot_accounts_name_carries_a_badge_in_both_languages(language, word):
    robo, person = make_user("robo"), make_user("person")
    turn_into_bot(robo)
    viewer = signed_in(person, language)
    profile = viewer.get(reverse("accounts:profile", args=["robo"])).content.decode()
    assert 'class="bot-badge"' in profile and word in profile
    people = viewer.get(reverse("accounts:profile", args=["person"])).content.decode()
    assert 'class="bot-badge"' not in people
    found = viewer.get(reverse("accounts:players") + "?q=robo").content.decode()
    assert 'class="bot-badge"' in found


def test_a_bot_account_at_a_table_is_tagged_as_a_bot():
    from table.seating import seat_label

    robo, person = make_user("robo"), make_user("person")
    turn_into_bot(robo)
    match = seated(robo)  # as the API's tables do: the service, not a page
    services.join_match(match, person, token=match.invite_token)
    labels = {seat.user_id: seat_label(seat) for seat in services.load_seats(match.pk)}
    assert labels[robo.pk]["level"] == "bot"
    assert labels[person.pk]["level"] == ""
