"""Invites and challenges through the API: answering an invite to a table.

A challenge on the site is a private table made for a friend and an invite to it
(``matchmaking.challenges``); the account's event stream tells each invite waiting
for an answer (``{"type": "invite", "invite_id": ...}``).  Accepting and declining go
through ``friends.services.answer_invite``, the service behind the site's Join and
Decline buttons, so its refusals are the API's: an invite of someone else (answered
as one that does not exist), one answered already, one whose table no longer waits.

Unlike the site's button, the API seats a bot account: that is how a person plays
one (the site's button refuses it, since a bot account plays through the API only).
"""

from __future__ import annotations

from typing import Annotated, Any

from django.http import HttpRequest
from ninja import Path, Router, Schema

from api.auth import TokenAuth
from api.errors import ERRORS
from api.models import Scope
from friends.services import answer_invite
from games.models import Match, Seat

router = Router(tags=["challenges"])
PLAY = TokenAuth(Scope.PLAY)
# An invite's number as the database can hold it: anything else is refused unread.
InviteId = Annotated[int, Path(ge=1, le=2**63 - 1)]


class InviteAnswerOut(Schema):
    invite_id: int
    match_id: int
    status: str
    seat: int | None
    game_status: str


def _answered(invite: Any, user: Any) -> dict[str, Any]:
    """The invite as answered: the seat taken (accepted) and the table's status now."""
    seat = (
        Seat.objects.filter(match_id=invite.match_id, user=user)
        .values_list("number", flat=True)
        .first()
    )
    game_status = Match.objects.filter(pk=invite.match_id).values_list("status", flat=True).first()
    return {
        "invite_id": invite.pk,
        "match_id": invite.match_id,
        "status": invite.status,
        "seat": seat,
        "game_status": game_status or Match.Status.ABORTED,
    }


@router.post("/invites/{invite_id}/accept", auth=PLAY, response={200: InviteAnswerOut, **ERRORS})
def accept_invite(request: HttpRequest, invite_id: InviteId) -> dict[str, Any]:
    """Accept an invite (a challenge) sent to you: you take a seat at its table, which
    starts once every seat is taken (a challenge's at once); follow it with the game
    stream.  Refused with ``not_found`` (no such invite of yours), ``answered``,
    ``expired`` (its table started or closed), ``full``, ``blocked``, ``suspended``."""
    return _answered(answer_invite(request.auth, invite_id, accept=True), request.auth)


@router.post("/invites/{invite_id}/decline", auth=PLAY, response={200: InviteAnswerOut, **ERRORS})
def decline_invite(request: HttpRequest, invite_id: InviteId) -> dict[str, Any]:
    """Decline an invite sent to you; the inviter hears of it on their open pages.
    Refused with ``not_found`` (no such invite of yours) or ``answered``."""
    return _answered(answer_invite(request.auth, invite_id, accept=False), request.auth)
