"""Fifty players press "Play now" at once on two daphne processes (PostgreSQL + Redis).

Each player's lobby socket and request go to one of the two processes; the
pairing of either process must seat every player exactly once, at a table of
their own wishes with the right number of seats, and the player's lobby socket
(on whichever process) must send them there.
"""

from __future__ import annotations

import asyncio
import secrets
import string
import sys
import urllib.request
from collections import Counter, defaultdict
from collections.abc import Iterator
from urllib.parse import urlencode, urlsplit

import pytest
from django.db import connection
from websockets.asyncio.client import connect

from durak_site.cluster import Cluster
from games.models import Match, Seat
from matchmaking.models import POOL_FIELDS, Seek
from tests.scale.conftest import needs_cluster_backends
from tests.scale.test_cluster import child_env
from tests.sockets import db, in_own_loop, session_cookie

from .conftest import make_user, wishes

pytestmark = [needs_cluster_backends, pytest.mark.django_db(transaction=True)]

SEEKERS = 50
# This work's own ports (nothing else listens there during the tests).
PORTS = [8150, 8151]
GO = "data-go="


@pytest.fixture
def cluster(transactional_db, tmp_path) -> Iterator[Cluster]:
    if sys.platform == "win32":  # pragma: no cover
        pytest.skip("POSIX only")
    name = connection.settings_dict["NAME"]
    connection.close()
    running = Cluster(PORTS, env=child_env(name), log_dir=tmp_path)
    running.start(timeout=60)
    try:
        yield running
    finally:
        running.stop()


def post_seek(base_url: str, cookie: str, choice: dict) -> urllib.request.Request:
    token = "".join(secrets.choice(string.ascii_letters + string.digits) for _ in range(32))
    form = {k: ("on" if v is True else v) for k, v in choice.items() if v is not False}
    return urllib.request.Request(
        f"{base_url}/play/",
        data=urlencode(form).encode(),
        headers={
            "Cookie": f"sessionid={cookie}; csrftoken={token}",
            "X-CSRFToken": token,
            "HX-Request": "true",
            "Content-Type": "application/x-www-form-urlencoded",
        },
        method="POST",
    )


def send(request: urllib.request.Request) -> tuple[int, dict]:
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.status, dict(response.headers)


async def seek_and_wait(
    base_url: str, cookie: str, choice: dict, opening: asyncio.Semaphore, ready: asyncio.Barrier
) -> str:
    """Open the lobby socket, seek together with everybody else, and return the
    table address the server sends (the request's answer, or the socket's push)."""
    parts = urlsplit(base_url)
    # A few handshakes at a time: daphne drops a handshake not answered in 5 s.
    async with opening:
        socket = await connect(
            f"ws://{parts.netloc}/ws/lobby/",
            origin=base_url,
            additional_headers={"Cookie": f"sessionid={cookie}"},
            open_timeout=30,
            ping_interval=None,
        )
        await socket.recv()  # the lobby as it is
    async with socket:
        await ready.wait()
        status, headers = await asyncio.to_thread(send, post_seek(base_url, cookie, choice))
        assert status in (200, 204)
        if "HX-Redirect" in headers:
            return headers["HX-Redirect"]
        while True:
            frame = await asyncio.wait_for(socket.recv(), 60)
            if GO in frame:
                return frame.split(GO, 1)[1].split('"')[1]


@in_own_loop
async def test_fifty_parallel_seekers_on_two_processes_are_each_seated_once(cluster) -> None:
    users = await db(lambda: [make_user("cl") for _ in range(SEEKERS)])
    cookies = [await db(session_cookie, user) for user in users]
    # 26 want two players and 24 want three: 13 + 8 tables, nobody left over.
    choices = [wishes(players=2 if i < 26 else 3) for i in range(SEEKERS)]
    opening, ready = asyncio.Semaphore(5), asyncio.Barrier(SEEKERS)
    sent_to = await asyncio.gather(
        *(
            seek_and_wait(cluster.urls[i % 2], cookie, choice, opening, ready)
            for i, (cookie, choice) in enumerate(zip(cookies, choices, strict=True))
        )
    )

    def check() -> None:
        seats = Counter(Seat.objects.filter(user__in=users).values_list("user_id", flat=True))
        assert set(seats) == {u.pk for u in users} and set(seats.values()) == {1}
        seeks = list(Seek.objects.filter(user__in=users))
        assert len(seeks) == SEEKERS
        assert all(s.status == Seek.Status.SEATED for s in seeks)
        by_match = defaultdict(list)
        for seek in seeks:
            by_match[seek.match_id].append(seek)
        assert len(by_match) == 13 + 8
        for match_id, group in by_match.items():
            match = Match.objects.get(pk=match_id)
            assert len({tuple(s.pool()[f] for f in POOL_FIELDS) for s in group}) == 1
            assert len(group) == match.players == Seat.objects.filter(match=match).count()
            assert not Seat.objects.filter(match=match).exclude(bot_level="").exists()
            assert match.status == Match.Status.PLAYING
        for user, url in zip(users, sent_to, strict=True):
            seat = Seat.objects.get(user=user)
            assert url == f"/games/{seat.match_id}/"

    await db(check)
