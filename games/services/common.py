"""What every service shares: refusals, outcomes, group names, pushes on commit, row locks.

Every change to a table goes through the services; each function owns its
transaction.  The match row holds the engine snapshot of the deal in progress, so
a change loads it (never replays), applies under the row lock and bumps the version.
Viewers are told "match N changed, version V" after the commit; each socket then
renders its own viewer's table, so no hand ever travels in a table-wide message.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from asgiref.sync import async_to_sync
from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.utils.translation import gettext as _

from accounts.notices import suspension_notice
from durak.engine import Game
from games import presence
from games.models import Match, Seat
from games.signals import seats_changed, turn_started
from games.table_sql import socket_channels

logger = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"


class Refused(ValueError):
    """A request the rules or the site's state refuse; nothing was changed. Every
    service refuses with it: a move, a seat, a hint, an analysis, a puzzle answer.

    ``message`` is shown to the person, in their language; ``code`` is for programs
    (the socket's error frame, logs); ``status`` is the HTTP answer of a page.
    """

    def __init__(self, message: str, status: int = 400, *, code: str = "refused") -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.status = status


@dataclass(frozen=True)
class ActionOutcome:
    match_id: int
    version: int
    seq: int
    action: str
    is_over: bool
    # The table as the move committed it (match, seats, engine state), so that the
    # mover's own page can be rendered without reading the table back.  None once
    # the deal is over: what a finished deal sets off is written after the move.
    table: tuple[Match, list[Seat], Game] | None = field(default=None, compare=False, repr=False)


def lobby_user_group(user_id: int) -> str:
    """The channel group of one user's lobby sockets (their seek, friends, invites)."""
    return f"lobby-user-{user_id}"


# --------------------------------------------------------------- pushes


@dataclass(frozen=True)
class Push:
    """One message for some sockets: a channel group's (the lobby's), or the sockets'
    own channels (a table's)."""

    message: dict[str, Any]
    group: str | None = None
    channels: tuple[str, ...] = ()

    async def send(self, layer: Any) -> None:
        """Best effort, as every push, so it never raises: a socket that misses one is
        set right by the next version, its ticker, or its reconnect."""
        if self.group is not None:
            try:
                await layer.group_send(self.group, self.message)
            except Exception:
                logger.exception("could not push %s to %s", self.message["type"], self.group)
        for channel in self.channels:
            # One socket's failure must not keep the message from the others (an
            # account's news closes every socket of a log-out).
            try:
                await layer.send(channel, self.message)
            except ChannelFull:  # a socket gone without closing; its row goes soon
                logger.warning("socket %s is full; %s dropped", channel, self.message["type"])
            except Exception:
                logger.warning("could not send %s to socket %s", self.message["type"], channel)

    def send_now(self) -> None:
        """Send from synchronous code (a view, a worker, the database thread)."""
        layer = get_channel_layer()
        if layer is None:
            return
        try:
            async_to_sync(self.send)(layer)
        except Exception:  # no event loop to send from (``send`` itself never raises)
            logger.exception("could not push %s", self.message["type"])


# SQLite has one writer at a time and makes the others sleep and retry (its busy
# handler), so under load its lock sits idle while waiters sleep.  This process's
# writers queue on a lock of their own instead, which hands over as soon as a commit
# is done; other processes (the workers) still meet SQLite's own wait.
_sqlite_writer = threading.Lock()


@contextmanager
def table_transaction() -> Iterator[None]:
    """``transaction.atomic()`` for a change through the service layer; on SQLite the
    outermost one first waits its turn among this process's writers, and gives it up
    at the commit, before the commit's hooks (its pushes) run."""
    if connection.vendor != "sqlite" or connection.in_atomic_block:
        with transaction.atomic():
            yield
        return
    _sqlite_writer.acquire()
    held = True

    def release() -> None:
        nonlocal held
        if held:
            held = False
            _sqlite_writer.release()

    try:
        with transaction.atomic():
            transaction.on_commit(release)  # the first hook: the pushes run unlocked
            yield
    finally:
        release()


_collecting = threading.local()


@contextmanager
def collected_pushes() -> Iterator[list[Push]]:
    """Within this block (one thread), committed pushes are kept here, not sent.

    A consumer that calls a service from the database thread sends them itself once
    the call returns, on its event loop: the database thread then does not wait for
    the loop to take each push.  Only pushes of committed transactions are kept.
    """
    pushes: list[Push] = []
    outer = getattr(_collecting, "pushes", None)
    _collecting.pushes = pushes
    try:
        yield pushes
    finally:
        _collecting.pushes = outer


def _send_or_collect(push: Push) -> None:
    pushes = getattr(_collecting, "pushes", None)
    if pushes is not None:
        pushes.append(push)
    else:
        push.send_now()


def send_push(group: str, message: dict[str, Any]) -> None:
    """Push ``message`` to a channel group (the lobby's, a user's lobby sockets)."""
    _send_or_collect(Push(message, group=group))


def send_to_channels(channels: Iterable[str], message: dict[str, Any]) -> None:
    """Send ``message`` to each socket's own channel, best effort as every push: a
    socket that misses it is set right by its heartbeat or its reconnect."""
    Push(message, channels=tuple(channels)).send_now()


def table_channels(match_id: int) -> list[str]:
    """The channels of the table's open sockets, as their rows hold them now.

    A table's sockets are reached through their own channels, not a channel group:
    the in-memory layer walks every member of every group each time it delivers a
    message, so with groups each move cost more the more tables were open.  The
    in-memory layer reaches only this process's sockets; elsewhere (a bot worker of
    the embedded site) there is nobody to tell, and a message sent would wait in
    that process's layer until it expired.
    """
    local = isinstance(get_channel_layer(), InMemoryChannelLayer)
    return socket_channels(match_id, presence.server_name() if local else None)


def push_to_table(match_id: int, message: dict[str, Any]) -> None:
    """Send ``message`` to every open socket of the table, on whatever process.

    Called after the commit.  The sockets are read then: a socket whose row is
    written later reads the table itself, after this commit, as it opens.
    """
    _send_or_collect(Push(message, channels=tuple(table_channels(match_id))))


def notify_match_changed(match_id: int, version: int | None = None, *, what: str = "state") -> None:
    """After the commit, tell every socket of the match to re-render (``what``: state/chat/presence).

    The message names the version only; each socket reads the table and renders it
    for its own viewer.
    """
    message = match_changed_message(match_id, version, what=what)
    transaction.on_commit(lambda: push_to_table(match_id, message))


def match_changed_message(
    match_id: int, version: int | None, *, what: str = "state"
) -> dict[str, Any]:
    """The message that tells a match's sockets to re-render."""
    return {"type": "match.changed", "match_id": match_id, "version": version, "what": what}


def notify_seats_changed(user_ids: Iterable[int | None]) -> None:
    """After the commit, tell the apps above (friends' presence) that these players'
    seats changed: a friend just seated shows as playing before their table opens."""
    people = sorted({user_id for user_id in user_ids if user_id})
    if people:
        transaction.on_commit(lambda: seats_changed.send(sender=Match, user_ids=people))


def notify_turn_started(match_id: int, seats: list[Seat], numbers: Iterable[int]) -> None:
    """After the commit, tell the apps above that the turn of the players at seats
    ``numbers`` started while they were away from the table (no socket of theirs open)."""
    starting = set(numbers)
    away = sorted(
        s.user_id
        for s in seats
        if s.number in starting and s.user_id and not s.is_bot and s.disconnected_since
    )
    if away:
        transaction.on_commit(
            lambda: turn_started.send(sender=Match, match_id=match_id, user_ids=away)
        )


def notify_lobby_changed() -> None:
    transaction.on_commit(lambda: send_push(LOBBY_GROUP, {"type": "lobby.changed"}))


# ------------------------------------------------------------ row locks


def lock_match(match_id: int, *, skip_locked: bool = False) -> Match | None:
    qs = Match.objects.select_for_update(
        skip_locked=skip_locked and connection.features.has_select_for_update_skip_locked
    )
    # Not .first(): its ORDER BY is one more clause to compile on every move.
    return next(iter(qs.filter(pk=match_id)), None)


def locked_or_refuse(match: Match | int) -> Match:
    locked = lock_match(match.pk if isinstance(match, Match) else int(match))
    if locked is None:
        raise Refused(_("There is no such table."), code="not_found")
    return locked


def load_seats(match_id: int) -> list[Seat]:
    """The match's seats in order, with their users (pushes render names from them)."""
    return list(Seat.objects.filter(match_id=match_id).select_related("user").order_by("number"))


def load_game(match: Match) -> Game | None:
    """The engine state of the match's current (or last) deal, from its snapshot."""
    return Game.from_snapshot(match.state) if match.state else None


def seat_of(seats: list[Seat], who: Any) -> Seat | None:
    """The seat of a user, a seat row, or (server-side callers) a seat number."""
    if isinstance(who, Seat):
        return next((s for s in seats if s.pk == who.pk), None)
    if isinstance(who, int):  # Server-side callers (bots, timers) name the seat number.
        return seats[who] if 0 <= who < len(seats) else None
    user_id = getattr(who, "pk", None)
    if user_id is None:
        return None
    return next((s for s in seats if s.user_id == user_id), None)


def refuse_suspended(user: Any) -> Any:
    """The user as the database holds it now, unless suspended (or gone).

    Callers may hold a user loaded long ago (a socket keeps the one it opened
    with), so the suspension is read afresh: a moderator's action takes effect on
    the next request, whatever the caller.
    """
    if not getattr(user, "is_authenticated", False):
        raise Refused(_("Log in to play."), code="anonymous")
    current = get_user_model().objects.filter(pk=user.pk, is_active=True).first()
    if current is None:
        raise Refused(_("Log in to play."), code="anonymous")
    refuse_if_suspended(current)
    return current


def refuse_bot_account(user: Any) -> None:
    """A bot account plays through the API only: the site's own ways to a table (the
    table's socket, "Play now", the lobby's tables, a challenge, an arena, the daily
    deal, playing on from a replay) refuse it."""
    if getattr(user, "is_bot", False):
        raise Refused(
            _("This is a bot account: it plays through the API only, not on the site's pages."),
            code="bot_account",
        )


def refuse_if_suspended(current: Any) -> None:
    """Refuse a user just read from the database (with a seat, say) if suspended."""
    if current.is_suspended:
        raise Refused(suspension_notice(current), code="suspended")
