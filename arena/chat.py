"""The arena's chat: lines said on the arena's page, sent to its open pages over the
arena socket.  The rules are the table chat's own functions (``games.services.chat``):
the same text check and length limit, mute and rate, so there is one copy of each.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.services import Refused, send_push
from games.services.chat import checked_chat_text, lock_chatter
from games.services.common import refuse_suspended

from .models import Arena, ArenaChatMessage, ArenaPlayer
from .services import arena_group

# Lines a page shows when it opens; later ones arrive over the socket.
SHOWN_LINES = 50


def post_arena_chat(arena_id: Any, user: Any, text: Any) -> ArenaChatMessage:
    """Store ``user``'s line in the arena's chat and send it to the arena's pages.

    Refused, with nothing stored, for a suspended or muted user, a user over the chat
    rate, an empty, unprintable or over-long line, an arena that does not exist, and
    at a private arena anyone who has not joined it.
    """
    refuse_suspended(user)
    text = checked_chat_text(text)
    arena = Arena.objects.filter(pk=arena_id).first() if isinstance(arena_id, int) else None
    if arena is None:
        raise Refused(_("There is no such arena."), code="not_found")
    if arena.is_private and not ArenaPlayer.objects.filter(arena=arena, user=user).exists():
        raise Refused(_("Only the players of this private arena may chat in it."), code="private")
    with transaction.atomic():
        current = lock_chatter(
            user,
            lambda who, since: ArenaChatMessage.objects.filter(user=who, created_at__gte=since),
        )
        message = ArenaChatMessage.objects.create(arena=arena, user=current, text=text)
        line = {"type": "arena.chat", "id": message.pk, "user": current.username, "text": text}
        transaction.on_commit(lambda: send_push(arena_group(arena.pk), line))
    return message


def visible_arena_chat(arena: Arena, limit: int = SHOWN_LINES) -> list[ArenaChatMessage]:
    """The arena's last lines that moderation has not hidden, oldest first."""
    lines = ArenaChatMessage.objects.filter(arena=arena, is_hidden=False).select_related("user")
    return list(reversed(lines.order_by("-created_at", "-pk")[:limit]))


def hide_arena_chat(message_ids: list[int], by: Any) -> int:
    """Moderation: hide lines; pages opened from then on do not show them."""
    return ArenaChatMessage.objects.filter(pk__in=list(message_ids), is_hidden=False).update(
        is_hidden=True, hidden_by=by, hidden_at=timezone.now()
    )
