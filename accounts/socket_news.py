"""News about an account for its open sockets, on every process: a log-out, a new
password, a suspension, a mute.

Once such a change commits, ``account_news`` is sent with the user's id.  The games
app, which keeps a row per open socket (``games.models.OpenSocket``, the sockets'
caps), tells each of the user's sockets by its channel name; each then checks its
sign-in again, as its heartbeat does, and closes (or, when muted, stops chatting) at
once.  The heartbeat's check stays as the backstop for a message the layer lost.

Why channels and not a group per user: the in-memory channel layer of the embedded
site sweeps every group on every message it delivers, and a group per user doubled
the groups, which cost the web process about 2 ms of CPU a move at 150 tables.
"""

from __future__ import annotations

from django.db import transaction
from django.dispatch import Signal

# Sent after the commit of a change to the account of ``user_id``.
account_news = Signal()


def account_changed(user_id: int) -> None:
    """After the commit, tell every open socket of the user to check its sign-in now."""
    transaction.on_commit(lambda: account_news.send(sender=None, user_id=user_id))
