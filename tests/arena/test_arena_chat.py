"""The arena's chat: the table chat's rules (mute, rate, length, text), lines over the
arena socket to every page of the arena, refusals in the viewer's language."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from arena import services
from arena.chat import hide_arena_chat, post_arena_chat
from arena.models import ArenaChatMessage
from games.conf import setting
from games.services import Refused
from tests.live.conftest import Socket
from tests.sockets import db, in_own_loop, session_cookie

from .conftest import person, running_arena


def refusal_of(arena_id, user, text) -> str:
    with pytest.raises(Refused) as refused:
        post_arena_chat(arena_id, user, text)
    return refused.value.code


@pytest.mark.django_db
def test_a_line_is_stored_and_shown_on_the_arena_page():
    arena = running_arena()
    user = person()
    post_arena_chat(arena.pk, user, "  Всем   удачи!  ")
    assert list(ArenaChatMessage.objects.values_list("text", flat=True)) == ["Всем удачи!"]
    html = Client().get(reverse("arena:detail", args=[arena.pk])).content.decode()
    lines = html.split('id="arena-chat-lines"')[1].split("</div>")[0]
    assert user.username in lines and "Всем удачи!" in lines


@pytest.mark.django_db
def test_a_muted_user_is_refused_and_nothing_is_stored():
    arena = running_arena()
    user = person()
    user.muted_until = timezone.now() + timedelta(hours=1)
    user.save()
    assert refusal_of(arena.pk, user, "hello") == "muted"
    assert not ArenaChatMessage.objects.exists()


@pytest.mark.django_db
def test_a_flood_is_refused_at_the_table_chats_rate(settings):
    settings.GAMES_CHAT_RATE = (3, 60)
    arena = running_arena()
    user = person()
    for number in range(3):
        post_arena_chat(arena.pk, user, f"line {number}")
    assert refusal_of(arena.pk, user, "one too many") == "rate"
    assert ArenaChatMessage.objects.count() == 3
    # Another player is not held back by someone else's flood.
    post_arena_chat(arena.pk, person(), "me too")
    assert ArenaChatMessage.objects.count() == 4


@pytest.mark.django_db
def test_an_over_long_empty_or_unprintable_line_is_refused_with_nothing_stored():
    arena = running_arena()
    user = person()
    limit = setting("GAMES_CHAT_MAX_LENGTH")
    assert refusal_of(arena.pk, user, "я" * (limit + 1)) == "too_long"
    assert refusal_of(arena.pk, user, "   ") == "empty"
    assert refusal_of(arena.pk, user, {"text": "x"}) == "empty"
    assert refusal_of(arena.pk, user, "bad\x00line") == "unprintable"
    assert not ArenaChatMessage.objects.exists()
    post_arena_chat(arena.pk, user, "я" * limit)
    assert ArenaChatMessage.objects.count() == 1


@pytest.mark.django_db
def test_a_forged_arena_a_suspended_user_and_a_stranger_to_a_private_arena_are_refused():
    arena = running_arena(password="secret")
    stranger = person()
    assert refusal_of(987654, stranger, "hi") == "not_found"
    assert refusal_of("1; drop", stranger, "hi") == "not_found"
    assert refusal_of(arena.pk, stranger, "hi") == "private"
    player = person()
    services.join(player, arena, "secret")
    post_arena_chat(arena.pk, player, "hi")
    suspended = person()
    suspended.suspended_until = timezone.now() + timedelta(days=1)
    suspended.save()
    with pytest.raises(Refused):
        post_arena_chat(running_arena().pk, suspended, "hi")
    assert list(ArenaChatMessage.objects.values_list("text", flat=True)) == ["hi"]


@pytest.mark.django_db
def test_a_line_hidden_by_moderation_is_no_longer_shown():
    arena = running_arena()
    moderator = person()
    line = post_arena_chat(arena.pk, person(), "something rude")
    assert hide_arena_chat([line.pk], moderator) == 1
    html = Client().get(reverse("arena:detail", args=[arena.pk])).content.decode()
    assert "something rude" not in html


# ------------------------------------------------------------------ over the socket


@pytest.fixture
def fresh_channel_layer():
    from asgiref.sync import SyncToAsync
    from channels.layers import channel_layers
    from django.db import connections

    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()
    SyncToAsync.single_thread_executor.submit(connections.close_all).result()


def russian_person():
    user = person()
    user.language = "ru"
    user.save()
    return user


@pytest.mark.django_db(transaction=True)
@in_own_loop
async def test_a_line_sent_on_the_socket_reaches_every_page_of_the_arena(fresh_channel_layer):
    arena = await db(running_arena)
    speaker, reader = await db(person), await db(person)
    speaking = Socket(f"/ws/arena/{arena.pk}/", await db(session_cookie, speaker))
    reading = Socket(f"/ws/arena/{arena.pk}/", await db(session_cookie, reader))
    for sock in (speaking, reading):
        assert (await sock.open())[0]
        await sock.drain()
    await speaking.send({"type": "chat", "text": "<b>Привет</b>, арена!"})
    frame = await reading.until(lambda f: "arena-chat-lines" in f, timeout=5)
    assert speaker.username in frame
    # What a person typed is shown as text, never as markup.
    assert "&lt;b&gt;Привет&lt;/b&gt;, арена!" in frame
    assert await db(ArenaChatMessage.objects.count) == 1
    for sock in (speaking, reading):
        await sock.close()


@pytest.mark.django_db(transaction=True)
@in_own_loop
async def test_refusals_on_the_socket_are_in_the_viewers_language(fresh_channel_layer, settings):
    settings.GAMES_CHAT_RATE = (1, 60)
    arena = await db(running_arena)
    russian, english = await db(russian_person), await db(person)
    ru = Socket(f"/ws/arena/{arena.pk}/", await db(session_cookie, russian))
    en = Socket(f"/ws/arena/{arena.pk}/", await db(session_cookie, english))
    for sock in (ru, en):
        assert (await sock.open())[0]
        await sock.drain()
    await ru.send({"type": "chat", "text": "x" * 301})
    frame = await ru.until(lambda f: "arena-chat-error" in f, timeout=5)
    assert "Сообщение может быть не длиннее 300 символов." in frame
    await en.send({"type": "chat", "text": "x" * 301})
    frame = await en.until(lambda f: "arena-chat-error" in f, timeout=5)
    assert "A message may hold at most 300 characters." in frame
    await ru.send({"type": "chat", "text": "первая"})
    await ru.until(lambda f: "первая" in f, timeout=5)
    await ru.send({"type": "chat", "text": "вторая"})
    frame = await ru.until(lambda f: "Вы пишете слишком часто" in f, timeout=5)
    await ru.send({"type": "resign"})
    frame = await ru.until(lambda f: "Неизвестный тип сообщения." in f, timeout=5)
    texts = await db(lambda: list(ArenaChatMessage.objects.values_list("text", flat=True)))
    assert texts == ["первая"]
    for sock in (ru, en):
        await sock.close()
