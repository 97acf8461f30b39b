"""Where each seat sits around the table, and how a seat names its player.

A seat shows an avatar (initials, or a bot's number), a short name that fits beside
it, and a bot's level as a tag of its own, so no count of seats cuts a name or a
level off.  The status line and the move list keep the full name ("Bot 6 (Hard)").
"""

from __future__ import annotations

import zlib
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games.models import Seat

# Where the other seats sit around the oval, in play order starting at the viewer's
# left, for each count of other seats (a table holds up to 8).
PLACES: dict[int, tuple[str, ...]] = {
    0: (),
    1: ("top",),
    2: ("topleft", "topright"),
    3: ("left", "top", "right"),
    4: ("left", "topleft", "topright", "right"),
    5: ("left", "upleft", "top", "upright", "right"),
    6: ("left", "upleft", "topleft", "topright", "upright", "right"),
    7: ("left", "upleft", "topleft", "top", "topright", "upright", "right"),
}
# A longer name is cut here, with an ellipsis; the whole name is the seat's title.
SHORT_NAME_LENGTH = 10
AVATAR_HUES = 8


def places(count: int, *, spectator: bool) -> tuple[str, ...]:
    """The places of ``count`` seats shown around the oval, in play order.

    A spectator has no seat at the bottom, so the first seat takes it.
    """
    if spectator:
        return ("bottom", *PLACES[count - 1]) if count else ()
    return PLACES[count]


def short_name(name: str) -> str:
    return name if len(name) <= SHORT_NAME_LENGTH else name[: SHORT_NAME_LENGTH - 1] + "…"


def seat_label(seat: Seat) -> dict[str, Any]:
    """The avatar, short name, level tag and (a person's) reliability a seat shows."""
    if seat.bot_level:
        return {
            "short_name": _("Bot %(number)d") % {"number": seat.number + 1},
            "initials": str(seat.number + 1),
            "level": seat.get_bot_level_display(),
            "reliability": None,
            "hue": seat.number % AVATAR_HUES,
        }
    if seat.user_id:
        name = seat.user.username
        words = [w for w in name.replace("_", " ").replace(".", " ").split() if w]
        initials = "".join(w[0] for w in words[:2]) or name[:1]
        return {
            "short_name": short_name(name),
            "initials": initials.upper(),
            # A bot account is tagged as a bot is: it is no person, whatever its name.
            "level": pgettext("account badge", "bot") if seat.user.is_bot else "",
            # Kept on the user row by the history app: the table's one read has it.
            "reliability": seat.user.reliability,
            # A stable colour per name: the same player looks alike at every table.
            "hue": zlib.crc32(name.encode()) % AVATAR_HUES,
        }
    return {
        "short_name": _("Free seat"),
        "initials": "",
        "level": "",
        "reliability": None,
        "hue": 0,
    }


def team_legend(seat_rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each team's number and members, for the legend beside the seats."""
    teams: dict[int, list[str]] = {}
    for row in seat_rows:
        if row["team"] is not None:
            teams.setdefault(row["team"], []).append(
                _("You") if row["is_me"] else row["short_name"]
            )
    return [{"team": team, "names": names} for team, names in sorted(teams.items())]
