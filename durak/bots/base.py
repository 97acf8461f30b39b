"""The bot interface: a seat's Knowledge in, one Action out.

A bot never sees a real game. ``legal_for`` and ``decider_of`` work on a game rebuilt
from the Knowledge alone (``Knowledge.determinize`` with a fixed seed): the seat's own
options depend only on its own hand and public facts, so any consistent deal gives the
same list, and nothing hidden can leak into a decision.

Turn convention shared by every level, the search and the tournament: while attack
cards are unbeaten the defender decides and the attackers wait; otherwise the pending
attackers decide one at a time, the principal attacker first. ``choose_action`` returns
``None`` when the seat is only *allowed* to act (an attacker who could throw in before
the defender has answered) and would rather wait for the defender.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from durak.engine import Action, Game, Knowledge

from . import fast


@dataclass(frozen=True)
class Budget:
    """How long a bot may think about one move: wall seconds and/or search iterations."""

    seconds: float | None = None
    iterations: int | None = None
    # True: the search reuses no endgame solved by an earlier search, so that with
    # ``iterations`` alone the move depends on the knowledge and the rng only (a
    # process's shared solver table would let one process finish where another runs
    # out of nodes).
    reproducible: bool = False
    # The CPU a search may spend whatever the rest says: a position whose playouts are
    # long (seven players taking each other's cards round and round) stops here.
    cpu_seconds: float = 3.0
    # Asked every ``STOP_POLL_SECONDS`` of a search: True drops it (the turn was played
    # meanwhile, or the table ended). What the search found so far is still returned.
    stop: Callable[[], bool] | None = field(default=None, compare=False)

    def deadline(self, start: float | None = None) -> float:
        if self.seconds is None:
            return float("inf")
        return (time.perf_counter() if start is None else start) + self.seconds

    def limits(self, start: float | None = None) -> SearchLimits:
        """The stopping rules of one search that started at ``start`` (wall clock)."""
        return SearchLimits(self, start)


STOP_POLL_SECONDS = 0.2


class SearchLimits:
    """When one search must stop: its wall deadline, its CPU cap or its caller's word.

    The CPU is the calling thread's, counted from when the limits were made, so a
    search on a loaded machine keeps its strength (it answers later) but never runs on.
    """

    def __init__(self, budget: Budget, start: float | None = None) -> None:
        self.deadline = budget.deadline(start)
        self.cpu_deadline = time.thread_time() + budget.cpu_seconds
        self.stop = budget.stop
        self.next_poll = time.perf_counter() + STOP_POLL_SECONDS

    def reached(self) -> bool:
        now = time.perf_counter()
        if now > self.deadline or time.thread_time() > self.cpu_deadline:
            return True
        if self.stop is not None and now >= self.next_poll:
            self.next_poll = now + STOP_POLL_SECONDS
            return self.stop()
        return False


# The hard search's budget in playouts (the tree's iterations) at a deal's first move
# (later moves spend as many playout actions, in more and shorter playouts), and a
# wall-time cap so that a loaded machine still answers in time. Its CPU a move is in
# docs/performance.md.
HARD_PLAYOUTS = 600
DEFAULT_BUDGET = Budget(seconds=0.5, iterations=HARD_PLAYOUTS)


class Bot(Protocol):
    level: str

    def choose_action(
        self, knowledge: Knowledge, rng: random.Random, budget: Budget | None = None
    ) -> Action | None: ...


def rebuild(knowledge: Knowledge) -> Game:
    """A game consistent with ``knowledge``; only the seat's own view of it is meaningful."""
    return knowledge.determinize(random.Random(0))


def legal_for(knowledge: Knowledge) -> list[Action]:
    """The seat's legal actions now, computed from what the seat knows."""
    seat = knowledge.seat
    return rebuild(knowledge).legal_actions(seat)


def decider_of(knowledge: Knowledge) -> int | None:
    """Whose decision it is under the turn convention (None when the game is over)."""
    return fast.decider(rebuild(knowledge))


def should_wait(game: Game, seat: int) -> bool:
    """True when ``seat`` may act but the convention says it waits for someone else."""
    return fast.decider(game) != seat
