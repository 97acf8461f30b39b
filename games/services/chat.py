"""Table chat: players' and spectators' channels, and moderation's hiding."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.notices import mute_notice
from games.conf import setting
from games.models import ChatMessage, Match, Seat
from games.services.common import Refused, notify_match_changed, refuse_suspended, table_transaction

# Control characters (NUL and the like) and lone surrogates: nothing a person types,
# and PostgreSQL refuses to store some of them.
UNPRINTABLE = {"Cc", "Cs"}


def post_chat(match_id: int, user: Any, text: Any, phrase: Any = None) -> ChatMessage:
    """Store a chat line: players' channel for seated users, spectators' otherwise.

    A line is the user's ``text``, or one of the quick phrases (``phrase``, its key).
    """
    refuse_suspended(user)
    if phrase is not None:
        if not isinstance(phrase, str) or phrase not in ChatMessage.Phrase.values:
            raise Refused(_("There is no such quick phrase."), code="unknown_phrase")
        text = ""
    else:
        text = checked_chat_text(text)
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        raise Refused(_("There is no such table."), code="not_found")
    seated = Seat.objects.filter(match=match, user=user).exists()
    if not seated and match.is_private:
        raise Refused(_("You cannot chat at this table."), code="private")
    with table_transaction():
        current = lock_chatter(
            user, lambda who, since: ChatMessage.objects.filter(user=who, created_at__gte=since)
        )
        channel = ChatMessage.Channel.PLAYERS if seated else ChatMessage.Channel.SPECTATORS
        message = ChatMessage.objects.create(
            match=match, user=current, channel=channel, text=text, phrase=phrase or ""
        )
        notify_match_changed(match.pk, match.version, what="chat")
    return message


def lock_chatter(user: Any, lines_since: Callable[[Any, datetime], Any]) -> Any:
    """The chatting ``user`` as stored, their row locked; Refused for a muted user or one
    over the chat rate (``GAMES_CHAT_RATE``) in the chat at hand, whose lines of a user
    since a moment ``lines_since`` gives (a queryset).  Call inside a transaction.

    The row lock makes count-then-insert one step: parallel sockets of one user queue
    here instead of all counting the same few messages.  Every chat of the site (the
    table's, the arena's) asks here, so the rules are one.
    """
    count, seconds = setting("GAMES_CHAT_RATE")
    current = get_user_model().objects.select_for_update().get(pk=user.pk)
    if current.is_muted:
        raise Refused(mute_notice(current), code="muted")
    if lines_since(current, timezone.now() - timedelta(seconds=seconds)).count() >= count:
        raise Refused(_("You are sending messages too fast; wait a moment."), code="rate")
    return current


def checked_chat_text(text: Any) -> str:
    """A person's chat text with its spaces tidied, or Refused saying what is wrong."""
    if not isinstance(text, str) or not text.strip():
        raise Refused(_("Write a message first."), code="empty")
    text = " ".join(text.split())
    if any(unicodedata.category(char) in UNPRINTABLE for char in text):
        raise Refused(_("That message holds characters that cannot be shown."), code="unprintable")
    limit = setting("GAMES_CHAT_MAX_LENGTH")
    if len(text) > limit:
        raise Refused(
            _("A message may hold at most %(limit)d characters.") % {"limit": limit},
            code="too_long",
        )
    return text


def readable_chat(match_id: int, status: str, *, seated: bool) -> QuerySet[ChatMessage]:
    """The lines a viewer of a table in ``status`` may read, hidden ones never: players
    see the spectators' channel once the game ends."""
    qs = ChatMessage.objects.filter(match_id=match_id, is_hidden=False).select_related("user")
    if seated and status == Match.Status.PLAYING:
        qs = qs.filter(channel=ChatMessage.Channel.PLAYERS)
    return qs


def visible_chat(match: Match, *, seated: bool, limit: int = 50) -> list[ChatMessage]:
    """The last ``limit`` lines a viewer may read, oldest first."""
    qs = readable_chat(match.pk, match.status, seated=seated)
    return list(reversed(qs.order_by("-created_at", "-pk")[:limit]))


def hide_chat_messages(message_ids: Sequence[int], by: Any) -> int:
    """Moderation: hide messages; open tables drop them at once."""
    now = timezone.now()
    with table_transaction():
        qs = ChatMessage.objects.filter(pk__in=list(message_ids), is_hidden=False)
        match_ids = set(qs.values_list("match_id", flat=True))
        hidden = qs.update(is_hidden=True, hidden_by=by, hidden_at=now)
        for match_id in match_ids:
            notify_match_changed(match_id, None, what="chat")
    return hidden
