"""Who may take a free seat, beyond the table's own rules: the checks the apps above
add (a block: friends; the table's least reliability: matchmaking).

An app registers its check when it loads (``@seat_check`` in its ``receivers``
module, imported by its ``AppConfig.ready``); ``services.join_match`` runs every
check under the table's lock before it seats the player. A check refuses by raising
``services.Refused`` with the reason; it returns nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

SeatCheck = Callable[[Any, list[Any], Any], None]

_checks: dict[str, SeatCheck] = {}


def seat_check(check: SeatCheck) -> SeatCheck:
    """Register ``check(match, seats, user)``; registering it again replaces it."""
    _checks[f"{check.__module__}.{check.__qualname__}"] = check
    return check


def check_seat(match: Any, seats: list[Any], user: Any) -> None:
    """Run every registered check for ``user`` wanting a seat at the locked ``match``."""
    for check in _checks.values():
        check(match, seats, user)
