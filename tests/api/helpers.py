"""Users, tokens and clients for the API's tests."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.test import Client

from api.tokens import create_token


def make_user(name: str, **extra: Any):
    return get_user_model().objects.create_user(username=name, password="pw-" + name, **extra)


def token_of(user: Any, scopes: tuple[str, ...] = ("read", "play", "bot")) -> str:
    return create_token(user, "test", scopes)[1]


def api_client(secret: str | None, language: str = "en") -> Client:
    headers = {"accept-language": language}
    if secret is not None:
        headers["authorization"] = f"Bearer {secret}"
    return Client(headers=headers)
