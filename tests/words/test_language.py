"""The chosen language is stored on the user and follows them to every device."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from accounts.language import language_for_scope

pytestmark = pytest.mark.django_db
User = get_user_model()
PASSWORD = "kozyrnaya-shestyorka-42"


def page_language(client: Client) -> str:
    html = client.get(reverse("table:lobby")).content.decode()
    return "ru" if '<html lang="ru">' in html else "en"


def test_switcher_stores_the_language_and_another_device_reads_it():
    user = User.objects.create_user("ivan", password=PASSWORD)
    phone = Client(HTTP_ACCEPT_LANGUAGE="en")
    phone.force_login(user)
    phone.post(reverse("set_language"), {"language": "ru", "next": "/"})
    user.refresh_from_db()
    assert user.language == "ru"
    # A fresh browser that asks for English, with no language cookie.
    laptop = Client(HTTP_ACCEPT_LANGUAGE="en")
    laptop.force_login(user)
    assert page_language(laptop) == "ru"
    assert "Лобби" in laptop.get(reverse("table:lobby")).content.decode()
    laptop.post(reverse("set_language"), {"language": "en", "next": "/"})
    user.refresh_from_db()
    assert user.language == "en"
    assert page_language(Client(HTTP_ACCEPT_LANGUAGE="ru")) == "ru"  # anonymous: header


def test_a_user_who_never_chose_follows_the_browser():
    user = User.objects.create_user("maria", password=PASSWORD)
    client = Client(HTTP_ACCEPT_LANGUAGE="ru")
    client.force_login(user)
    assert page_language(client) == "ru"
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)
    assert page_language(client) == "en"


def test_anonymous_visitors_use_the_cookie_then_the_header():
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    assert page_language(client) == "en"
    client.post(reverse("set_language"), {"language": "ru", "next": "/"})
    assert page_language(client) == "ru"


def test_signing_up_keeps_the_language_of_the_sign_up_page():
    client = Client(HTTP_ACCEPT_LANGUAGE="ru")
    client.post(
        reverse("accounts:signup"),
        {"username": "boris", "email": "", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert User.objects.get(username="boris").language == "ru"


def test_an_unknown_language_changes_nothing():
    user = User.objects.create_user("olga", password=PASSWORD, language="ru")
    client = Client()
    client.force_login(user)
    client.post(reverse("set_language"), {"language": "xx", "next": "/"})
    user.refresh_from_db()
    assert user.language == "ru"


def test_socket_language_from_the_user_then_the_handshake():
    user = User.objects.create_user("pyotr", password=PASSWORD, language="ru")
    assert language_for_scope({"user": user, "headers": [(b"accept-language", b"en")]}) == "ru"
    stranger = User.objects.create_user("anna", password=PASSWORD)
    headers = [(b"accept-language", b"ru-RU,ru;q=0.9,en;q=0.5")]
    assert language_for_scope({"user": stranger, "headers": headers}) == "ru"
    headers = [(b"accept-language", b"ru"), (b"cookie", b"django_language=en; a=b")]
    assert language_for_scope({"user": stranger, "headers": headers}) == "en"
    assert language_for_scope({"headers": []}) == "en"
