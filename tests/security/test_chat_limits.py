"""Chat: the per-user rate limit holds under parallel senders; unprintable text is refused."""

from __future__ import annotations

import asyncio
import threading

import pytest
from django.db import connections

from games import services
from games.models import ChatMessage
from tests.scale.wsclient import TableClient
from tests.sockets import ERROR, in_own_loop, session_cookie
from tests.table_fingerprint import table_fingerprint

from .helpers import two_player_table

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("round_", range(3))  # a race: several tries to catch a leak
def test_parallel_chat_of_one_user_never_beats_the_limit(settings, round_: int) -> None:
    settings.GAMES_CHAT_RATE = (25, 600)
    match, users = two_player_table()
    senders = 40
    start = threading.Barrier(senders)
    refusals: list[str] = []

    def send(number: int) -> None:
        try:
            start.wait()
            services.post_chat(match.pk, users[0], f"line {number}")
        except services.Refused as refused:
            refusals.append(refused.code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=send, args=(n,)) for n in range(senders)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert ChatMessage.objects.filter(match=match).count() == 25
    assert refusals == ["rate"] * (senders - 25)


@pytest.fixture
def ten_lines_a_while(settings) -> None:
    # Set before the server process forks, so it inherits the limit.
    settings.GAMES_CHAT_RATE = (10, 600)


def test_parallel_sockets_of_one_user_never_beat_the_limit(
    ten_lines_a_while, live_server_url
) -> None:
    match, users = two_player_table()
    cookie = session_cookie(users[0])

    @in_own_loop
    async def flood() -> int:
        sockets = [TableClient(live_server_url, match.pk, cookie) for _ in range(4)]
        await asyncio.gather(*(sock.open() for sock in sockets))

        async def chatter(sock: TableClient, number: int) -> int:
            for line in range(5):
                await sock.send({"type": "chat", "text": f"{number}.{line}"})
            # Every socket also gets everyone's chat: read until the table is quiet.
            refused = 0
            while True:
                try:
                    frame = await sock.receive(timeout=2)
                except TimeoutError:
                    return refused
                refused += ERROR in frame and "too fast" in frame

        refused = await asyncio.gather(*(chatter(s, n) for n, s in enumerate(sockets)))
        for sock in sockets:
            await sock.close()
        return sum(refused)

    refused = flood()
    assert ChatMessage.objects.filter(match=match).count() == 10
    assert refused == 20 - 10


@pytest.mark.parametrize(
    "text", ["nul \x00 inside", "bell \x07", "lone \ud800 surrogate", "\x00", "esc \x1b[31m"]
)
def test_unprintable_chat_is_refused_and_stores_nothing(text: str) -> None:
    match, users = two_player_table()
    before = table_fingerprint(match.pk)
    with pytest.raises(services.Refused) as refused:
        services.post_chat(match.pk, users[0], text)
    assert refused.value.code == "unprintable"
    assert table_fingerprint(match.pk) == before
