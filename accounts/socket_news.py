"""News about an account for its open sockets, on every process: a log-out, a new
password, a suspension, a mute, a language switch, a friend's invite.

Once such a change commits, ``account_news`` is sent with the user's id and the
message for the sockets.  The games app, which keeps a row per open socket
(``games.models.OpenSocket``, the sockets' caps), sends the message to each of the
user's sockets by its channel name.  On "account.changed" a socket checks its sign-in
again, as its heartbeat does, and closes (or, when muted, stops chatting) at once; the
heartbeat's check stays as the backstop for a message the layer lost.

Why channels and not a group per user: the in-memory channel layer of the embedded
site sweeps every group on every message it delivers, and a group per user doubled
the groups, which cost the web process about 2 ms of CPU a move at 150 tables.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.dispatch import Signal

# Sent after the commit of a change to the account of ``user_id``, with ``message``,
# the channel-layer message each of the user's open sockets gets.
account_news = Signal()


def tell_open_sockets(user_id: int, message: dict[str, Any]) -> None:
    """After the commit, send ``message`` to every open socket of the user."""
    transaction.on_commit(lambda: account_news.send(sender=None, user_id=user_id, message=message))


def account_changed(user_id: int) -> None:
    """After the commit, tell every open socket of the user to check its sign-in now."""
    tell_open_sockets(user_id, {"type": "account.changed"})
