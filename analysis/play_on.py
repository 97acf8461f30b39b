"""Play on from here: a new unrated table that continues a replay's step against bots.

The new deal starts from the real deal's deck and its real moves up to the step (the
games service stores them as the new deal's first moves), so the player's seat knows
exactly what it knew then, the hidden cards are the real ones, and the new game's
replay and record are the whole game.  A player may play on from their own games and
from public ones; a private game of others is refused like a missing one.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from games import services as games
from games.models import BotLevel, Deal, Match, Seat
from games.services import Refused
from history.replay import timeline_for

from .models import PlayOn

# The bot a played-on position is continued against.
PLAY_ON_BOT = BotLevel.HARD
# The HTTP status of a refusal by the games services, by its code (else 400).
_STATUS = {"suspended": 403, "anonymous": 403, "bot_tables": 429}


def _number(text: Any) -> int | None:
    """A whole number written in plain digits, or None (signs, spaces, floats: None)."""
    if isinstance(text, int) and not isinstance(text, bool):
        return text
    if isinstance(text, str) and text.isascii() and text.isdigit() and len(text) < 10:
        return int(text)
    return None


def may_play_on(user: Any, match: Match, seats: list[Seat]) -> bool:
    """Own games and public ones: a private game is its players' only (staff included)."""
    if not getattr(user, "is_authenticated", False):
        return False
    return not match.is_private or any(s.user_id == user.pk for s in seats)


def default_seat(user: Any, seats: list[Seat], viewed: int | None, to_act: list[int]) -> int:
    """The seat a player continues: the one they view, else their own, else the mover's."""
    if viewed is not None:
        return viewed
    own = next((s.number for s in seats if user.pk and s.user_id == user.pk), None)
    if own is not None:
        return own
    return to_act[0] if to_act else 0


def play_on(
    user: Any,
    match_id: int,
    deal_number: int,
    step_text: Any,
    seat_text: Any,
    address: str = "",
) -> Match:
    """Open the new table for ``user`` (asking from ``address``) at the deal's step;
    Refused (nothing changed) when the game is not theirs to play on, the step or seat
    names no position, the user may not play (suspended), or opens tables too often or
    has too many with bots.  A bot account is refused: it plays through the API only."""
    games.refuse_bot_account(user)
    match = Match.objects.filter(pk=match_id).select_related("variant").first()
    seats = list(Seat.objects.filter(match_id=match_id).order_by("number")) if match else []
    if match is None or not may_play_on(user, match, seats):
        raise Refused(
            _("No such game. You can play on from your own games and from public ones."),
            status=404,
        )
    deal = Deal.objects.filter(match=match, number=deal_number, status=Deal.Status.FINISHED).first()
    if deal is None:
        raise Refused(_("This game has no finished deal to play on from."), status=404)
    timeline = timeline_for(deal)
    step = _number(step_text)
    # The last step is the game's end: there is nothing left to play.
    if step is None or not 0 <= step < timeline.last:
        raise Refused(_("There is no such step to play on from in this game."), status=400)
    position = timeline.game_at(step)
    seat = _number(seat_text) if seat_text not in (None, "") else None
    if seat_text not in (None, "") and (seat is None or not 0 <= seat < timeline.players):
        raise Refused(_("There is no such seat."), status=400)
    seat = default_seat(user, seats, seat, [turn.seat for turn in position.to_act()])
    record = dict(timeline.record, actions=timeline.record["actions"][:step], result=None)
    sources = list(deal.moves.order_by("seq").values_list("source", flat=True)[:step])
    try:
        games.refuse_table_flood(user, address)
    except Refused as refused:
        refused.status = 429
        raise
    with transaction.atomic():
        _end_earlier_tables(user)
        try:
            # Counted after the earlier tables ended; a refusal rolls their ending back.
            games.refuse_bot_table_over_cap(user)
            new = games.create_match_from_position(
                user, match.variant, record, seat, bot_level=PLAY_ON_BOT, sources=sources
            )
        except Refused as refused:
            refused.status = _STATUS.get(refused.code, 400)
            raise
        PlayOn.objects.create(match=new, deal=deal, step=step, seat=seat, user=user)
    return new


def _end_earlier_tables(user: Any) -> None:
    """One played-on table at a time: a new one stops the player's unfinished ones, so
    a player cannot keep many bots thinking at once."""
    earlier = PlayOn.objects.filter(
        user=user, match__status__in=(Match.Status.WAITING, Match.Status.PLAYING)
    ).values_list("match_id", flat=True)
    for match_id in list(earlier):
        games.abort_match(match_id, _("A new game was played on from another position."), user)
