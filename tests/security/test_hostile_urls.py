"""Hostile URLs get a plain refusal: 404 pages, refused socket handshakes, never a 500."""

from __future__ import annotations

import asyncio
from urllib.parse import urlsplit

import pytest
from django.contrib.auth import get_user_model
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from tests.sockets import in_own_loop, session_cookie

HUGE = str(2**63)
HUGER = "9" * 40

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize(
    "path",
    [
        f"/games/{HUGE}/replay/",
        f"/games/{HUGE}/replay/record.json",
        f"/games/{2**63 - 1}/replay/record.json",
        f"/games/{HUGER}/replay/",
        f"/games/{HUGE}/",
        f"/games/{HUGE}/hint/",
        f"/games/1/analysis/{HUGE}/",
        "/games/0/replay/",
        "/games/-1/replay/",
    ],
)
def test_ids_no_row_can_have_are_not_found(client, path: str) -> None:
    user = get_user_model().objects.create(username="prowler")
    client.force_login(user)
    assert client.get(path).status_code == 404


def test_socket_paths_nobody_serves_are_refused_at_the_handshake(live_server_url) -> None:
    user = get_user_model().objects.create(username="prowler")
    cookie = session_cookie(user)
    netloc = urlsplit(live_server_url).netloc

    async def handshake(path: str) -> int:
        try:
            async with connect(
                f"ws://{netloc}{path}",
                origin=live_server_url,
                additional_headers={"Cookie": f"sessionid={cookie}"},
                open_timeout=10,
            ):
                return 101
        except InvalidStatus as refused:
            return refused.response.status_code

    @in_own_loop
    async def statuses() -> list[int]:
        paths = [
            "/ws/games/-1/",
            "/ws/games/2/extra/",
            f"/ws/games/{HUGE}/",
            f"/ws/games/{HUGER}/",
            "/ws/games/abc/",
            "/ws/nowhere",
            "/",
        ]
        return await asyncio.gather(*(handshake(p) for p in paths))

    # 403 is how a server turns down a handshake; a 500 would be a crash.
    assert statuses() == [403] * 7
