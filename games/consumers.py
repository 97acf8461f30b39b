"""WebSocket consumers: one table socket per viewer, and the lobby.

They only translate frames into service calls and renders.  The group message says
"match N changed (state, chat or presence), version V"; each socket then reads the
table from the database and renders it for its own viewer, so no hand ever travels
through the channel layer.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.db import connections
from django.utils.html import escape
from django.utils.translation import gettext as _

from accounts.language import ViewerLanguageMixin
from analysis.services import Refused as HintRefused
from analysis.services import hint_for
from games import presence, rendering, services
from games.action_log import log_refused_action
from games.conf import setting
from games.engine import Action
from games.models import Match
from games.move_words import suggest_action
from games.throttle import TokenBucket

logger = logging.getLogger(__name__)

CLOSE_UNAUTHENTICATED = 4401
CLOSE_FORBIDDEN = 4403


def _open_viewer(match_id: int, user: Any, channel_name: str) -> rendering.Viewer | None:
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        return None
    viewer = rendering.viewer_for(match, user)
    if viewer is not None and viewer.seat is not None:
        services.seat_connected(match_id, user, channel_name)
    return viewer


def _collecting_call(function: Any, *args: Any, **kwargs: Any) -> tuple[Any, Any, list[Any]]:
    """(result, refusal, pushes) of a service call whose pushes the caller sends."""
    pushes: list[Any] = []
    try:
        with services.collected_pushes() as pushes:
            try:
                return function(*args, **kwargs), None, pushes
            except services.ActionRefused as refused:
                return None, refused, pushes
    except BaseException:
        # Whatever committed before the failure is still announced.
        for group, message in pushes:
            services.send_push(group, message)
        raise


REFUSAL_KINDS = {
    services.post_chat: "chat",
    services.resign: "resign",
    services.start_next_deal: "rematch",
}


def _hint(match_id: int, user: Any) -> str:
    try:
        return str(hint_for(Match.objects.get(pk=match_id), user))
    finally:
        # Connections are per thread; this worker thread must not keep one open.
        connections.close_all()


class TableConsumer(ViewerLanguageMixin, AsyncWebsocketConsumer):
    """``/ws/games/<id>/``: pushes this viewer's table; receives actions, chat, sync."""

    viewer: rendering.Viewer | None = None

    async def connect(self) -> None:
        user = self.scope.get("user")
        self.match_id = int(self.scope["url_route"]["kwargs"]["match_id"])
        self.group = services.group_name(self.match_id)
        self.sent_version = -1
        self.frames = TokenBucket(*setting("GAMES_FRAME_RATE"))
        self.hints = TokenBucket(*setting("GAMES_HINT_RATE"))
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        self.user = user
        self.viewer = await database_sync_to_async(_open_viewer)(
            self.match_id, user, self.channel_name
        )
        if self.viewer is None:
            await self.close(code=CLOSE_FORBIDDEN)
            return
        await self.channel_layer.group_add(self.group, self.channel_name)
        if self.viewer.seat is not None:
            await self.channel_layer.group_add(presence.server_group(), self.channel_name)
        await self.accept()
        # The ws extension never replays missed messages: every (re)connect gets it all.
        await self.send_state(full=True)

    async def disconnect(self, code: int) -> None:
        if self.viewer is None:
            return
        await self.channel_layer.group_discard(self.group, self.channel_name)
        if self.viewer.seat is not None:
            await self.channel_layer.group_discard(presence.server_group(), self.channel_name)
            await database_sync_to_async(services.seat_disconnected)(
                self.match_id, self.user, self.channel_name
            )

    # ------------------------------------------------------------ incoming

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.viewer is None:
            return
        if text_data is None:
            await self.refuse(_("Send JSON text frames."), "malformed")
            return
        if not self.frames.allow():
            await self.refuse(
                _("You are sending messages too fast; wait a moment."), "rate_limited"
            )
            return
        if len(text_data.encode()) > setting("GAMES_MAX_FRAME"):
            await self.refuse(_("That message is too long."), "oversized")
            return
        try:
            data = json.loads(text_data)
        except ValueError:
            await self.refuse(_("That message is not valid JSON."), "malformed")
            return
        if not isinstance(data, dict):
            await self.refuse(_("That message is not valid JSON."), "malformed")
            return
        handler = {
            "action": self.on_action,
            "chat": self.on_chat,
            "sync": self.on_sync,
            "resign": self.on_resign,
            "rematch": self.on_rematch,
            "hint": self.on_hint,
        }.get(data.get("type"))
        if handler is None:
            await self.refuse(_("Unknown message type."), "unknown")
            return
        if data["type"] == "hint" and not self.hints.allow():
            # Each hint is a bot search of up to a second of CPU.
            await self.refuse(
                _("You are sending messages too fast; wait a moment."), "rate_limited"
            )
            return
        await handler(data)

    async def call(self, function: Any, *args: Any, **kwargs: Any) -> Any:
        """Run a service; a refusal goes back to this socket only.

        The pushes the service commits are sent from here, after it returns.
        """
        result, refused, pushes = await database_sync_to_async(_collecting_call)(
            function, *args, **kwargs
        )
        for group, message in pushes:
            try:
                await self.channel_layer.group_send(group, message)
            except Exception:  # A push is best effort: clients resync on the next version.
                logger.exception("could not push to %s", group)
        if refused is not None:
            if function is not services.apply_action:  # apply_action logs its own refusals
                kind = REFUSAL_KINDS.get(function, function.__name__)
                log_refused_action(
                    self.match_id, self.user.pk, self.viewer.seat, kind, refused.code
                )
            await self.send_error(refused.message, calm=refused.code == "repeated")
        return result

    async def on_action(self, data: dict[str, Any]) -> None:
        await self.call(
            services.apply_action,
            self.match_id,
            self.user,
            data.get("action"),
            version=data.get("version"),
        )

    async def on_chat(self, data: dict[str, Any]) -> None:
        await self.call(services.post_chat, self.match_id, self.user, data.get("text"))

    async def on_sync(self, data: dict[str, Any]) -> None:
        await self.send_state(full=True)

    async def on_resign(self, data: dict[str, Any]) -> None:
        await self.call(services.resign, self.match_id, self.user)

    async def on_rematch(self, data: dict[str, Any]) -> None:
        await self.call(services.start_next_deal, self.match_id, self.user)

    async def on_hint(self, data: dict[str, Any]) -> None:
        if self.viewer.seat is None:
            await self.send_error(_("Spectators get no hints."))
            return
        # The hard bot searches for up to a second: a worker thread, so neither
        # the event loop nor the shared database thread waits for it.
        try:
            action = await sync_to_async(_hint, thread_sensitive=False)(self.match_id, self.user)
        except HintRefused as refused:
            await self.refuse(str(refused), "hint")
            return
        advice = _("Hint: %(advice)s") % {"advice": suggest_action(Action.parse(action))}
        await self.send(
            text_data=f'<div id="table-hint" class="hint" data-action="{escape(action)}">'
            f"{escape(advice)}</div>"
        )

    async def refuse(self, message: str, kind: str) -> None:
        log_refused_action(self.match_id, self.user.pk, self.viewer.seat, kind, kind)
        await self.send_error(message)

    # ------------------------------------------------------------ outgoing

    async def send_error(self, message: str, *, calm: bool = False) -> None:
        html = await database_sync_to_async(rendering.render_error)(
            message, self.sent_version, calm=calm
        )
        await self.send(text_data=html)

    async def send_state(self, *, full: bool = False) -> None:
        version, html = await database_sync_to_async(rendering.render_state)(
            self.match_id, self.viewer, full=full
        )
        self.sent_version = max(self.sent_version, version)
        await self.send(text_data=html)

    async def show_new_language(self) -> None:
        if self.viewer is not None:
            await self.send_state(full=True)

    async def presence_restore(self, event: dict[str, Any]) -> None:
        """This process was taken for dead and its sockets released: record this one again."""
        await database_sync_to_async(services.seat_connected)(
            self.match_id, self.user, self.channel_name
        )

    async def match_changed(self, event: dict[str, Any]) -> None:
        what = event.get("what")
        if what == "chat":
            html = await database_sync_to_async(rendering.render_chat)(self.match_id, self.viewer)
            await self.send(text_data=html)
            return
        version = event.get("version")
        if what == "state" and version is not None and version <= self.sent_version:
            return  # An earlier render already showed this version or a later one.
        await self.send_state(full=version is None)


def _lobby_html() -> str:
    from games.views import render_open_tables

    return render_open_tables()


class LobbyConsumer(ViewerLanguageMixin, AsyncWebsocketConsumer):
    """``/ws/lobby/``: the open-tables list, pushed whenever a table opens or fills."""

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        await self.channel_layer.group_add(services.LOBBY_GROUP, self.channel_name)
        await self.accept()
        await self.send(text_data=await database_sync_to_async(_lobby_html)())

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(services.LOBBY_GROUP, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        # The lobby only listens; any frame just asks for the list again.
        await self.send(text_data=await database_sync_to_async(_lobby_html)())

    async def lobby_changed(self, event: dict[str, Any]) -> None:
        await self.send(text_data=await database_sync_to_async(_lobby_html)())

    async def show_new_language(self) -> None:
        await self.send(text_data=await database_sync_to_async(_lobby_html)())
