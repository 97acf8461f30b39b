"""The table socket: one per viewer of a table, ``/ws/games/<id>/``.

It only translates frames into service calls and renders.  A table's push says
"match N changed (state, chat or presence), version V"; each socket then renders
that version of the table for its own viewer, so no hand ever travels through the
channel layer.  The table of a version is read once per process and shared by its
sockets (``table_reads``): the move's own process keeps the table the move
committed, another reads it on the first push.  Each socket remembers what its page
shows and sends only the pieces of the table that changed.

The sign-in is checked at the handshake, on the heartbeat, and whenever the
account changes (``accounts.socket_news``: a log-out, a new password, a
suspension, a mute), not on every frame; the services read what they act on
(a seat's user, a suspension, a mute) under their own locks.
"""

from __future__ import annotations

import asyncio
from typing import Any

from django.utils.translation import gettext as _

from accounts.notices import mute_notice
from analysis import hints
from friends.views import render_friend_arena, render_invite_declined, render_invite_notice
from games import presence, services, table_reads, ticker
from games.action_log import log_refused_action
from games.conf import setting
from games.models import Match
from games.socket_base import (
    CLOSE_FORBIDDEN,
    CLOSE_UNAUTHENTICATED,
    GuardedSocket,
    db_call,
    socket_changed_for,
)
from games.socket_guard import (
    CLOSE_TOO_MANY,
    FrameRefused,
    SignedOut,
    parse_frame,
    signed_in_user,
)
from games.throttle import TokenBucket
from table import rendering


def _open_viewer(
    match_id: int, session_key: str | None, user_id: int, channel_name: str
) -> tuple[Any, rendering.Viewer | None]:
    user = signed_in_user(session_key, user_id)
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        return user, None
    viewer = rendering.viewer_for(match, user)
    if viewer is not None and viewer.seat is not None:
        services.seat_connected(match_id, user, channel_name)
    return user, viewer


def _request_hint(session_key: str | None, user_id: int, match_id: int, channel: str) -> int:
    user = signed_in_user(session_key, user_id)
    return hints.request_hint(match_id, user, channel).pk


def _answered_hint_html(hint_id: int, user_id: int) -> str | None:
    answered = hints.answered_hint(hint_id, user_id)
    return None if answered is None else hints.render_answer(answered)


def _collecting_call(
    function: Any, match_id: int, user: Any, *args: Any, **kwargs: Any
) -> tuple[Any, Any, list[services.Push]]:
    """(result, refusal, pushes) of a service call for the socket's user.

    The table a move committed is kept for the renders of its push in this process.
    """
    pushes: list[services.Push] = []
    try:
        with services.collected_pushes() as pushes:
            try:
                result = function(match_id, user, *args, **kwargs)
            except services.Refused as refused:
                return None, refused, pushes
    except BaseException:
        # Whatever committed before the failure is still announced.
        for push in pushes:
            push.send_now()
        raise
    table = getattr(result, "table", None)
    if table is not None:
        table_reads.remember(table)
    return result, None, pushes


# Reads in flight, per event loop and (match, version): the sockets of a table that
# get the same push in this process wait for one read.
_reading: dict[tuple[Any, int, int], asyncio.Future] = {}


async def table_at(match_id: int, version: int) -> table_reads.Table:
    """The table at ``version`` (or later), read once per process for all its sockets."""
    table = table_reads.recall(match_id, version)
    if table is not None:
        return table
    key = (asyncio.get_running_loop(), match_id, version)
    reading = _reading.get(key)
    if reading is None:
        reading = asyncio.ensure_future(db_call(table_reads.load)(match_id))
        _reading[key] = reading
        reading.add_done_callback(lambda _done: _reading.pop(key, None))
    # One socket closing while it waits must not cancel the others' read.
    return await asyncio.shield(reading)


REFUSAL_KINDS = {
    services.post_chat: "chat",
    services.resign: "resign",
    services.start_next_deal: "rematch",
}


class TableSocket(GuardedSocket):
    """``/ws/games/<id>/``: pushes this viewer's table and answers its frames, one
    ``on_<type>`` handler per frame type (``socket_guard.FRAME_TYPES``): an action,
    chat, sync, resign, rematch and a hint (a bot worker searches it, the answer comes
    back to this socket alone); a friend's invite reaches it too."""

    viewer: rendering.Viewer | None = None
    # The hint this socket asked for and waits for, and the task that looks for it.
    pending_hint: int | None = None
    hint_wait: asyncio.Task | None = None

    async def connect(self) -> None:
        user = self.scope.get("user")
        self.match_id = int(self.scope["url_route"]["kwargs"]["match_id"])
        self.sent_version = -1
        # What this socket's page shows, piece by piece: a push sends only what changed.
        self.shown: dict[str, Any] = {}
        self.frames = TokenBucket(*setting("GAMES_FRAME_RATE"))
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        self.user = user
        try:
            services.refuse_bot_account(user)  # it plays through the API only
        except services.Refused as refused:
            await self.accept()
            await self.send_notice(refused.message)
            await self.close(code=CLOSE_FORBIDDEN)
            return
        if not await self.admit(user.pk, self.match_id):
            await self.accept()
            await self.send_notice(_("You have too many tables open; close one and reload."))
            await self.close(code=CLOSE_TOO_MANY)
            return
        try:
            self.user, self.viewer = await db_call(_open_viewer)(
                self.match_id, self.session_key(), user.pk, self.channel_name
            )
        except SignedOut as out:
            await self.leave()
            await self.close(code=out.code)  # a new socket on an ended session: refused
            return
        if self.viewer is None:
            await self.leave()
            await self.close(code=CLOSE_FORBIDDEN)
            return
        if self.viewer.seat is not None:  # recorded again if this process is taken for dead
            presence.hold(self.channel_name)
        await self.accept()
        # The ws extension never replays missed messages: every (re)connect gets it all.
        await self.send_state(full=True)
        ticker.watch_table(self.match_id, self.channel_name, self.sent_version)
        self.start_heartbeat(user.pk)
        if self.viewer.seat is not None:  # friends see them at a table now
            await db_call(socket_changed_for)(user.pk)

    async def disconnect(self, code: int) -> None:
        if self.hint_wait is not None:
            self.hint_wait.cancel()
        presence.let_go(self.channel_name)
        await self.leave()
        if self.viewer is None:
            return
        ticker.unwatch_table(self.match_id, self.channel_name)
        if self.viewer.seat is not None:
            await db_call(services.seat_disconnected)(self.match_id, self.channel_name)
            await db_call(socket_changed_for)(self.user.pk)
        self.viewer = None

    # ------------------------------------------------------------ incoming

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.viewer is None:
            return
        if not self.frames.allow():
            await self.refuse(
                _("You are sending messages too fast; wait a moment."), "rate_limited"
            )
            return
        try:
            data = parse_frame(text_data)
        except FrameRefused as refused:
            await self.refuse(refused.message, refused.kind)
            return
        handler = getattr(self, f"on_{data['type']}", None)
        if handler is None:
            await self.refuse(_("Unknown message type."), "unknown")
            return
        try:
            await handler(data)
        except SignedOut as out:
            await self.sign_out(out)

    async def call(self, function: Any, *args: Any, **kwargs: Any) -> Any:
        """Run a service for this socket's user; a refusal goes back to this socket
        only.  The pushes the service commits are sent from here: the mover's own
        page comes with its push, as every other socket's does."""
        result, refused, pushes = await db_call(_collecting_call)(
            function, self.match_id, self.user, *args, **kwargs
        )
        for push in pushes:
            await push.send(self.channel_layer)
        if refused is not None:
            if function is not services.apply_action:  # apply_action logs its own refusals
                kind = REFUSAL_KINDS.get(function, function.__name__)
                log_refused_action(
                    self.match_id, self.user.pk, self.viewer.seat, kind, refused.code
                )
            await self.send_error(refused.message, calm=refused.code == "repeated")
        return result

    async def on_action(self, data: dict[str, Any]) -> None:
        await self.call(services.apply_action, data.get("action"), version=data.get("version"))

    async def on_chat(self, data: dict[str, Any]) -> None:
        if self.user.is_muted:  # as last read: a mute's news, or the heartbeat
            await self.refuse(mute_notice(self.user), "chat")
            return
        await self.call(services.post_chat, data.get("text"), phrase=data.get("phrase"))

    async def on_sync(self, data: dict[str, Any]) -> None:
        await self.send_state(full=True)

    async def on_resign(self, data: dict[str, Any]) -> None:
        await self.call(services.resign)

    async def on_rematch(self, data: dict[str, Any]) -> None:
        await self.call(services.start_next_deal)

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
        except services.Refused as refused:
            await self.refuse(str(refused), "hint")
            return
        if self.hint_wait is None or self.hint_wait.done():
            self.hint_wait = asyncio.ensure_future(self.look_for_hint())

    async def refuse(self, message: str, kind: str) -> None:
        log_refused_action(self.match_id, self.user.pk, self.viewer.seat, kind, kind)
        await self.send_error(message)

    # ------------------------------------------------------------ outgoing

    async def send_error(self, message: str, *, calm: bool = False) -> None:
        html = await db_call(rendering.render_error)(message, self.sent_version, calm=calm)
        await self.send(text_data=html)

    async def send_notice(self, message: str) -> None:
        await self.send_error(message)

    async def end_access(self, ended: rendering.AccessEnded) -> None:
        """The viewer may no longer watch: say why and close; no more pushes."""
        await self.send_notice(ended.message)
        self.viewer = None
        await self.close(code=CLOSE_FORBIDDEN)

    async def send_state(self, *, full: bool = False) -> None:
        """The whole page (``full``: a socket that opened or asked to resync, with the
        chat), or what changed of it, as the database holds the table now."""
        try:
            version, html = await db_call(rendering.render_state)(
                self.match_id, self.viewer, full=full, shown=self.shown
            )
        except rendering.AccessEnded as ended:
            await self.end_access(ended)
            return
        self.sent_version = max(self.sent_version, version)
        await self.send(text_data=html)

    async def user_checked(self, user: Any) -> None:
        newly_muted = user.is_muted and not self.user.is_muted
        await super().user_checked(user)
        if newly_muted:
            await self.send_notice(mute_notice(user))

    async def send_table(self, table: table_reads.Table) -> None:
        """What changed of this viewer's page, rendered here from a shared read.

        The read holds everything a render of the pieces needs, so no database call
        (and no thread hop) is made.  A page never goes back to an older version.
        """
        if table[0].version < self.sent_version:
            return
        try:
            version, html = rendering.render_state(
                self.match_id, self.viewer, shown=self.shown, table=table
            )
        except rendering.AccessEnded as ended:
            await self.end_access(ended)
            return
        self.sent_version = version
        await self.send(text_data=html)

    async def show_new_language(self) -> None:
        if self.viewer is not None:
            await self.send_state(full=True)

    async def presence_restore(self, event: dict[str, Any]) -> None:
        """This process was taken for dead and its sockets released: record this one again."""
        await db_call(services.seat_connected)(self.match_id, self.user, self.channel_name)

    async def match_changed(self, event: dict[str, Any]) -> None:
        if self.viewer is None:
            return  # closed for lost access; the close is on its way
        what = event.get("what")
        if what == "chat":
            try:
                html = await db_call(rendering.render_chat)(self.match_id, self.viewer)
            except rendering.AccessEnded as ended:
                await self.end_access(ended)
                return
            await self.send(text_data=html)
            return
        version = event.get("version")
        if version is None:
            await self.send_state(full=True)
            return
        ticker.table_announced(self.match_id, version)
        if what == "state":
            if version <= self.sent_version:
                return  # An earlier render already showed this version or a later one.
            await self.send_table(await table_at(self.match_id, version))
            return
        # A presence change keeps the version: the seats are read again.
        await self.send_table(await db_call(table_reads.load)(self.match_id))

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

    async def invite_received(self, event: dict[str, Any]) -> None:
        """A friend invited this socket's user (sent to each of the user's open sockets
        by ``friends.services``): the page's invite notice."""
        await self.send(text_data=await db_call(render_invite_notice)(self.scope["user"], oob=True))

    async def invite_declined(self, event: dict[str, Any]) -> None:
        """A friend declined this socket's user's invite: a notice says so."""
        notice = await db_call(render_invite_declined)(event["invite"])
        if notice:  # an invite deleted since (its table gone) says nothing
            await self.send(text_data=notice)

    async def friend_arena(self, event: dict[str, Any]) -> None:
        """A friend created a public arena: a notice with its link."""
        await self.send(text_data=render_friend_arena(event))
