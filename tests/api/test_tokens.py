"""API tokens: made on the player's own profile, stored hashed, revoked; the API refuses
a missing, unknown, revoked or under-scoped token with JSON and changes nothing."""

from __future__ import annotations

import hashlib

import pytest
from django.test import Client
from django.urls import reverse

from api.models import ApiToken
from api.tokens import create_token
from games.models import Match

from .helpers import api_client, make_user, token_of

pytestmark = pytest.mark.django_db


def test_only_the_digest_of_a_token_is_stored():
    user = make_user("ann")
    token, secret = create_token(user, "my bot", ["play", "read"])
    assert secret.startswith("durak_") and len(secret) > 40
    stored = ApiToken.objects.get(pk=token.pk)
    assert stored.digest == hashlib.sha256(secret.encode()).hexdigest()
    assert secret not in {stored.digest, stored.prefix, stored.name, stored.scopes}
    assert stored.scope_list == ["play", "read"]
    assert secret.startswith(stored.prefix)


@pytest.mark.parametrize(("name", "scopes"), [("", ["read"]), ("x", []), ("x", ["root"])])
def test_a_token_needs_a_name_and_known_scopes(name, scopes):
    user = make_user("ann")
    with pytest.raises(ValueError):
        create_token(user, name, scopes)
    assert not ApiToken.objects.exists()


def test_the_account_answers_with_a_live_token_and_notes_its_use():
    user = make_user("ann")
    secret = token_of(user, ("read",))
    response = api_client(secret).get("/api/account")
    assert response.status_code == 200
    body = response.json()
    assert body["username"] == "ann" and body["scopes"] == ["read"]
    assert ApiToken.objects.get().last_used_at is not None


@pytest.mark.parametrize(
    "header", [None, "Bearer durak_nope", "Bearer ", "Basic abc", "Bearer " + "x" * 500]
)
def test_no_or_unknown_token_is_401_json(header):
    client = Client(headers={"authorization": header} if header else {})
    response = client.get("/api/account")
    assert response.status_code == 401
    assert response.json()["code"] == "unauthorized"
    assert response.json()["message"]


def test_a_revoked_token_is_refused():
    user = make_user("ann")
    secret = token_of(user)
    token = ApiToken.objects.get()
    assert api_client(secret).get("/api/account").status_code == 200
    web = Client()
    web.force_login(user)
    web.post(reverse("api:revoke_token", args=[token.pk]))
    response = api_client(secret).get("/api/account")
    assert response.status_code == 401 and response.json()["code"] == "unauthorized"


def test_another_players_token_cannot_be_revoked():
    owner, other = make_user("ann"), make_user("bob")
    secret = token_of(owner)
    web = Client()
    web.force_login(other)
    web.post(reverse("api:revoke_token", args=[ApiToken.objects.get().pk]))
    assert api_client(secret).get("/api/account").status_code == 200


def test_a_token_without_the_scope_is_403_and_changes_nothing():
    user = make_user("ann")
    read_only = token_of(user, ("read",))
    response = api_client(read_only).post(
        "/api/tables", {"level": "easy"}, content_type="application/json"
    )
    assert response.status_code == 403
    assert response.json()["code"] == "scope"
    assert not Match.objects.exists()
    play_only = token_of(user, ("play",))
    assert api_client(play_only).get("/api/account").status_code == 403


@pytest.mark.parametrize(
    ("language", "heading", "create"),
    [("en", "API tokens", "Create a token"), ("ru", "API-токены", "Создать токен")],
)
def test_the_profile_makes_shows_once_and_revokes_tokens(language, heading, create):
    user = make_user("ann")
    web = Client(headers={"accept-language": language})
    web.force_login(user)
    profile = reverse("accounts:profile", args=["ann"])
    page = web.get(profile).content.decode()
    assert heading in page and create in page
    web.post(reverse("api:new_token"), {"name": "lab bot", "scopes": ["read", "play"]})
    token = ApiToken.objects.get()
    first = web.get(profile).content.decode()
    secret = first.split('data-testid="new-token">')[1].split("<")[0]
    assert secret.startswith(token.prefix)
    assert hashlib.sha256(secret.encode()).hexdigest() == token.digest
    again = web.get(profile).content.decode()
    assert secret not in again and "lab bot" in again  # shown once; listed still
    web.post(reverse("api:revoke_token", args=[token.pk]))
    assert ApiToken.objects.get().revoked_at is not None
    assert "lab bot" not in web.get(profile).content.decode()


def test_nobody_else_sees_a_players_tokens():
    make_user("ann")
    create_token(make_user("owner"), "secret bot", ["read"])
    web = Client()
    web.force_login(make_user("bob"))
    page = web.get(reverse("accounts:profile", args=["owner"])).content.decode()
    assert "secret bot" not in page and "API tokens" not in page


def test_a_flood_on_one_token_is_429_json(settings):
    settings.API_RATE_LIMIT = (3, 60)
    user = make_user("ann")
    flooding, other = token_of(user), token_of(user)
    answers = [api_client(flooding).get("/api/account").status_code for _ in range(4)]
    assert answers == [200, 200, 200, 429]
    response = api_client(flooding).get("/api/account")
    assert response.json()["code"] == "rate_limited"
    assert api_client(other).get("/api/account").status_code == 200  # counted per token
