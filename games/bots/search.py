"""The ``hard`` level: determinized Monte Carlo search plus the exact endgame solver.

Each iteration deals the unseen cards at random from the seat's Knowledge, picks a root
action by UCB1, and plays the game out with the ``medium`` policy for every seat. Once
the position is a two-player endgame with an empty talon it is solved exactly instead.
"""

from __future__ import annotations

import math
import random
import time

from games.engine import Action, Knowledge

from . import endgame, fast
from .base import DEFAULT_BUDGET, Budget, rebuild

EXPLORE = 0.6
# Without a time limit the solver still needs a bound; nodes per rollout it may spend.
NODES_PER_ITERATION = 30
MIN_SOLVER_NODES = 500


def evaluate(
    knowledge: Knowledge,
    acts: list[Action],
    rng: random.Random,
    budget: Budget,
    uniform: bool = False,
    start: float | None = None,
) -> tuple[list[int], list[float]]:
    """Visit counts and total rewards per action (reward: 1 when the seat is not the fool).

    ``uniform`` spreads the rollouts evenly (estimates for every action, for analysis);
    otherwise UCB1 concentrates them on the promising actions. ``start`` is when the
    move's clock started (the endgame solver may already have spent part of it).
    """
    deadline = budget.deadline(start)
    limit = budget.iterations
    if limit is None and budget.seconds is None:
        limit = DEFAULT_ITERATIONS
    seat = knowledge.seat
    k = len(acts)
    visits = [0] * k
    total = [0.0] * k
    policy = fast.medium_move
    it = 0
    while True:
        if limit is not None and it >= limit:
            break
        if it and time.perf_counter() > deadline:
            break
        if uniform or it < k:
            i = it % k
        else:
            log_n = math.log(it)
            best = -1.0
            i = 0
            for j in range(k):
                score = total[j] / visits[j] + EXPLORE * math.sqrt(log_n / visits[j])
                if score > best:
                    best, i = score, j
        g = knowledge.determinize(rng)
        g.apply(acts[i])
        fast.playout(g, policy, rng)
        visits[i] += 1
        total[i] += fast.not_fool(g, seat)
        it += 1
    return visits, total


DEFAULT_ITERATIONS = 400


class HardBot:
    level = "hard"

    def choose_action(
        self, knowledge: Knowledge, rng: random.Random, budget: Budget | None = None
    ) -> Action | None:
        budget = budget or DEFAULT_BUDGET
        start = time.perf_counter()
        g = rebuild(knowledge)
        seat = knowledge.seat
        if fast.decider(g) != seat:
            return None
        acts = fast.legal(g, seat)
        if len(acts) <= 1:
            return acts[0] if acts else None
        if endgame.applicable(g):
            found = self._solve(g, seat, budget, start)
            if found is not None:
                return found
        # The policy's move first: under time pressure it is the one surely visited.
        first = fast.medium_move(g, seat, acts, rng)
        acts = [first] + [a for a in acts if a != first]
        visits, total = evaluate(knowledge, acts, rng, budget, start=start)
        best = max(range(len(acts)), key=lambda j: (visits[j], total[j]))
        return acts[best]

    def _solve(self, g, seat: int, budget: Budget, start: float) -> Action | None:
        if budget.seconds is not None:
            deadline = start + budget.seconds * 0.6
            max_nodes = None
        else:
            deadline = float("inf")
            max_nodes = max(MIN_SOLVER_NODES, NODES_PER_ITERATION * (budget.iterations or 0))
        out = endgame.solve(g, seat, deadline, max_nodes)
        if out is None:
            return None
        best, _ = out
        # A lost position: leave it to the sampled search, which keeps the practical
        # chances (the opponent may still go wrong).
        return best
