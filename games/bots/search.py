"""The ``hard`` level: weighted determinized search plus the exact endgame solver.

The unseen cards are dealt by the weights of ``inference.Inference`` (what each player
took, passed or did not beat), not uniformly. The root actions are compared by
sequential halving with common random numbers: each sampled deal is played out once
after every action still in the race, so the comparison is between actions on the same
cards, not between lucky and unlucky deals; after each round the worse half drops out
and the survivors get more deals. Playouts use the ``medium`` policy for every seat.
A move's budget is counted in playout actions, so that late moves, whose playouts are
short, get more playouts for about the cost of the first move of a deal. Once every
hidden card is in the one opponent's hand (two seats left and an empty talon, or in a
two-player game only the face-up trump left in it) the position is solved exactly.
"""

from __future__ import annotations

import math
import random
import time

from games.engine import Action, Game, Knowledge

from . import endgame, fast
from .base import DEFAULT_BUDGET, Budget, rebuild
from .inference import Inference

# Without a time limit the solver still needs a bound; nodes per playout it may spend.
NODES_PER_ITERATION = 30
MIN_SOLVER_NODES = 500
# Actions in a playout from a two-player deal's first move (medium policy, 36 cards): the
# unit of a move's work budget. Later playouts are shorter, so a move gets more of them,
# up to MAX_STRETCH times the planned count.
OPENING_PLAYOUT_STEPS = 55
MAX_STRETCH = 4


def score(game: Game, seat: int) -> float:
    """1 when ``seat`` is not the fool, 0 when it is, 0.5 for a draw (nobody the fool).

    Valuing a draw like a win would let the search settle for one when it could win.
    """
    result = game.result
    if result is None or result["draw"]:
        return 0.5
    return fast.not_fool(game, seat)


def evaluate(
    knowledge: Knowledge,
    acts: list[Action],
    rng: random.Random,
    budget: Budget,
    start: float | None = None,
) -> tuple[list[int], list[float], list[int]]:
    """Playouts, total rewards and rounds survived per action.

    A reward is ``score`` of the played-out game. ``budget.iterations`` counts playouts
    of a deal's first move (the plan when only seconds are given is
    ``DEFAULT_BUDGET.iterations``); what the move may spend is that many times
    ``OPENING_PLAYOUT_STEPS`` actions, so later moves, whose playouts are shorter, get
    more of them (at most ``MAX_STRETCH`` times as many). ``start`` is when the move's
    clock started (the endgame solver may already have spent part of it).
    """
    deadline = budget.deadline(start)
    planned = budget.iterations or DEFAULT_BUDGET.iterations or 1
    work = planned * OPENING_PLAYOUT_STEPS
    limit = planned
    seat = knowledge.seat
    k = len(acts)
    visits = [0] * k
    total = [0.0] * k
    survived = [0] * k
    inference = Inference.of(knowledge)
    policy = fast.medium_move
    # The policy draws nothing from ``rng``, so a playout's outcome is fixed by its deal
    # and action: a deal sampled again (common once few cards are hidden, when a move
    # gets the most playouts) reuses it instead of playing it out again.
    outcomes: dict[tuple, tuple[float, int]] = {}
    alive = list(range(k))
    rounds = max(1, math.ceil(math.log2(k)))
    spent = 0
    for r in range(rounds):
        n = 0
        at_start = spent
        while True:
            deal = inference.deal(rng)
            key = deal.position_key()
            steps = 0
            for i in alive:
                outcome = outcomes.get((key, i))
                if outcome is None:
                    g = deal.copy()
                    g.apply(acts[i])
                    played = fast.playout(g, policy, rng)
                    outcome = outcomes[key, i] = (score(g, seat), played)
                reward, played = outcome
                steps += played
                visits[i] += 1
                total[i] += reward
            spent += len(alive)
            n += 1
            if not r and n == 1:
                # The first deal shows how long this position's playouts are.
                per_playout = max(1.0, steps / len(alive))
                limit = max(planned, min(planned * MAX_STRETCH, int(work / per_playout)))
            deals = max(1, (limit - at_start) // ((rounds - r) * len(alive)))
            if n >= deals or time.perf_counter() > deadline:
                break
        for i in alive:
            survived[i] += 1
        if time.perf_counter() > deadline or len(alive) == 1:
            break
        # Keep the better half (stable: on a tie the earlier action, the policy's, stays).
        alive.sort(key=lambda i: -total[i] / visits[i])
        alive = sorted(alive[: max(1, (len(alive) + 1) // 2)])
    return visits, total, survived


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
        # The policy's move first: under time pressure it is the one surely kept.
        first = fast.medium_move(g, seat, acts, rng)
        acts = [first] + [a for a in acts if a != first]
        visits, total, survived = evaluate(knowledge, acts, rng, budget, start=start)
        best = max(
            range(len(acts)),
            key=lambda j: (survived[j], total[j] / visits[j] if visits[j] else 0.0, -j),
        )
        return acts[best]

    def _solve(self, g, seat: int, budget: Budget, start: float) -> Action | None:
        if budget.seconds is not None:
            deadline = start + budget.seconds * 0.6
            max_nodes = None
        else:
            deadline = float("inf")
            max_nodes = max(MIN_SOLVER_NODES, NODES_PER_ITERATION * (budget.iterations or 0))
        table = {} if budget.reproducible else None
        out = endgame.solve(g, seat, deadline, max_nodes, table=table)
        if out is None:
            return None
        best, _ = out
        # A lost position: leave it to the sampled search, which keeps the practical
        # chances (the opponent may still go wrong).
        return best
