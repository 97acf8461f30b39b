"""The policy levels and the greedy baseline behind the common interface.

The search level is in search.py.
"""

from __future__ import annotations

import random

from durak.engine import Action, Knowledge

from . import fast
from .base import Budget, rebuild
from .greedy import greedy_move


class PolicyBot:
    """A bot that applies one of the fast policies to a game rebuilt from its knowledge."""

    def __init__(self, level: str) -> None:
        self.level = level
        self._policy = greedy_move if level == "greedy" else fast.POLICIES[level]

    def choose_action(
        self, knowledge: Knowledge, rng: random.Random, budget: Budget | None = None
    ) -> Action | None:
        g = rebuild(knowledge)
        seat = knowledge.seat
        if fast.decider(g) != seat:
            return None
        acts = fast.legal(g, seat)
        if not acts:
            return None
        if len(acts) == 1:
            return acts[0]
        return self._policy(g, seat, acts, rng)

    def __repr__(self) -> str:
        return f"<{self.level} bot>"
