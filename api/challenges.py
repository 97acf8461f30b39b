"""Invites and challenges through the API: challenging a player or a bot account,
answering an invite to a table, and leaving a table before it starts (which
withdraws a challenge).

A challenge on the site is a private table made for a friend and an invite to it
(``matchmaking.challenges``); the account's event stream tells each invite waiting
for an answer (``{"type": "invite", "invite_id": ...}``).  Accepting and declining go
through ``friends.services.answer_invite``, the service behind the site's Join and
Decline buttons, so its refusals are the API's: an invite of someone else (answered
as one that does not exist), one answered already, one whose table no longer waits.

Unlike the site's button, the API seats a bot account: that is how a person plays
one (the site's button refuses it, since a bot account plays through the API only).
A bot account challenges other bot accounts here, and only here (``bot_pool``).

A challenge is made by ``matchmaking.challenges.challenge``, the service behind the
site's Play button by a friend's name, with the rules the body names (read by the
"Play now" form, as a seek's are): the same refusals (not a friend, a block, a flood,
a bot account challenging a person, a guest's rated game); a game between a person
and a bot account is dealt unrated.
"""

from __future__ import annotations

from typing import Annotated, Any

from django.contrib.auth import get_user_model
from django.http import HttpRequest
from django.utils.translation import gettext as _
from ninja import Path, Router, Schema, Status

from api.auth import TokenAuth
from api.errors import ERRORS, ApiError
from api.models import Scope
from api.seeks import valid_wishes
from friends.models import Invite
from friends.services import answer_invite
from games.models import Match, Seat
from games.services import Refused, leave_match
from matchmaking.challenges import challenge

router = Router(tags=["challenges"])
PLAY = TokenAuth(Scope.PLAY)
# An invite's number as the database can hold it: anything else is refused unread.
InviteId = Annotated[int, Path(ge=1, le=2**63 - 1)]
MatchId = Annotated[int, Path(ge=1, le=2**63 - 1)]


class ChallengeIn(Schema):
    username: str
    mode: str | None = None
    deck_size: int | None = None
    speed: str | None = None
    is_rated: bool | None = None


class ChallengeOut(Schema):
    invite_id: int
    match_id: int
    to: str
    seat: int
    game_status: str
    mode: str
    deck_size: int
    turn_seconds: int
    is_rated: bool


class LeftOut(Schema):
    match_id: int
    game_status: str


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


@router.post("/challenges", auth=PLAY, response={201: ChallengeOut, **ERRORS})
def new_challenge(request: HttpRequest, asked: ChallengeIn) -> Status:
    """Challenge a friend (a person or a bot account; a bot account challenges other
    bot accounts only) to a private table for two, you in seat 0, with the rules you
    name; each rule left out is as the site's Play button deals it (your last "Play
    now" wishes, else podkidnoy, 36 cards, normal speed, rated; a person and a bot
    account always play unrated).  They are told on their event stream and answer with
    ``/api/invites/{invite_id}/accept``; the game starts then, and your event stream
    tells it.  Refused with ``not_found`` (no such player), ``not_friend``, ``blocked``,
    ``self``, ``bot_account``, ``rules``, ``guest``, ``rate_limited``, ``suspended``."""
    user = request.auth
    friend = (
        get_user_model().objects.filter(username__iexact=asked.username, is_active=True).first()
    )
    if friend is None:
        raise ApiError(404, "not_found", _("There is no such player."))
    named = {k: v for k, v in asked.dict().items() if k != "username" and v is not None}
    # Read as the "Play now" form reads them; only what the body named overrides.
    cleaned = valid_wishes(user, named)
    match = challenge(user, friend, {k: cleaned[k] for k in named}, through_api=True)
    invite = Invite.objects.get(match=match, to_user=friend)
    return Status(
        201,
        {
            "invite_id": invite.pk,
            "match_id": match.pk,
            "to": friend.username,
            "seat": 0,
            "game_status": match.status,
            "mode": match.engine_rules.mode,
            "deck_size": match.engine_rules.deck_size,
            "turn_seconds": match.turn_seconds,
            "is_rated": match.is_rated,
        },
    )


@router.post("/games/{match_id}/leave", auth=PLAY, response={200: LeftOut, **ERRORS})
def leave_table(request: HttpRequest, match_id: MatchId) -> dict[str, Any]:
    """Leave a table before its game starts, as its page's Leave button does: its
    creator leaving closes it (``game_status`` ``aborted``), which withdraws a challenge
    (accepting its invite is then refused with ``expired``).  Refused with
    ``not_found``, ``not_seated`` or ``started`` (resign instead)."""
    try:
        leave_match(match_id, request.auth)
    except Refused as refused:
        if refused.code == "not_found":  # as the API answers a missing table elsewhere
            raise ApiError(404, refused.code, refused.message) from None
        raise
    status = Match.objects.filter(pk=match_id).values_list("status", flat=True).first()
    return {"match_id": match_id, "game_status": status or Match.Status.ABORTED}
