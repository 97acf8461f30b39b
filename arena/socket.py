"""The arena page's socket: it keeps the page's standings live, and carries the
friends' invites as the notice socket does (a page holds one socket).  While it is
open its player is on the arena's page: closing the last one makes them away, not
paired until they come back (``arena.presence``).

Pushes are cheap: a change sends one small message to the arena's group, naming the
players whose own part of the page changed, and each socket tells its page at most
once every ``ARENA_PUSH_SECONDS``: a change after a quiet spell at once, a burst's
later changes together when the spell ends.  A page whose own part changed (its
player's game ended, they were paired or paused) is told to fetch the whole live
part, with its forms; every other page is sent the board (``arena.live_part``): the
standings rendered once for all pages of a language, with the page's own row, which
the socket renders from the entry it read at the last fetch it asked for.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _

from friends.consumers import NoticeConsumer
from games.conf import setting
from games.services import Refused
from games.socket_base import db_call
from games.socket_guard import FrameRefused, parse_frame
from games.throttle import TokenBucket

from .chat import post_arena_chat
from .live_part import board_push
from .models import Arena, ArenaPlayer
from .presence import page_closed, page_opened
from .services import arena_group, entry_of

# The close code of a socket to no arena, as the site's router gives an unknown path.
CLOSE_NOT_FOUND = 4404
# A page is refreshed at most this often: a burst of changes (many games ending at
# once) costs each page one more fetch, not one a change.  Under half the second a
# game's end may take to reach every page: with games ending all the time, a change
# waits up to this long for the page's next refresh (benchmarks/arena_load.py).
ARENA_PUSH_SECONDS = 0.5


def refresh_html(arena_id: int) -> str:
    """The element that, swapped into the page, makes it fetch the standings part."""
    url = reverse("arena:standings", args=[arena_id])
    return (
        f'<div id="arena-refresh" hx-swap-oob="true" hx-get="{url}" hx-trigger="load"'
        ' hx-target="#arena-live" hx-swap="outerHTML"></div>'
    )


def chat_line_html(username: str, text: str, report_url: str = "") -> str:
    """A chat line, appended to the page's chat (the same markup the page renders),
    with the link to report it when ``report_url`` is given (another's line)."""
    report = (
        format_html(
            ' <a class="arena-chat-report" href="{}" title="{}" data-testid="arena-chat-report">'
            "{}</a>",
            report_url,
            _("Report message"),
            _("Report"),
        )
        if report_url
        else ""
    )
    return format_html(
        '<div id="arena-chat-lines" hx-swap-oob="beforeend">'
        '<p class="arena-chat-line"><b>{}</b> {}{}</p></div>',
        username,
        text,
        report,
    )


def chat_error_html(message: str) -> str:
    """The refusal of the last line sent, or an empty one that clears it."""
    return format_html(
        '<p id="arena-chat-error" class="arena-chat-error" role="alert" hx-swap-oob="true"'
        ' data-testid="arena-chat-error">{}</p>',
        message,
    )


class ArenaSocket(NoticeConsumer):
    """``/ws/arena/<id>/``: "arena.changed" pushes, throttled per socket, and the
    arena's chat: a "chat" frame says a line (``arena.chat``), "arena.chat" pushes
    each line said to every page of the arena."""

    refresh_pending = False
    # When this socket last told its page to refresh (time.monotonic()).
    refreshed_at = float("-inf")
    # A change to the viewer's own part since the last refresh: the next one fetches.
    own_part_changed = True
    # The viewer's entry as read for the last fetch: their row on each board pushed.
    entry: ArenaPlayer | None = None
    # The latest standings' version a push named (None: none yet, read the current).
    version: int | None = None
    frames: TokenBucket | None = None

    async def connect(self) -> None:
        self.arena_id = int(self.scope["url_route"]["kwargs"]["arena_id"])
        if not await db_call(Arena.objects.filter(pk=self.arena_id).exists)():
            await self.close(code=CLOSE_NOT_FOUND)
            return
        await super().connect()
        if self.quota is not None:  # admitted: listen to the arena as well
            await self.join_groups(arena_group(self.arena_id))
            # An open page keeps its player in the pairing (arena.presence).
            await db_call(page_opened)(self.arena_id, self.user.pk, self.channel_name)
            # A change between the page's render and this join was pushed to nobody
            # (a pairing a moment after the join's redirect): fetch once now.
            await self.refresh()

    async def disconnect(self, code: int) -> None:
        counted = getattr(self, "quota", None) is not None
        await super().disconnect(code)
        if counted:  # the last page of the arena closing makes its player away
            await db_call(page_closed)(self.arena_id, self.user.pk, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if getattr(self, "quota", None) is None:
            return
        if self.frames is None:
            self.frames = TokenBucket(*setting("GAMES_FRAME_RATE"))
        if not self.frames.allow():
            await self.send(
                text_data=chat_error_html(_("You are sending messages too fast; wait a moment."))
            )
            return
        try:
            data = parse_frame(text_data)
        except FrameRefused as refused:
            await self.send(text_data=chat_error_html(refused.message))
            return
        if data["type"] != "chat":
            await self.send(text_data=chat_error_html(_("Unknown message type.")))
            return
        try:
            await db_call(post_arena_chat)(self.arena_id, self.user, data.get("text"))
        except Refused as refused:
            await self.send(text_data=chat_error_html(refused.message))
            return
        await self.send(text_data=chat_error_html(""))  # the last refusal is gone

    async def arena_chat(self, event: dict[str, Any]) -> None:
        # Another's line may be reported (arena.chat_reports); one's own may not.
        mine = event["user"] == self.user.username
        report_url = "" if mine else reverse("arena:report_line", args=[self.arena_id, event["id"]])
        await self.send(text_data=chat_line_html(event["user"], event["text"], report_url))

    async def arena_changed(self, event: dict[str, Any]) -> None:
        users = event.get("users")
        if users is None or self.user.pk in users:
            self.own_part_changed = True
        if event.get("version") is not None:
            self.version = max(self.version or 0, event["version"])
        if self.refresh_pending:  # the refresh already due carries this change too
            return
        wait = self.refreshed_at + ARENA_PUSH_SECONDS - time.monotonic()
        if wait <= 0:
            await self.refresh()
            return
        self.refresh_pending = True
        asyncio.ensure_future(self.refresh_soon(wait))

    async def refresh_soon(self, wait: float) -> None:
        await asyncio.sleep(wait)
        self.refresh_pending = False
        await self.refresh()

    async def refresh(self) -> None:
        self.refreshed_at = time.monotonic()
        if self.own_part_changed:
            self.own_part_changed = False
            self.entry = await db_call(entry_of)(self.arena_id, self.user)
            await self.send(text_data=refresh_html(self.arena_id))
        else:
            board = await db_call(board_push)(self.arena_id, self.version, self.user, self.entry)
            await self.send(text_data=board)
