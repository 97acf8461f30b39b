"""A seat's own turn time, where an app above gives it one (an arena's berserk halves
the berserker's): the table's clock asks here instead of reading ``turn_seconds``.

An app registers its rule when it loads (``@turn_time_rule`` in its ``receivers``
module, imported by its ``AppConfig.ready``), as ``games.seat_rules`` does for
seats.  A rule is ``rule(match) -> {seat number: seconds}`` for the seats whose
time differs from the match's; the shortest time a rule gives a seat is the seat's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

TurnTimeRule = Callable[[Any], dict[int, int]]

_rules: dict[str, TurnTimeRule] = {}


def turn_time_rule(rule: TurnTimeRule) -> TurnTimeRule:
    """Register ``rule(match)``; registering it again replaces it."""
    _rules[f"{rule.__module__}.{rule.__qualname__}"] = rule
    return rule


def seat_turn_seconds(match: Any) -> dict[int, int]:
    """The seats of ``match`` whose turn time is not the match's, with their seconds."""
    seconds: dict[int, int] = {}
    for rule in _rules.values():
        for number, value in rule(match).items():
            seconds[number] = min(value, seconds.get(number, value))
    return seconds
