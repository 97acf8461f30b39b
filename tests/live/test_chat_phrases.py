"""Quick phrases: one click in the chat, read by each reader in their own language."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import services
from games.models import ChatMessage, RuleVariant

from .conftest import Socket, db, in_own_loop, make_user, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


def table_of_two():
    """An English and a Russian player at a table in play, and an English spectator."""
    users = [make_user("mila", language="ru"), make_user("oleg"), make_user("vera")]
    match = services.create_match(users[0], RuleVariant.objects.get(slug="classic"), 2)
    services.join_match(match, users[1])
    match.refresh_from_db()
    return match, users


def test_a_phrase_reads_in_each_readers_language():
    match, users = table_of_two()

    @in_own_loop
    async def run():
        mila, oleg = [
            Socket(f"/ws/games/{match.pk}/", await db(session_cookie, u)) for u in users[:2]
        ]
        for sock in (mila, oleg):
            assert (await sock.open())[0]
            await sock.drain()
        await mila.send({"type": "chat", "phrase": "good_luck"})
        frames = [await sock.until(lambda f: 'id="table-chat"' in f) for sock in (mila, oleg)]
        for sock in (mila, oleg):
            await sock.close()
        return frames

    to_mila, to_oleg = run()
    assert "<strong>mila</strong>: Удачи!</li>" in to_mila
    assert "<strong>mila</strong>: Good luck!</li>" in to_oleg
    stored = ChatMessage.objects.get()
    assert (stored.phrase, stored.text, stored.channel) == ("good_luck", "", "players")


def test_the_table_page_offers_the_phrases_in_the_pages_language(client):
    match, users = table_of_two()
    client.force_login(users[0])
    page = client.get(f"/games/{match.pk}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert 'data-phrase="good_game">Хорошая игра!</button>' in page
    assert len(ChatMessage.Phrase.values) == page.count('class="chat-phrase"')


def test_an_unknown_or_forged_phrase_is_refused_and_stores_nothing():
    match, users = table_of_two()
    for forged in ("hello", 7, ["good_luck"], ""):
        with pytest.raises(services.Refused) as refused:
            services.post_chat(match.pk, users[1], "ignored", phrase=forged)
        assert refused.value.code == "unknown_phrase"
    assert not ChatMessage.objects.exists()


def test_phrases_keep_the_chats_limits():
    match, users = table_of_two()
    for _ in range(3):
        services.post_chat(match.pk, users[1], None, phrase="thanks")
    with pytest.raises(services.Refused, match="too fast"):
        services.post_chat(match.pk, users[1], None, phrase="oops")
    users[0].muted_until = timezone.now() + timedelta(hours=1)
    users[0].save()
    with pytest.raises(services.Refused) as refused:
        services.post_chat(match.pk, users[0], None, phrase="good_game")
    assert refused.value.code == "muted"
    # A spectator's phrase goes to the spectators, as their words would.
    services.post_chat(match.pk, users[2], None, phrase="well_played")
    assert ChatMessage.objects.get(user=users[2]).channel == "spectators"
    assert ChatMessage.objects.filter(user=users[0]).count() == 0
