"""The table socket's hints: a seated player sends a ``hint`` frame, a bot worker
searches, and the answer comes back to that socket alone (``analysis.hints``).

The games app's table socket knows nothing of hints; this subclass adds them, and
durak_site/routing.py serves it at ``/ws/games/<id>/``.
"""

from __future__ import annotations

import asyncio
from typing import Any

from django.utils.translation import gettext as _

from analysis import hints
from analysis.services import Refused as HintRefused
from games.conf import setting
from games.consumers import TableConsumer
from games.socket_base import db_call
from games.socket_guard import signed_in_user


def _request_hint(session_key: str | None, user_id: int, match_id: int, channel: str) -> int:
    user = signed_in_user(session_key, user_id)
    return hints.request_hint(match_id, user, channel).pk


def _answered_hint_html(hint_id: int, user_id: int) -> str | None:
    answered = hints.answered_hint(hint_id, user_id)
    return None if answered is None else hints.render_answer(answered)


class HintingTableConsumer(TableConsumer):
    """The table socket, and a seated player's hints through it."""

    # The hint this socket asked for and waits for, and the task that looks for it.
    pending_hint: int | None = None
    hint_wait: asyncio.Task | None = None

    async def disconnect(self, code: int) -> None:
        if self.hint_wait is not None:
            self.hint_wait.cancel()
        await super().disconnect(code)

    async def on_hint(self, data: dict[str, Any]) -> None:
        if self.viewer.seat is None:
            await self.send_error(_("Spectators get no hints."))
            return
        # A bot worker searches; this process only queues the request (and counts it
        # against the user's limit, shared with the page and their other sockets).
        try:
            self.pending_hint = await db_call(_request_hint)(
                self.session_key(), self.user.pk, self.match_id, self.channel_name
            )
        except HintRefused as refused:
            await self.refuse(str(refused), "hint")
            return
        if self.hint_wait is None or self.hint_wait.done():
            self.hint_wait = asyncio.ensure_future(self.look_for_hint())

    async def look_for_hint(self) -> None:
        """Read the pending hint's answer until it comes: the embedded in-memory layer
        cannot carry the worker's message, and with Redis this is the backstop."""
        deadline = asyncio.get_running_loop().time() + setting("GAMES_HINT_EXPIRES_SECONDS")
        while self.pending_hint is not None and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(setting("GAMES_TICK_SECONDS"))
            if self.pending_hint is not None:
                await self.show_hint(self.pending_hint)

    async def hint_answered(self, event: dict[str, Any]) -> None:
        """A bot worker answered a hint this socket asked for."""
        if event.get("hint_id") == self.pending_hint:
            await self.show_hint(self.pending_hint)

    async def show_hint(self, hint_id: int) -> None:
        html = await db_call(_answered_hint_html)(hint_id, self.user.pk)
        if html is None or hint_id != self.pending_hint:
            return  # not answered yet, or shown meanwhile
        self.pending_hint = None
        await self.send(text_data=html)
