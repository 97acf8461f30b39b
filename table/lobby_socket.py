"""The lobby's socket: the open tables, the player's "Play now" panel and friends.

It composes what the games, friends and matchmaking apps show, so it lives here,
above them all."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from friends import services as friends
from friends.views import render_friend_arena, render_invite_declined, render_invite_notice
from games import services
from games.conf import setting
from games.services.common import lobby_user_group
from games.socket_base import GuardedSocket, db_call, socket_changed_for
from games.socket_guard import (
    CLOSE_TOO_MANY,
    SignedOut,
)
from games.throttle import TokenBucket
from matchmaking.services import ready_table
from matchmaking.views import render_panel
from table.pages import render_open_tables

logger = logging.getLogger(__name__)


def _lobby_html(user: Any) -> str:
    return render_open_tables(user)


def _friends_html(user: Any) -> str:
    """The lobby's friends panel (``table/friends_panel.html``), out of band."""
    return render_to_string("table/friends_panel.html", {**friends.panel(user), "oob": True})


def _play_panel_html(user: Any) -> str:
    return render_panel(user, oob=True)


def _ready_panel_html(user: Any) -> str:
    """The panel naming the table a seek of ``user`` was seated at, else nothing."""
    return _play_panel_html(user) if ready_table(user) is not None else ""


class LobbySocket(GuardedSocket):
    """``/ws/lobby/``: the open-tables list, pushed whenever a table opens or fills,
    and the user's "Play now" panel when their seek is seated.

    The lobby only listens.  A frame asks for the list again, within a small rate;
    a flood closes the socket instead of rendering from the database per frame.
    """

    async def connect(self) -> None:
        if not await self.open_listener():
            return
        user = self.user
        self.frames = TokenBucket(*setting("GAMES_LOBBY_FRAME_RATE"))
        self.lobby_pending = False
        self.lobby_sending = asyncio.Lock()
        await self.join_groups(services.LOBBY_GROUP, lobby_user_group(user.pk))
        await self.accept()
        await self.send(text_data=await db_call(_lobby_html)(self.user))
        # A seek seated after the page was rendered but before this socket joined its
        # group was pushed to nobody (a lone seeker's bot comes within a second): the
        # panel with the table goes now, so the page still goes there.
        ready = await db_call(_ready_panel_html)(user)
        if ready:
            await self.send(text_data=ready)
        self.start_heartbeat(user.pk)
        await db_call(socket_changed_for)(user.pk)

    async def disconnect(self, code: int) -> None:
        await self.leave()
        user = self.scope.get("user")
        if user is not None and user.is_authenticated:
            await db_call(socket_changed_for)(user.pk)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if not self.frames.allow():
            await self.close(
                code=CLOSE_TOO_MANY, reason=_("You are sending messages too fast; wait a moment.")
            )
            return
        await self.send(text_data=await db_call(_lobby_html)(self.user))

    async def send_notice(self, message: str) -> None:
        pass  # The lobby has no message area; the close code says why.

    async def sign_out(self, out: SignedOut) -> None:
        await self.close(code=out.code)

    async def lobby_changed(self, event: dict[str, Any]) -> None:
        """Render the lobby once for a burst of changes (fifty seeks in a second are
        one render, not fifty queued behind each other): the first change of a burst
        schedules the render, the others find it pending."""
        if self.lobby_pending:
            return
        self.lobby_pending = True
        asyncio.ensure_future(self.send_lobby_soon())

    async def send_lobby_soon(self) -> None:
        await asyncio.sleep(setting("GAMES_LOBBY_PUSH_SECONDS"))
        async with self.lobby_sending:  # renders go out in the order they were read
            self.lobby_pending = False  # a change from now on renders again
            try:
                await self.send(text_data=await db_call(_lobby_html)(self.user))
            except Exception:  # a closed socket or a failed read: the next change tries again
                logger.exception("could not push the lobby")

    async def friends_changed(self, event: dict[str, Any]) -> None:
        """A friend came, went, or a request was made or answered: the friends panel."""
        await self.send(text_data=await db_call(_friends_html)(self.scope["user"]))

    async def seek_changed(self, event: dict[str, Any]) -> None:
        """This user's seek was seated or ended: their "Play now" panel again."""
        await self.send(text_data=await db_call(_play_panel_html)(self.scope["user"]))

    async def show_new_language(self) -> None:
        await self.send(text_data=await db_call(_lobby_html)(self.user))

    async def invite_received(self, event: dict[str, Any]) -> None:
        """A friend invited this socket's user: the lobby's invite notice."""
        await self.send(text_data=await db_call(render_invite_notice)(self.scope["user"], oob=True))

    async def invite_declined(self, event: dict[str, Any]) -> None:
        """A friend declined this socket's user's invite: a notice says so."""
        notice = await db_call(render_invite_declined)(event["invite"])
        if notice:  # an invite deleted since (its table gone) says nothing
            await self.send(text_data=notice)

    async def friend_arena(self, event: dict[str, Any]) -> None:
        """A friend created a public arena: a notice with its link."""
        await self.send(text_data=render_friend_arena(event))
