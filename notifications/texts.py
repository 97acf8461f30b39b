"""What a push says, in its reader's language: a title, a line, and the page it opens."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from arena.models import Arena

TURN = "turn"
INVITE = "invite"
FRIEND_REQUEST = "friend_request"
ARENA = "arena"
KINDS = (TURN, INVITE, FRIEND_REQUEST, ARENA)


@dataclass(frozen=True)
class Notice:
    title: str
    body: str
    url: str
    # Notices with one tag replace each other on the device: one "your turn" per table.
    tag: str
    # How long a push service keeps trying a device that is off: a turn is soon over.
    ttl: int

    def payload(self) -> dict[str, str]:
        return {"title": self.title, "body": self.body, "url": self.url, "tag": self.tag}


def _name(user_id: int | None) -> str:
    found = get_user_model().objects.filter(pk=user_id).only("username").first()
    return found.username if found is not None else "?"


def _arena_name(arena_id: int | None) -> str:
    found = Arena.objects.filter(pk=arena_id).only("name").first()
    return found.name if found is not None else "?"


def notice(
    kind: str,
    language: str,
    *,
    match_id: int | None = None,
    from_user_id: int | None = None,
    arena_id: int | None = None,
) -> Notice:
    """The notice of ``kind`` in ``language``."""
    with translation.override(language or None):
        if kind == TURN:
            return Notice(
                _("Your turn"),
                _("Table #%(table)s is waiting for your move.") % {"table": match_id},
                reverse("table:table", args=[match_id]),
                f"turn-{match_id}",
                ttl=120,
            )
        if kind == INVITE:
            return Notice(
                _("An invitation to a table"),
                _("%(name)s invites you to play.") % {"name": _name(from_user_id)},
                reverse("table:lobby"),
                f"invite-{match_id}",
                ttl=30 * 60,
            )
        if kind == FRIEND_REQUEST:
            return Notice(
                _("A friend request"),
                _("%(name)s wants to be your friend.") % {"name": _name(from_user_id)},
                reverse("table:lobby"),
                f"friend-{from_user_id}",
                ttl=24 * 3600,
            )
        if kind == ARENA:
            return Notice(
                _("A friend's arena"),
                _("%(name)s created the arena “%(arena)s”. Join it!")
                % {"name": _name(from_user_id), "arena": _arena_name(arena_id)},
                reverse("arena:detail", args=[arena_id]),
                f"arena-{arena_id}",
                ttl=3600,  # a player's arena starts within the hour
            )
    raise ValueError(f"no notice of kind {kind!r}")
