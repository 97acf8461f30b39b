"""Talking at a table through the API: chat, and the rematch after a game.

``POST /api/games/{id}/chat`` says a line through ``games.services.post_chat``, the
service of the table socket's chat box, so a program's line is a person's: the same
length limit, the same flood limit, the same refusal of a muted or suspended player,
and the same push to every page at the table.  Only a seat of a game in progress
speaks here (a spectator's and the after-game talk are the page's).

``POST /api/games/{id}/rematch`` is the result panel's Rematch button
(``start_next_deal``): it offers a rematch, or accepts the one offered, and the next
game starts once every person seated asked, under the table's lock, so two players
asking at once start one game.  ``POST /api/games/{id}/rematch/decline`` says no
(``decline_rematch``).  The other seats see the offer on their page, their event
stream (``rematch_offered``) and their game stream opened with ``rematch=true``
(``rematch`` lines); the next game is ``game_started`` there, as any game.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.http import HttpRequest
from django.utils.translation import gettext as _
from ninja import Router, Schema, Status

from api.auth import TokenAuth
from api.challenges import MatchId
from api.errors import ERRORS, ApiError
from api.events import wake_event_streams
from api.models import Scope
from api.talk_lines import chat_line
from games import services
from games.models import Match, Seat

router = Router(tags=["play"])
PLAY = TokenAuth(Scope.PLAY)


class ChatIn(Schema):
    text: str | None = None
    phrase: str | None = None  # a quick phrase's key instead of a text


class ChatOut(Schema):
    id: int
    match_id: int
    author: str
    text: str
    phrase: str | None
    channel: str
    time: datetime


class RematchOut(Schema):
    match_id: int
    status: str  # offered, started or declined
    version: int


def seated_at(match_id: int, user: Any) -> Match:
    """The table ``user`` has a seat at; else 404 (``not_found``, ``not_seated``)."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        raise ApiError(404, "not_found", _("There is no such table."))
    if not Seat.objects.filter(match=match, user=user).exists():
        raise ApiError(404, "not_seated", _("You have no seat at this table."))
    return match


@router.post("/games/{match_id}/chat", auth=PLAY, response={201: ChatOut, **ERRORS})
def say_at_table(request: HttpRequest, match_id: MatchId, line: ChatIn) -> Status:
    """Say a line (``text``, or a quick ``phrase``: good_luck, good_game, well_played,
    thanks, oops, one_more) to the players of your game in progress.  Refused with
    ``not_playing``, ``empty``, ``too_long``, ``unprintable``, ``unknown_phrase``,
    ``muted``, ``suspended``, and ``rate`` (429) past the chat's flood limit."""
    match = seated_at(match_id, request.auth)
    if match.status != Match.Status.PLAYING:
        raise ApiError(400, "not_playing", _("No game is in progress at this table."))
    try:
        message = services.post_chat(match.pk, request.auth, line.text, phrase=line.phrase)
    except services.Refused as refused:
        if refused.code == "rate":  # a flood: a program should wait, as after any 429
            raise ApiError(429, refused.code, refused.message) from None
        raise
    return Status(201, chat_line(message))


@router.post("/games/{match_id}/rematch", auth=PLAY, response={200: RematchOut, **ERRORS})
def ask_rematch(request: HttpRequest, match_id: MatchId) -> dict[str, Any]:
    """Offer a rematch once the game is over, or accept the one offered: ``status`` is
    ``offered`` while another person has not asked, ``started`` when the next game was
    dealt (a game stream opened with ``rematch=true`` follows it).  Refused with ``not_over``,
    ``repeated``, ``fixed_deal``, ``suspended``, and the lobby's limit of bot tables."""
    match = seated_at(match_id, request.auth)
    deal = services.start_next_deal(match.pk, by=request.auth)
    if deal is None:
        # The others' event streams look at once (a page's offer is found at their poll).
        others = Seat.objects.filter(match=match, user__isnull=False).exclude(user=request.auth)
        wake_event_streams(sender=Match, user_ids=list(others.values_list("user_id", flat=True)))
    return rematch_answer(match.pk, "offered" if deal is None else "started")


@router.post("/games/{match_id}/rematch/decline", auth=PLAY, response={200: RematchOut, **ERRORS})
def decline_rematch(request: HttpRequest, match_id: MatchId) -> dict[str, Any]:
    """Say no to the rematch another player offered: the offer is off for everyone.
    Refused with ``no_offer``, ``not_over``."""
    match = seated_at(match_id, request.auth)
    return rematch_answer(services.decline_rematch(match.pk, request.auth).pk, "declined")


def rematch_answer(match_id: int, status: str) -> dict[str, Any]:
    version = Match.objects.filter(pk=match_id).values_list("version", flat=True).first()
    return {"match_id": match_id, "status": status, "version": version}
