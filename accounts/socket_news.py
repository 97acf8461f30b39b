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

import threading
from typing import Any

from django.contrib.auth import SESSION_KEY, get_user_model
from django.contrib.auth.signals import user_logged_out
from django.db import transaction
from django.db.models.signals import post_delete
from django.dispatch import Signal, receiver
from django.utils import timezone

# Sent after the commit of a change to the account of ``user_id``, with ``message``,
# the channel-layer message each of the user's open sockets gets.
account_news = Signal()


def tell_open_sockets(user_id: int, message: dict[str, Any]) -> None:
    """After the commit, send ``message`` to every open socket of the user."""
    transaction.on_commit(lambda: account_news.send(sender=None, user_id=user_id, message=message))


def account_changed(user_id: int) -> None:
    """After the commit, tell every open socket of the user to check its sign-in now."""
    tell_open_sockets(user_id, {"type": "account.changed"})


# --------------------------------------------------------------- a session ends

# The user whose log-out is ending a session on this thread (told of it once, below).
_logging_out = threading.local()


@receiver(user_logged_out)
def logged_out(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    """A log-out by any page (the site's, the admin's, a suspended user's next
    request): the sockets of the session it ends close at once.

    Django sends this signal before it flushes the session, and news sent then could
    reach a socket (on any process) that still finds the session and stays open.  So
    the session ends here first, and the news follows; ``logout``'s own flush then
    finds nothing left to end.
    """
    if user is None or request is None:
        return
    _logging_out.user_id = user.pk
    try:
        request.session.flush()
    finally:
        _logging_out.user_id = None
    account_changed(user.pk)


@receiver(post_delete, sender="sessions.Session")
def session_deleted(sender: Any, instance: Any, **kwargs: Any) -> None:
    """A live session's row deleted any other way (a log-in over another user's
    session, a new session key, the admin or a shell deleting sessions): its user's
    sockets check their sign-in at once.  Expired rows (``clearsessions``) are passed
    over: their sockets were told when they expired."""
    if instance.expire_date <= timezone.now():
        return
    user_id = instance.get_decoded().get(SESSION_KEY)
    if user_id is None:
        return
    user_id = get_user_model()._meta.pk.to_python(user_id)
    if user_id != getattr(_logging_out, "user_id", None):
        account_changed(user_id)
