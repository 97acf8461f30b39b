"""News about an account for its open sockets, on every process: a log-out, a new
password, a suspension, a mute.

Every socket of a user belongs to the channel group ``account_group(user_id)``.
Once such a change commits, the group is told that the account changed; each of
the user's sockets then checks its sign-in again, as its heartbeat does, and
closes (or, when muted, stops chatting) at once.  The heartbeat's check stays as
the backstop for a message the layer lost.
"""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

logger = logging.getLogger(__name__)


def account_group(user_id: int) -> str:
    """The channel group of one user's open sockets, told when their account changes."""
    return f"account-{user_id}"


def account_changed(user_id: int) -> None:
    """After the commit, tell every open socket of the user to check its sign-in now."""
    transaction.on_commit(lambda: _tell(user_id))


def _tell(user_id: int) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(account_group(user_id), {"type": "account.changed"})
    except Exception:  # The heartbeat's check closes the sockets within a period.
        logger.warning("could not tell user %s's sockets of an account change", user_id)
