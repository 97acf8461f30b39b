"""Language switches are limited per user, and a switch re-renders only the sockets
whose language it changes.  Each switch re-renders every open socket of the user from
the database, so an unthrottled switcher loaded the server for everyone."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from tests.live.conftest import Socket
from tests.sockets import db, in_own_loop, session_cookie

from .helpers import two_player_table

pytestmark = pytest.mark.django_db(transaction=True)


def switch(client: Client, language: str):
    return client.post(reverse("set_language"), {"language": language, "next": "/"})


def test_switches_past_the_limit_are_refused_and_change_nothing(settings) -> None:
    settings.LANGUAGE_SWITCH_LIMIT = 3
    cache.clear()
    _, (user, _) = two_player_table()
    client = Client()
    client.force_login(user)
    for language in ("ru", "en", "ru"):
        assert switch(client, language).status_code == 302
    refused = switch(client, "en")
    assert refused.status_code == 302
    assert "django_language" not in refused.cookies  # the cookie keeps "ru" too
    user.refresh_from_db()
    assert user.language == "ru"
    page = client.get(refused["Location"]).content.decode()
    # In the language the person still reads: Russian.
    assert "Вы слишком часто переключаете язык" in page
    # Asking again for the language already chosen is no switch, and is not refused.
    assert switch(client, "ru").status_code == 302
    assert "Вы слишком часто" not in client.get("/").content.decode()


def socket_speaking(path: str, cookie: str, language: str) -> Socket:
    sock = Socket(path, cookie)
    sock.comm.scope["headers"].append((b"accept-language", language.encode()))
    return sock


@in_own_loop
async def test_a_switch_re_renders_only_the_sockets_whose_language_changed() -> None:
    match, users = await db(two_player_table)
    user = users[0]  # never chose a language: each socket speaks its browser's
    cookie = await db(session_cookie, user)
    path = f"/ws/games/{match.pk}/"
    russian = socket_speaking(path, cookie, "ru")
    english = socket_speaking(path, cookie, "en")
    for sock in (russian, english):
        assert (await sock.open())[0]
        await sock.drain()

    def switch_to_russian() -> None:
        client = Client()
        client.force_login(get_user_model().objects.get(pk=user.pk))
        switch(client, "ru")

    await db(switch_to_russian)
    await english.until(lambda f: 'id="table-status"' in f)
    assert await russian.comm.receive_nothing(timeout=0.5)
    for sock in (russian, english):
        await sock.close()
