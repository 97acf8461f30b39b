"""The ``hard`` level: weighted determinized search plus the exact endgame solver.

The unseen cards are dealt by the weights of ``inference.Inference`` (what each player
took, passed or did not beat), not uniformly. The root actions are compared by
sequential halving with common random numbers: each sampled deal is played out once
after every action still in the race, so the comparison is between actions on the same
cards, not between lucky and unlucky deals; after each round the worse half drops out
and the survivors get more deals. An action the leader beats clearly on the deals so
far drops out before its round ends, and its playouts are not spent, so a clear-cut
move costs less than a close one. Playouts use the ``medium`` policy for every seat.
A move's budget is counted in playout actions, so that late moves, whose playouts are
short, get more playouts for about the cost of the first move of a deal. Once every
hidden card is in the one opponent's hand (two seats left and an empty talon, or in a
two-player game only the face-up trump left in it) the position is solved exactly.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import Protocol

from durak.engine import Action, Game, Knowledge

from . import endgame, fast
from .base import DEFAULT_BUDGET, Budget, SearchLimits, rebuild
from .inference import Inference

# Without a time limit the solver still needs a bound; nodes per playout it may spend.
NODES_PER_ITERATION = 30
MIN_SOLVER_NODES = 500
# Actions in a playout from a two-player deal's first move (medium policy, 36 cards): the
# unit of a move's work budget. Later playouts are shorter, so a move gets more of them,
# up to MAX_STRETCH times the planned count.
OPENING_PLAYOUT_STEPS = 55
MAX_STRETCH = 4
# The race (see ``Race``): deals before any action may drop out, and how many standard
# errors the leader's paired lead must reach.
RACE_MIN_DEALS = 16
RACE_Z = 2.5


class Sampler(Protocol):
    """Deals full games that agree with a seat's knowledge."""

    def deal(self, rng: random.Random) -> Game: ...


def score(game: Game, seat: int) -> float:
    """1 when ``seat`` is not the fool, 0 when it is, 0.5 for a draw (nobody the fool).

    Valuing a draw like a win would let the search settle for one when it could win.
    """
    result = game.result
    if result is None or result["draw"]:
        return 0.5
    return fast.not_fool(game, seat)


def gone_out(game: Game, seat: int) -> bool:
    """True when ``seat`` has left a game that goes on without it and can no longer be
    its fool: no team of its own still playing, and no "first out wins" to count."""
    rules = game.rules
    return seat in game.out_order and rules.teams is None and not rules.one_winner


def evaluate(
    knowledge: Knowledge,
    acts: list[Action],
    rng: random.Random,
    budget: Budget,
    limits: SearchLimits | None = None,
    sampler: Sampler | None = None,
) -> tuple[list[int], list[float], list[int]]:
    """Playouts, total rewards and rounds survived per action.

    The deals come from ``sampler`` (by default ``Inference.of(knowledge)``).

    A reward is ``score`` of the played-out game. ``budget.iterations`` counts playouts
    of a deal's first move (the plan when only seconds are given is
    ``DEFAULT_BUDGET.iterations``); what the move may spend is that many times
    ``OPENING_PLAYOUT_STEPS`` actions, so later moves, whose playouts are shorter, get
    more of them (at most ``MAX_STRETCH`` times as many). ``limits`` are the move's
    (the endgame solver may already have spent part of its time), by default the
    budget's from now.

    An action drops out of the race before its round ends once the leader beats it
    clearly on the deals both were played out on (see ``Race``); the playouts it would
    have had are not spent, so a clear-cut move costs less than a close one.
    """
    limits = limits or budget.limits()
    planned = budget.iterations or DEFAULT_BUDGET.iterations or 1
    work = planned * OPENING_PLAYOUT_STEPS
    limit = planned
    seat = knowledge.seat
    k = len(acts)
    visits = [0] * k
    total = [0.0] * k
    survived = [0] * k
    sampler = sampler or Inference.of(knowledge)
    policy = fast.medium_move
    # The policy draws nothing from ``rng``, so a playout's outcome is fixed by its deal
    # and action: a deal sampled again (common once few cards are hidden, when a move
    # gets the most playouts) reuses it instead of playing it out again.
    outcomes: dict[tuple, tuple[float, int]] = {}
    alive = list(range(k))
    race = Race(k)
    rounds = max(1, math.ceil(math.log2(k)))
    out_of_time = False
    for r in range(rounds):
        n = 0
        width = len(alive)
        while True:
            deal = sampler.deal(rng)
            key = deal.position_key()
            steps = 0
            rewards = {}
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
                rewards[i] = reward
            n += 1
            if not r and n == 1:
                # The first deal shows how long this position's playouts are.
                per_playout = max(1.0, steps / len(alive))
                limit = max(planned, min(planned * MAX_STRETCH, int(work / per_playout)))
            race.add(rewards)
            alive = race.survivors(alive, total, visits)
            # Every round gets an equal share of the plan, split among the actions that
            # entered it: what the race saves is not spent.
            deals = max(1, limit // (rounds * width))
            out_of_time = limits.reached()
            if n >= deals or len(alive) == 1 or out_of_time:
                break
        for i in alive:
            survived[i] += 1
        if out_of_time or len(alive) == 1:
            break
        # Keep the better half (stable: on a tie the earlier action, the policy's, stays).
        alive.sort(key=lambda i: -total[i] / visits[i])
        alive = sorted(alive[: max(1, (len(alive) + 1) // 2)])
    return visits, total, survived


class Race:
    """Paired reward differences between the actions still in the race.

    Every action in the race has been played out on every deal drawn so far, so any two
    of them compare on the same deals. Once there are ``RACE_MIN_DEALS`` of them, an
    action whose mean reward is more than ``RACE_Z`` standard errors of the paired
    difference below the leader's is out.
    """

    def __init__(self, k: int) -> None:
        self.deals = 0
        self.squares = [0.0] * k
        # products[i][j], i < j: sum over the deals of reward i times reward j.
        self.products = [[0.0] * k for _ in range(k)]

    def add(self, rewards: dict[int, float]) -> None:
        self.deals += 1
        items = sorted(rewards.items())
        for a, (i, ri) in enumerate(items):
            self.squares[i] += ri * ri
            if ri:
                row = self.products[i]
                for j, rj in items[a + 1 :]:
                    row[j] += ri * rj

    def survivors(self, alive: list[int], total: list[float], visits: list[int]) -> list[int]:
        n = self.deals
        if n < RACE_MIN_DEALS or len(alive) < 2:
            return alive
        leader = max(alive, key=lambda i: (total[i] / visits[i], -i))
        kept = []
        for i in alive:
            if i == leader:
                kept.append(i)
                continue
            # total[] over the race's deals: every action in the race has had them all.
            lead = total[leader] - total[i]
            if lead <= 0:
                kept.append(i)
                continue
            a, b = min(i, leader), max(i, leader)
            squares = self.squares[i] + self.squares[leader] - 2 * self.products[a][b]
            variance = max(0.0, squares / n - (lead / n) ** 2)
            # A lead on every deal alike (variance 0) is as clear as it gets.
            if lead * lead <= RACE_Z * RACE_Z * variance * n:
                kept.append(i)
        return kept


class HardBot:
    """``samplers`` makes the dealer of a move's sampled games from the seat's knowledge.
    The default deals by ``Inference``; a benchmark may deal otherwise, for instance from
    the real game, to see what knowing the hidden cards would be worth.
    """

    level = "hard"

    def __init__(self, samplers: Callable[[Knowledge], Sampler] = Inference.of) -> None:
        self.samplers = samplers

    def choose_action(
        self, knowledge: Knowledge, rng: random.Random, budget: Budget | None = None
    ) -> Action | None:
        budget = budget or DEFAULT_BUDGET
        start = time.perf_counter()
        limits = budget.limits(start)
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
        return self._search(knowledge, acts, rng, budget, limits)

    def _search(
        self,
        knowledge: Knowledge,
        acts: list[Action],
        rng: random.Random,
        budget: Budget,
        limits: SearchLimits,
    ) -> Action:
        """The best of ``acts`` (the policy's move first) by the sampled search."""
        visits, total, survived = evaluate(
            knowledge, acts, rng, budget, limits=limits, sampler=self.samplers(knowledge)
        )
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
