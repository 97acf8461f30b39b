"""Who else may replay a finished private game: the rules the apps above add (the
daily deal's players see each other's games once they have played it themselves).

An app registers its rule when it loads (``@replay_rule`` in its ``receivers``
module, imported by its ``AppConfig.ready``); ``services.may_replay`` admits a
signed-in user who is not a player there when any rule says yes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

ReplayRule = Callable[[Any, Any], bool]

_rules: dict[str, ReplayRule] = {}


def replay_rule(rule: ReplayRule) -> ReplayRule:
    """Register ``rule(match, user) -> bool``; registering it again replaces it."""
    _rules[f"{rule.__module__}.{rule.__qualname__}"] = rule
    return rule


def admitted_by_a_rule(match: Any, user: Any) -> bool:
    return any(rule(match, user) for rule in _rules.values())
