"""What matchmaking does on the games app's signals: the table's least reliability,
checked when a player takes a seat, and the pairing of waiting seeks on each tick."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ObjectDoesNotExist
from django.dispatch import receiver
from django.utils.translation import gettext as _

from games import signals
from games.seat_rules import seat_check
from games.services import Refused
from history.reliability import reliability
from matchmaking.guests import refuse_guest_rated
from matchmaking.services import pair_all


@seat_check
def refuse_below_minimum(match: Any, seats: list, user: Any) -> None:
    """Refuse a player less reliable than the table's creator asked for."""
    try:
        minimum = match.reliability_minimum.minimum
    except ObjectDoesNotExist:
        return
    score = reliability(user)
    if score < minimum:
        raise Refused(
            _("This table asks for a reliability of at least %(minimum)d; yours is %(score)d.")
            % {"minimum": minimum, "score": score},
            code="reliability",
        )


@seat_check
def refuse_guest_at_rated_table(match: Any, seats: list, user: Any) -> None:
    """A guest takes no seat at a rated table."""
    refuse_guest_rated(user, match.is_rated)


@receiver(signals.ticked)
def pair_waiting_seeks(sender: Any, **kwargs: Any) -> None:
    """On each tick of a web process's ticker: seat the waiting seeks that now pair."""
    pair_all()
