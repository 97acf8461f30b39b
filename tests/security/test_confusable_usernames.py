"""A username that reads like one already taken is refused, at sign-up and in the admin."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.urls import reverse
from django.utils import translation

User = get_user_model()
PASSWORD = "kozyrnaya-shestyorka-42"
LOOKS_TAKEN = "looks too much like one already taken"

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_login_limits_kept():
    cache.clear()  # the log-in rate limit lives there
    yield
    cache.clear()


def sign_up(client, username: str):
    return client.post(
        reverse("accounts:signup"),
        {"username": username, "email": "", "password1": PASSWORD, "password2": PASSWORD},
    )


@pytest.mark.parametrize(
    "lookalike",
    [
        "\u0430lice",  # Cyrillic а
        "ALICE",
        "a1ice",  # digit one for l
        "\uff41\uff4c\uff49\uff43\uff45",  # fullwidth
        "\u0251lice",  # Latin alpha
    ],
)
def test_sign_up_refuses_a_name_that_reads_like_a_taken_one(client, lookalike: str) -> None:
    User.objects.create_user("alice", password=PASSWORD)
    response = sign_up(client, lookalike)
    assert response.status_code == 200
    page = response.content.decode()
    assert LOOKS_TAKEN in page or "already exists" in page
    assert User.objects.count() == 1
    assert "_auth_user_id" not in client.session


def test_sign_up_accepts_names_that_only_share_letters(client) -> None:
    User.objects.create_user("alice", password=PASSWORD)
    for name in ["alicia", "malice", "\u0430\u043b\u0438\u0441\u0430"]:  # алиса
        client.logout()
        assert sign_up(client, name).status_code == 302, name
    assert User.objects.count() == 4


def test_the_refusal_is_worded_in_russian(client) -> None:
    User.objects.create_user("ivan", password=PASSWORD)
    with translation.override("ru"):
        response = client.post(
            reverse("accounts:signup"),
            {"username": "iv\u0430n", "password1": PASSWORD, "password2": PASSWORD},
            HTTP_ACCEPT_LANGUAGE="ru",
        )
    assert response.status_code == 200
    assert "слишком похоже" in response.content.decode()


def test_a_name_taken_before_the_check_is_still_found() -> None:
    # Skeletons are stored with the user, so the lookup is one indexed query.
    User.objects.create_user("Bob", password=PASSWORD)
    from accounts.forms import SignUpForm

    form = SignUpForm(data={"username": "B\u041eB", "password1": PASSWORD, "password2": PASSWORD})
    assert not form.is_valid()
    assert form.errors["username"][0].startswith("That username looks too much like")


def test_admin_refuses_adding_or_renaming_to_a_lookalike(client) -> None:
    root = User.objects.create_superuser("root", "root@example.org", PASSWORD)
    User.objects.create_user("alice", password=PASSWORD)
    bob = User.objects.create_user("bob", password=PASSWORD)
    client.force_login(root)
    response = client.post(
        reverse("admin:accounts_user_add"),
        {
            "username": "\u0430lice",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "usable_password": "true",
        },
    )
    assert response.status_code == 200
    assert LOOKS_TAKEN in response.content.decode()
    assert User.objects.count() == 3

    change = client.get(reverse("admin:accounts_user_change", args=[bob.pk]))
    assert change.status_code == 200
    response = client.post(
        reverse("admin:accounts_user_change", args=[bob.pk]),
        {
            "username": "\u0430lice",
            "date_joined_0": "2026-01-01",
            "date_joined_1": "00:00:00",
            "is_active": "on",
        },
    )
    assert response.status_code == 200
    assert LOOKS_TAKEN in response.content.decode()
    bob.refresh_from_db()
    assert bob.username == "bob"
