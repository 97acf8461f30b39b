"""The notice socket of a signed-in page that has no socket of its own (a profile, a
replay, the history lists, the friends page): a friend's invite arrives on it live.

The lobby and table pages do not open it: their own sockets carry the invite
(``invite_received`` there too), so a page holds one socket, never two.
"""

from __future__ import annotations

from typing import Any

from friends.views import render_friend_arena, render_invite_declined, render_invite_notice
from games.socket_base import GuardedSocket, db_call, socket_changed_for


def _invite_notice_html(user: Any) -> str:
    return render_invite_notice(user, oob=True)


class NoticeConsumer(GuardedSocket):
    """``/ws/notices/``: the user's invite notice, pushed when a friend invites them.

    It joins no group: the invite comes to its own channel, as to every open socket
    of the user (``accounts.socket_news``), never the lobby's: a page opened to read a replay
    is not re-rendered for every table that opens.  It counts against the user's
    socket caps, and as an open socket it shows them online to their friends.
    """

    async def connect(self) -> None:
        if not await self.open_listener():
            return
        user = self.user
        await self.join_groups()
        await self.accept()
        # An invite made while the page loaded, or while the socket reconnected.
        await self.send(text_data=await db_call(_invite_notice_html)(user))
        self.start_heartbeat(user.pk)
        await db_call(socket_changed_for)(user.pk)

    async def disconnect(self, code: int) -> None:
        counted = self.quota is not None  # a refused handshake changed no presence
        await self.leave()
        if counted:
            await db_call(socket_changed_for)(self.user.pk)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        pass  # The page only listens; a frame renders nothing.

    async def send_notice(self, message: str) -> None:
        pass  # No message area; the close code says why.

    async def invite_received(self, event: dict[str, Any]) -> None:
        """A friend invited this socket's user ("invite.received", sent to each of the
        user's open sockets by ``friends.services``): the page's invite notice."""
        await self.send(text_data=await db_call(_invite_notice_html)(self.scope["user"]))

    async def invite_declined(self, event: dict[str, Any]) -> None:
        """A friend declined this socket's user's invite: a notice says so."""
        notice = await db_call(render_invite_declined)(event["invite"])
        if notice:  # an invite deleted since (its table gone) says nothing
            await self.send(text_data=notice)

    async def friend_arena(self, event: dict[str, Any]) -> None:
        """A friend created a public arena: a notice with its link."""
        await self.send(text_data=render_friend_arena(event))

    async def show_new_language(self) -> None:
        await self.send(text_data=await db_call(_invite_notice_html)(self.scope["user"]))
