"""The API bots of the load benchmarks: bot accounts that play through the public API.

Each speaks HTTP as the reference client does (``clients/durak_api.py``): one request a
connection, and a seat's stream read line by line (``GET /api/games/{id}/stream``),
answering each of its turns at once with the example bot's choice
(``clients/example_bot.py``).  ``benchmarks/api_bots.py`` runs them beside people,
``benchmarks/api_request_cost.py`` uses their requests.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "clients"))

from example_bot import choose  # noqa: E402

HOST = "127.0.0.1"


@dataclass
class BotStats:
    move_to_line: list[float] = field(default_factory=list)  # seconds
    post_round_trip: list[float] = field(default_factory=list)
    games: int = 0
    tables: int = 0
    refused: Counter = field(default_factory=Counter)
    # A move answered 200 whose line its stream never brought before the run stopped.
    unseen: int = 0
    errors: list[str] = field(default_factory=list)


class Servers:
    """The web processes the clients reach: each new connection goes to the next one,
    as a load balancer taking turns would send it (one process: always that one)."""

    def __init__(self, ports: list[int]) -> None:
        self.ports = ports
        self._turn = itertools.cycle(ports)

    def next(self) -> int:
        return next(self._turn)


async def request(port: int, method: str, path: str, token: str, body=None) -> tuple[int, dict]:
    """One API call on a connection of its own, as the reference client makes it."""
    reader, writer = await asyncio.open_connection(HOST, port)
    data = b"" if body is None else json.dumps(body).encode()
    head = (
        f"{method} {path} HTTP/1.0\r\nHost: {HOST}:{port}\r\n"
        f"Authorization: Bearer {token}\r\nAccept: application/json\r\n"
    )
    if body is not None:
        head += f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n"
    writer.write(head.encode() + b"\r\n" + data)
    try:
        status = int((await reader.readline()).split()[1])
        while (await reader.readline()) not in (b"\r\n", b""):
            pass
        payload = await reader.read()
    finally:
        writer.close()
    try:
        return status, json.loads(payload or b"null")
    except ValueError:  # not the API's JSON (a server error's page): counted by its status
        return status, {"code": f"http {status}"}


async def read_lines(reader: asyncio.StreamReader, queue: asyncio.Queue) -> None:
    """Each line of a stream with the moment it arrived; None when the stream ends.
    Over HTTP/1.0 the body comes unchunked and the server closes it at its end."""
    while True:
        raw = await reader.readline()
        if not raw:
            queue.put_nowait(None)
            return
        if raw.strip():  # blank lines only keep the connection alive
            queue.put_nowait((time.perf_counter(), json.loads(raw)))


async def play_game(servers: Servers, token: str, match_id: int, window, stats: BotStats) -> bool:
    """Answer each turn of the bot's seat until the game ends (True) or the run stops."""
    measure_from, stop_at = window
    port = servers.next()
    reader, writer = await asyncio.open_connection(HOST, port, limit=2**20)
    writer.write(
        f"GET /api/games/{match_id}/stream HTTP/1.0\r\nHost: {HOST}:{port}\r\n"
        f"Authorization: Bearer {token}\r\nAccept: application/x-ndjson\r\n\r\n".encode()
    )
    queue: asyncio.Queue = asyncio.Queue()
    lines = None
    pending: tuple[int, float] | None = None  # (version answered, sent at)
    try:
        status = int((await reader.readline()).split()[1])
        while (await reader.readline()) not in (b"\r\n", b""):
            pass
        if status != 200:
            stats.errors.append(f"stream of {match_id}: {status}")
            return False
        lines = asyncio.ensure_future(read_lines(reader, queue))
        acted_at = -1
        while True:
            try:
                item = await asyncio.wait_for(queue.get(), max(0.0, stop_at - time.perf_counter()))
            except TimeoutError:
                return False
            if item is None:
                return True
            arrived, state = item
            if pending is not None and state["version"] > pending[0]:
                if pending[1] >= measure_from:
                    stats.move_to_line.append(arrived - pending[1])
                pending = None
            view = state.get("view")
            if state["status"] != "playing" or not view or view["is_over"]:
                continue
            if state["version"] <= acted_at or time.perf_counter() >= stop_at:
                continue
            action = choose(view)
            if action is None:
                continue
            acted_at = state["version"]
            sent = time.perf_counter()
            code, answer = await request(
                servers.next(),
                "POST",
                f"/api/games/{match_id}/actions",
                token,
                {"action": action, "version": state["version"]},
            )
            if code == 200:
                pending = (state["version"], sent)
                if sent >= measure_from:
                    stats.post_round_trip.append(time.perf_counter() - sent)
            else:  # stale: the site's bot moved first; the next line brings the table
                stats.refused[(answer or {}).get("code", str(code))] += 1
    finally:
        if pending is not None and pending[1] >= measure_from:
            stats.unseen += 1
        if lines is not None:
            lines.cancel()
        writer.close()


async def api_bot(servers: Servers, token: str, level: str, window, stats: BotStats) -> None:
    """Game after game against the site's ``level`` bot at fast speed, until the stop."""
    stop_at = window[1]
    while time.perf_counter() < stop_at:
        code, answer = await request(
            servers.next(), "POST", "/api/tables", token, {"level": level, "bot_speed": "fast"}
        )
        if code != 201:
            stats.refused[f"table {(answer or {}).get('code', code)}"] += 1
            await asyncio.sleep(min(5.0, max(0.0, stop_at - time.perf_counter())))
            continue
        stats.tables += 1
        if await play_game(servers, token, answer["match_id"], window, stats):
            stats.games += 1


async def api_pair(servers: Servers, bots: list[tuple[str, str]], window, stats: BotStats) -> None:
    """Two bot accounts play each other game after game: one challenges (they take
    turns), the other accepts, both read their streams and answer each turn at once."""
    stop_at, challenger = window[1], 0
    while time.perf_counter() < stop_at:
        (_name, token), (friend, friend_token) = bots[challenger], bots[1 - challenger]
        code, answer = await request(
            servers.next(), "POST", "/api/challenges", token, {"username": friend}
        )
        if code == 201:
            path = f"/api/invites/{answer['invite_id']}/accept"
            code, answer = await request(servers.next(), "POST", path, friend_token)
        if code not in (200, 201):  # a flood of invites is refused: wait, as a bot would
            stats.refused[f"challenge {(answer or {}).get('code', code)}"] += 1
            await asyncio.sleep(min(5.0, max(0.0, stop_at - time.perf_counter())))
            continue
        stats.tables += 1
        ended = await asyncio.gather(
            *(play_game(servers, t, answer["match_id"], window, stats) for _n, t in bots)
        )
        stats.games += all(ended)
        challenger = 1 - challenger


def make_bots(count: int, friends: bool) -> list[tuple[str, str]]:
    """``count`` bot accounts (name, token), as a player makes one (a token, then
    "become a bot"); with ``friends`` each two in turn are friends (one asked, the
    other asked back), as a challenge needs."""
    from django.contrib.auth import get_user_model

    from api.tokens import create_token
    from friends.services import request_friend
    from matchmaking.bot_accounts import turn_into_bot

    tag = f"{os.getpid()}x{int(time.time())}"
    bots = []
    for n in range(count):
        user = get_user_model().objects.create_user(username=f"apibot{tag}n{n}", password=None)
        _token, secret = create_token(user, "benchmark", ["read", "play", "bot"])
        turn_into_bot(user)
        bots.append((user, secret))
        if friends and n % 2:
            request_friend(bots[n - 1][0], user)
            request_friend(user, bots[n - 1][0])
    return [(user.username, secret) for user, secret in bots]
