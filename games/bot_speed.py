"""How long a bot waits before its move: the table's bots' speed, and its crowd of bots.

A bot's pause stands for a person's thinking, so that its moves can be followed.  At a
big table against many bots that pause adds up: a person waits for every bot between
their turns.  So the pause shrinks with the number of bots that act between two turns
of a person (bots still in the deal per person still in it), and "fast" halves it; it
never drops below a floor that leaves the felt's animations (about 0.4 s) time to play.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class BotSpeed(models.TextChoices):
    """How soon the bots at a table move: the host's choice when making it."""

    NORMAL = "normal", _("Normal")
    FAST = "fast", _("Fast")


# What each speed multiplies the configured pause by.
SPEED_FACTOR = {BotSpeed.NORMAL: 1.0, BotSpeed.FAST: 0.5}


def bots_between_turns(bots_in_deal: int, people_in_deal: int) -> float:
    """How many bots act, on average, between two turns of one person: the bots still in
    the deal per person still in it (at least one; all of them once the people are out)."""
    return max(1.0, bots_in_deal / max(1, people_in_deal))


def scaled_delay(seconds: float, bots_between: float, speed: str, floor: float) -> float:
    """A bot's pause: ``seconds`` (drawn from the configured range) shared out among the
    ``bots_between`` bots and scaled by ``speed``, but not below ``floor`` (nor above
    ``seconds``: a floor over the configured pause, as tests set it, never lengthens it).

    Raises ValueError for a speed that is not a ``BotSpeed``."""
    if speed not in SPEED_FACTOR:
        raise ValueError(f"unknown bots' speed {speed!r}")
    shared = seconds * SPEED_FACTOR[speed] / max(1.0, bots_between)
    return max(shared, min(seconds, floor))
