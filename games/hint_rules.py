"""Whether a table offers hints: the table's own rules and the rules the apps above add
(an arena is a competition: ``arena.receivers``).

An app registers its rule when it loads (``@hint_rule`` in its ``receivers`` module,
imported by its ``AppConfig.ready``), as ``games.seat_rules`` does for seats.  A rule
is ``rule(match) -> str | None``: why no hint may be asked at the table (a message a
person reads), or None.  Every request for a hint (the page's, a socket's) asks
``hint_refusal``, and the table's Hint button the same two parts of it (the rules'
part read once per table: ``games.table_reads.rules_allow_hints``), so the button is
shown exactly where a request is taken.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext as _

HintRule = Callable[[Any], str | None]

_rules: dict[str, HintRule] = {}


def hint_rule(rule: HintRule) -> HintRule:
    """Register ``rule(match)``; registering it again replaces it."""
    _rules[f"{rule.__module__}.{rule.__qualname__}"] = rule
    return rule


def table_refusal(match: Any) -> str | None:
    """Why the table's own settings give no hints (they may change while it waits:
    a bot seated unrates it), in the active language; None when they allow them."""
    if match.is_rated:
        return _("Hints are only available in unrated games.")
    if match.seed:
        # A fixed deal (the daily deal) is compared across everyone who plays it.
        return _("A fixed deal is played without hints: everyone plays it alone.")
    return None


def rules_refusal(match: Any) -> str | None:
    """Why a registered rule gives no hints at ``match``; None when none refuses.  The
    rules look at what is fixed when the table is made (an arena's table)."""
    for rule in _rules.values():
        reason = rule(match)
        if reason:
            return reason
    return None


def hint_refusal(match: Any) -> str | None:
    """Why ``match`` gives no hints, in the active language; None when it gives them."""
    return table_refusal(match) or rules_refusal(match)
