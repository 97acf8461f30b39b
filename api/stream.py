"""The game stream: one seat's view of its table as newline-delimited JSON.

The first line is the whole state the seat may see (``durak.engine``'s seat view: its
own hand, the table, the talon's count, the trump, whose turn, its legal actions, with
the table's version and turn deadline); then one line each time the table's version
changes, with the table's chat (``api.talk_lines``); the stream ends once the game is
over.  A stream opened to wait for a rematch goes on after the game: it tells who asks
for one (``rematch`` lines) and follows the next game, and ends when none came within
``API_STREAM_REMATCH_SECONDS`` of its last line (at once at an aborted table or a fixed
deal).  The database stays the one source of truth: each line is read from it.  The
stream holds a channel of the channel layer, recorded as the table sockets' are, so
the table's pushes ("match N changed") wake it at once, the process's ticker announces
other processes' moves to it as to the sockets, and it counts against the same socket
caps (``games.socket_guard``); it also looks at the version every
``API_STREAM_POLL_SECONDS`` in case a push is lost.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings

from api.talk_lines import TableTalk
from durak.engine import Game
from games import presence, services, ticker
from games.models import Match, Seat
from games.socket_guard import SocketQuota

POLL_SECONDS = getattr(settings, "API_STREAM_POLL_SECONDS", 2.0)
# A blank line this often keeps proxies from closing a quiet stream; clients skip it.
KEEPALIVE_SECONDS = getattr(settings, "API_STREAM_KEEPALIVE_SECONDS", 20.0)
ENDED = (Match.Status.FINISHED, Match.Status.ABORTED)
# A stream admitted but never read (its client left while the view ran) is closed then.
START_WITHIN_SECONDS = 30.0


def rematch_wait_seconds() -> float:
    """How long the stream of a game over stays open with no line to tell: a rematch
    offered or accepted meanwhile (or a chat line) keeps it open."""
    return getattr(settings, "API_STREAM_REMATCH_SECONDS", 60.0)


async def close_unless_started(stream: Any) -> None:
    """On the server's loop: close an admitted ``stream`` (it has ``started``,
    ``channel`` and ``close()``) whose lines have not started within
    START_WITHIN_SECONDS. Django drops a response whose client left before it was
    sent, and its lines, whose end releases the stream, then never start."""

    def check() -> None:
        if not stream.started and stream.channel is not None:
            asyncio.ensure_future(stream.close())

    asyncio.get_running_loop().call_later(START_WITHIN_SECONDS, check)


def seat_number(match_id: int, user_id: int) -> int | None:
    return (
        Seat.objects.filter(match_id=match_id, user_id=user_id)
        .values_list("number", flat=True)
        .first()
    )


@dataclass(frozen=True)
class SeatAtTable:
    """One read of a seat and its table: what a stream line is made of."""

    seat: int
    match_id: int
    version: int
    status: str
    players: int
    deadline: datetime | None
    snapshot: dict[str, Any] | None

    @property
    def at(self) -> tuple[int, str]:
        """Where the table stands: a line is due when this changed."""
        return self.version, self.status

    def state_line(self) -> dict[str, Any]:
        """What the seat may see of the table.

        Only the engine's seat view is sent, which holds no other seat's cards and not
        the talon's order; the snapshot itself never leaves the server.
        """
        game = Game.from_snapshot(self.snapshot) if self.snapshot else None
        return {
            "type": "state",
            "match_id": self.match_id,
            "status": self.status,
            "version": self.version,
            "seat": self.seat,
            "players": self.players,
            "deadline": self.deadline.isoformat() if self.deadline else None,
            "view": game.view(self.seat) if game is not None else None,
        }


def seat_at_table(match_id: int, user_id: int) -> SeatAtTable | None:
    """The user's seat at ``match_id`` and the table as it stands, in one query (None:
    no seat there)."""
    row = (
        Seat.objects.filter(match_id=match_id, user_id=user_id)
        .values_list(
            "number",
            "match__version",
            "match__status",
            "match__players",
            "match__turn_deadline",
            "match__state",
        )
        .first()
    )
    return None if row is None else SeatAtTable(row[0], match_id, *row[1:])


def changed_since(
    match_id: int, user_id: int, sent: tuple[int, str] | None
) -> tuple[SeatAtTable | None, dict[str, Any] | None]:
    """The seat and table now, and their state line if the table moved past ``sent``:
    made on the caller's database thread, so the event loop only writes it out."""
    table = seat_at_table(match_id, user_id)
    if table is None or table.at == sent:
        return table, None
    return table, table.state_line()


def seat_state(match_id: int, user_id: int) -> dict[str, Any] | None:
    """What the user's seat may see of the table now (None: no seat there)."""
    found = seat_at_table(match_id, user_id)
    return None if found is None else found.state_line()


def ndjson_line(data: dict[str, Any]) -> bytes:
    return (json.dumps(data, separators=(",", ":")) + "\n").encode()


class SeatStream:
    """One open stream of a seated user; ``open`` admits it, ``lines`` yields it."""

    def __init__(self, match_id: int, user: Any, *, wait_for_rematch: bool = False) -> None:
        self.match_id = match_id
        self.user = user
        self.wait_for_rematch = wait_for_rematch
        self.layer = get_channel_layer()
        self.channel: str | None = None
        self.quota: SocketQuota | None = None
        self.started = False

    def open(self) -> bool:
        """Take a channel and count it against the user's socket caps; False past them.

        Called by the view before the response starts, so a refusal is an HTTP error.
        """
        if self.layer is not None:
            self.channel = async_to_sync(self.layer.new_channel)("api-stream.")
        else:  # no layer: polling alone
            self.channel = f"api-stream-{id(self)}"
        quota = SocketQuota(self.user.pk, self.match_id, self.channel)
        if not quota.admit():
            self.channel = None
            return False
        self.quota = quota
        presence.hold(self.channel)
        services.seat_connected(self.match_id, self.user, self.channel)
        async_to_sync(close_unless_started)(self)
        return True

    async def close(self) -> None:
        if self.channel is None:
            return
        presence.let_go(self.channel)
        await database_sync_to_async(services.seat_disconnected)(self.match_id, self.channel)
        if self.quota is not None:
            await database_sync_to_async(self.quota.release)()
        self.channel = None

    async def wait_for_news(self) -> bool:
        """Until a push reaches the stream's channel, or the poll's time is up; True
        when the chat may have changed (a chat push, or no push: a lost one)."""
        if self.layer is None:
            await asyncio.sleep(POLL_SECONDS)
            return True
        try:
            message = await asyncio.wait_for(self.layer.receive(self.channel), POLL_SECONDS)
        except TimeoutError:
            return True
        if message.get("type") == "match.changed" and message.get("version") is not None:
            ticker.table_announced(self.match_id, message["version"])
        elif message.get("type") == "presence.restore":
            # This process was taken for dead and its sockets released.
            await database_sync_to_async(services.seat_connected)(
                self.match_id, self.user, self.channel
            )
        return message.get("what") == "chat"

    async def lines(self) -> AsyncIterator[bytes]:
        self.started = True
        if self.channel is None:  # released already: its client was taken for gone
            return
        loop = asyncio.get_running_loop()
        sent: tuple[int, str] | None = None
        quiet_since = talked_at = chat_read_at = loop.time()
        talk = TableTalk(self.match_id)
        chat_news = True
        try:
            while True:
                table, state = await database_sync_to_async(changed_since)(
                    self.match_id, self.user.pk, sent
                )
                if table is None:  # the seat was left, or the table is gone
                    return
                lines: list[dict[str, Any]] = []
                status_changed = sent is None or sent[1] != table.status
                if state is not None:
                    sent = table.at
                    # Another process's move (a bot worker's) is announced by this
                    # process's ticker, as to the table sockets here.
                    ticker.watch_table(self.match_id, self.channel, table.version)
                    lines = [state]
                    if self.wait_for_rematch and table.status != Match.Status.ABORTED:
                        lines += await database_sync_to_async(talk.rematch)(table.status)
                # The chat is read on its own push, when the status changes (a game's
                # end widens what a seat may read), and at least every poll in case a
                # push was lost; not on every move.
                if chat_news or status_changed or loop.time() - chat_read_at >= POLL_SECONDS:
                    lines += await database_sync_to_async(talk.chat)(table.status)
                    chat_read_at = loop.time()
                for line in lines:
                    yield ndjson_line(line)
                if lines:
                    quiet_since = talked_at = loop.time()
                if sent[1] in ENDED and (
                    # A stream waiting for a rematch (which plays on in it) waits while
                    # its table may still play again and is talked at.
                    not self.wait_for_rematch
                    or not talk.can_play_on
                    or loop.time() - talked_at > rematch_wait_seconds()
                ):
                    return
                if loop.time() - quiet_since > KEEPALIVE_SECONDS:
                    quiet_since = loop.time()
                    yield b"\n"
                chat_news = await self.wait_for_news()
        finally:
            if self.channel is not None:
                ticker.unwatch_table(self.match_id, self.channel)
            await self.close()
