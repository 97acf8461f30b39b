"""The account's event stream: its games starting and finishing, the invites and
friend requests it receives, the declines of invites it sent and the rematches offered
to it, as newline-delimited JSON.

On opening, a line for each game of the account in progress and each invite and
friend request waiting for its answer; then a line each time one of its games starts
(a table dealt, a rematch's next game) or finishes (or is aborted), each time a friend
invites it or a player asks to be its friend, and each time an invite it sent (a
challenge) is declined, and each time another player at a table whose game is over
asks it for a rematch (``rematch_offered``; an offer made on the page is found at
the next look, within ``API_STREAM_POLL_SECONDS``).
The database stays the one source of truth: the stream compares what it holds now
with what it has told.  Like the game stream (``api.stream``) it holds a channel of
the channel layer recorded as an open socket of the account (``games.socket_guard``):
so it counts against the per-account socket cap, the account's news (an invite) wakes
it on whatever process, and so does ``seats_changed`` (its games starting, ending,
its seats taken and given up) through the receiver below; it also looks every
``API_STREAM_POLL_SECONDS`` in case a push is lost.  Blank lines keep it alive.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.db.models import Max, Q
from django.dispatch import receiver

from api.models import ApiToken
from api.stream import KEEPALIVE_SECONDS, POLL_SECONDS, close_unless_started, ndjson_line
from api.talk_lines import rematch_offers
from friends.models import Friendship, Invite
from games.models import Match, Seat
from games.services.common import send_to_channels
from games.signals import seats_changed
from games.socket_guard import SocketQuota
from games.socket_rows import OpenSocket
from history.models import PlayerGame

# Every event stream's channel starts so: the seats' news goes to these alone (a page's
# socket has no handler for it).
CHANNEL_PREFIX = "api-events."
CHECK = {"type": "events.check"}


def games_in_play(user_id: int) -> dict[int, int]:
    """The account's tables in play: table id -> its seat there."""
    rows = Seat.objects.filter(user_id=user_id, match__status=Match.Status.PLAYING)
    return dict(rows.values_list("match_id", "number"))


def started_line(match_id: int, seat: int) -> dict[str, Any]:
    return {"type": "game_started", "match_id": match_id, "seat": seat}


def finished_line(match_id: int, user_id: int) -> dict[str, Any]:
    """A game of the account no longer in play: how it ended, and its result for the
    account (``history``'s result of its last finished deal there; None when aborted)."""
    status = Match.objects.filter(pk=match_id).values_list("status", flat=True).first()
    result = (
        PlayerGame.objects.filter(match_id=match_id, user_id=user_id)
        .order_by("-finished_at", "-pk")
        .values_list("result", flat=True)
        .first()
    )
    return {
        "type": "game_finished",
        "match_id": match_id,
        "status": status or Match.Status.ABORTED,  # a table removed since
        "result": result if status == Match.Status.FINISHED else None,
    }


def waiting_invites(user_id: int) -> list[dict[str, Any]]:
    """The invites to the account still waiting for an answer, to tables still open."""
    invites = (
        Invite.objects.filter(
            to_user_id=user_id, status=Invite.Status.PENDING, match__status=Match.Status.WAITING
        )
        .select_related("from_user")
        .order_by("pk")
    )
    return [
        {
            "type": "invite",
            "invite_id": invite.pk,
            "match_id": invite.match_id,
            "from": invite.from_user.username,
        }
        for invite in invites
    ]


def friend_requests(user_id: int) -> list[dict[str, Any]]:
    """The friend requests to the account waiting for an answer."""
    rows = (
        Friendship.objects.filter(to_user_id=user_id, accepted_at__isnull=True)
        .select_related("from_user")
        .order_by("pk")
    )
    return [
        {"type": "friend_request", "request_id": row.pk, "from": row.from_user.username}
        for row in rows
    ]


class SentInvites:
    """Where the invites the account sent stood when its stream opened: those waiting
    then, and the last invite made by anyone.  A decline of one of those, or of one
    made since, is news; one declined before the stream opened is not."""

    def __init__(self, user_id: int) -> None:
        self.user_id = user_id
        rows = Invite.objects.filter(from_user_id=user_id, status=Invite.Status.PENDING)
        self.waiting = set(rows.values_list("pk", flat=True))
        self.floor = Invite.objects.aggregate(last=Max("pk"))["last"] or 0
        self.told: set[int] = set()

    def declined(self) -> list[dict[str, Any]]:
        """A line for each decline not told yet."""
        found = (
            Invite.objects.filter(from_user_id=self.user_id, status=Invite.Status.DECLINED)
            .filter(Q(pk__gt=self.floor) | Q(pk__in=self.waiting))
            .exclude(pk__in=self.told)
            .select_related("to_user")
            .order_by("pk")
        )
        lines = [declined_line(invite) for invite in found]
        self.told.update(line["invite_id"] for line in lines)
        return lines


def declined_line(invite: Invite) -> dict[str, Any]:
    return {
        "type": "invite_declined",
        "invite_id": invite.pk,
        "match_id": invite.match_id,
        "by": invite.to_user.username,
    }


def token_is_live(token_id: int) -> bool:
    return ApiToken.objects.filter(
        pk=token_id, revoked_at__isnull=True, user__is_active=True
    ).exists()


class AccountEvents:
    """One open event stream of an account; ``open`` admits it, ``lines`` yields it."""

    def __init__(self, user: Any, token_id: int) -> None:
        self.user = user
        self.token_id = token_id
        self.layer = get_channel_layer()
        self.channel: str | None = None
        self.quota: SocketQuota | None = None
        self.started = False
        self.playing: dict[int, int] = {}
        self.invites_told: set[int] = set()
        self.requests_told: set[int] = set()
        self.offers_told: set[tuple[int, tuple[str, ...]]] = set()
        self.sent: SentInvites | None = None  # read at the first look

    def open(self) -> bool:
        """Take a channel and count it against the account's socket cap; False past it."""
        if self.layer is not None:
            self.channel = async_to_sync(self.layer.new_channel)(CHANNEL_PREFIX)
        else:  # no layer: polling alone
            self.channel = f"{CHANNEL_PREFIX}{id(self)}"
        quota = SocketQuota(self.user.pk, None, self.channel)
        if not quota.admit():
            self.channel = None
            return False
        self.quota = quota
        async_to_sync(close_unless_started)(self)
        return True

    async def close(self) -> None:
        if self.channel is None:
            return
        if self.quota is not None:
            await database_sync_to_async(self.quota.release)()
        self.channel = None

    def news(self) -> list[dict[str, Any]]:
        """What happened since the last look, as lines; what was told is remembered."""
        now = games_in_play(self.user.pk)
        lines = [finished_line(m, self.user.pk) for m in sorted(self.playing.keys() - now.keys())]
        lines += [started_line(m, now[m]) for m in sorted(now.keys() - self.playing.keys())]
        self.playing = now
        for invite in waiting_invites(self.user.pk):
            if invite["invite_id"] not in self.invites_told:
                self.invites_told.add(invite["invite_id"])
                lines.append(invite)
        for asked in friend_requests(self.user.pk):
            if asked["request_id"] not in self.requests_told:
                self.requests_told.add(asked["request_id"])
                lines.append(asked)
        # A table playing again may be offered another rematch once its game is over.
        self.offers_told = {told for told in self.offers_told if told[0] not in now}
        for offer in rematch_offers(self.user.pk):
            told = (offer["match_id"], tuple(offer["by"]))
            if told not in self.offers_told:
                self.offers_told.add(told)
                lines.append(offer)
        if self.sent is None:
            self.sent = SentInvites(self.user.pk)
        else:
            lines += self.sent.declined()
        return lines

    async def wait_for_news(self) -> None:
        """Until a message reaches the stream's channel, or the poll's time is up."""
        if self.layer is None:
            await asyncio.sleep(POLL_SECONDS)
            return
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self.layer.receive(self.channel), POLL_SECONDS)

    async def lines(self) -> AsyncIterator[bytes]:
        self.started = True
        if self.channel is None:  # released already: its client was taken for gone
            return
        loop = asyncio.get_running_loop()
        quiet_since = loop.time()
        try:
            while True:
                for line in await database_sync_to_async(self.news)():
                    quiet_since = loop.time()
                    yield ndjson_line(line)
                if loop.time() - quiet_since > KEEPALIVE_SECONDS:
                    # A revoked token (or a closed account) ends the stream.
                    if not await database_sync_to_async(token_is_live)(self.token_id):
                        return
                    quiet_since = loop.time()
                    yield b"\n"
                await self.wait_for_news()
        finally:
            await self.close()


@receiver(seats_changed)
def wake_event_streams(sender: Any, user_ids: list[int], **kwargs: Any) -> None:
    """These accounts' games started, ended, or their seats changed: their event
    streams, on whatever process, look again at once."""
    # A layer may put its own prefix first (channels-redis' ``prefix``, CHANNELS_PREFIX):
    # an event stream's channel holds CHANNEL_PREFIX, not necessarily at its start.
    channels = list(
        OpenSocket.objects.filter(
            user_id__in=list(user_ids), channel_name__contains=CHANNEL_PREFIX
        ).values_list("channel_name", flat=True)
    )
    if channels:
        send_to_channels(channels, CHECK)
