"""What the API's streams tell of a table besides its state: its chat and its rematch.

A seat's game stream (``api.stream``) tells each chat line the seat may read (the
page's own rule, ``games.services.chat.readable_chat``: never a line moderation hid,
the spectators' lines only once the game is over) as a ``chat`` line, a line hidden
after it was told as ``chat_hidden``, and who asks for a rematch as a ``rematch``
line each time that changes.  The account's event stream (``api.events``) tells each
rematch another player offers it (``rematch_offered``).  The database stays the one
source of truth: each look compares it with what was told.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from games.models import ChatMessage, Match, Seat
from games.services.chat import readable_chat

# The chat lines a stream tells on opening (the page shows as many), and the lines it
# keeps watching for moderation's hiding.
CHAT_BACKLOG = 50


def chat_line(message: ChatMessage) -> dict[str, Any]:
    return {
        "type": "chat",
        "id": message.pk,
        "match_id": message.match_id,
        "author": message.user.username,
        "text": message.words,
        # A quick phrase's key (its text is in the stream's language): None for a text.
        "phrase": message.phrase or None,
        "channel": message.channel,
        "time": message.created_at.isoformat(),
    }


def rematch_askers(match_id: int) -> list[dict[str, Any]]:
    rows = Seat.objects.filter(match_id=match_id, wants_rematch=True, user__isnull=False)
    return [
        {"seat": number, "username": username}
        for number, username in rows.order_by("number").values_list("number", "user__username")
    ]


class TableTalk:
    """The chat and rematch lines of one seat's stream, told once each."""

    def __init__(self, match_id: int) -> None:
        self.match_id = match_id
        self.last_chat = 0  # the newest line told
        self.read_as: str | None = None  # the table's status at the last look
        self.told: deque[int] = deque(maxlen=CHAT_BACKLOG)
        self.asked: list[dict[str, Any]] = []
        self.can_play_on: bool | None = None  # read once the game is over

    def chat(self, status: str) -> list[dict[str, Any]]:
        """The lines said since the last look (the last CHAT_BACKLOG at the first, and
        again once the game is over: the spectators' lines become readable then, older
        ones too), and the told lines moderation has hidden since."""
        readable = readable_chat(self.match_id, status, seated=True)
        widened = self.read_as == Match.Status.PLAYING and status != Match.Status.PLAYING
        self.read_as = status
        if self.last_chat and not widened:
            new = list(readable.filter(pk__gt=self.last_chat).order_by("pk"))
        else:
            backlog = reversed(readable.order_by("-pk")[:CHAT_BACKLOG])
            new = [message for message in backlog if message.pk not in self.told]
        lines: list[dict[str, Any]] = []
        if self.told:
            hidden = ChatMessage.objects.filter(pk__in=list(self.told), is_hidden=True)
            for message_id in sorted(hidden.values_list("pk", flat=True)):
                self.told.remove(message_id)
                lines.append({"type": "chat_hidden", "id": message_id, "match_id": self.match_id})
        for message in new:
            self.told.append(message.pk)
            self.last_chat = max(self.last_chat, message.pk)
            lines.append(chat_line(message))
        return lines

    def rematch(self, status: str) -> list[dict[str, Any]]:
        """A ``rematch`` line when who asks for one changed (an empty ``asked``: the
        offer is off, declined or withdrawn); none while a game is played."""
        if status != Match.Status.FINISHED:
            self.asked = []
            return []
        if self.can_play_on is None:
            # A fixed deal (a seed) is played once: it has no rematch.
            seed = Match.objects.filter(pk=self.match_id).values_list("seed", flat=True).first()
            self.can_play_on = not seed
        asked = rematch_askers(self.match_id)
        if asked == self.asked:
            return []
        self.asked = asked
        return [{"type": "rematch", "match_id": self.match_id, "asked": asked}]


def rematch_offers(user_id: int) -> list[dict[str, Any]]:
    """The rematches other players ask the account for, at tables whose game is over
    and where it has not asked itself: a line for each."""
    waiting = Seat.objects.filter(
        user_id=user_id,
        wants_rematch=False,
        match__status=Match.Status.FINISHED,
        match__seats__wants_rematch=True,
    ).values_list("match_id", flat=True)
    match_ids = sorted(set(waiting))
    if not match_ids:
        return []
    askers: dict[int, list[str]] = {match_id: [] for match_id in match_ids}
    rows = (
        Seat.objects.filter(match_id__in=match_ids, wants_rematch=True, user__isnull=False)
        .exclude(user_id=user_id)
        .order_by("match_id", "number")
        .values_list("match_id", "user__username")
    )
    for match_id, username in rows:
        askers[match_id].append(username)
    return [
        {"type": "rematch_offered", "match_id": match_id, "by": names}
        for match_id, names in askers.items()
        if names
    ]
