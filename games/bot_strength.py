"""The bot levels as a person chooses them: each with its measured strength."""

from __future__ import annotations

from django.utils.formats import number_format
from django.utils.translation import gettext as _

from durak.bots import ELO
from games.models import BotLevel


def bot_choices() -> list[tuple[str, str]]:
    """Bot levels with their measured strength, e.g. "Hard (Elo ~1,950)"."""
    out = []
    for value, label in BotLevel.choices:
        elo = ELO.get(value)
        if elo is None:
            out.append((value, str(label)))
            continue
        out.append(
            (
                value,
                _("%(level)s (Elo ~%(elo)s)")
                % {"level": label, "elo": number_format(elo, force_grouping=True)},
            )
        )
    return out
