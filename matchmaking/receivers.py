"""The table's least reliability, checked when a player takes a seat (games' signal)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ObjectDoesNotExist
from django.dispatch import receiver
from django.utils.translation import gettext as _

from games import signals
from games.services import ActionRefused
from history.reliability import reliability


@receiver(signals.seat_wanted)
def refuse_below_minimum(sender: Any, match: Any, user: Any, **kwargs: Any) -> None:
    """Refuse a player less reliable than the table's creator asked for."""
    try:
        minimum = match.reliability_minimum.minimum
    except ObjectDoesNotExist:
        return
    score = reliability(user)
    if score < minimum:
        raise ActionRefused(
            _("This table asks for a reliability of at least %(minimum)d; yours is %(score)d.")
            % {"minimum": minimum, "score": score},
            code="reliability",
        )
