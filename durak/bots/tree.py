"""The ``hard`` level: a search tree over the bot's own decisions, on sampled deals.

Single-observer information set Monte Carlo tree search (Cowling, Powley and Whitehouse,
2012), with the other seats left out of the tree. Each iteration deals a game from the
sampler (by default the weights of ``inference.Inference``) and walks the tree from the
bot's decision now: at each of the bot's own later decisions in that game it picks
among the actions legal there by UCB1 with availability counts (an action counts as
tried only on the deals where it was legal); the other seats play ``medium``, and the
tree does not branch on what they did, so a node stands for the bot's own line of play
whatever the cards dealt. The first new node of an iteration is added and the game is
played out by ``medium`` for every seat; the bot's score of the outcome is backed up
along its own nodes. The move is the root action visited most; the search stops early
once no other root action could catch up with it in the iterations left.

Against the flat search (``search.HardBot``), which plays the bot's later moves by
``medium`` too, the tree plans the bot's own next moves: a lead and the throw-ins that
follow it, a defence card by card. Positions in which every hidden card is in the one
opponent's hand are solved exactly, as there.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass

from durak.engine import Action, Game, Knowledge

from . import fast
from .base import DEFAULT_BUDGET, Budget, SearchLimits
from .search import MAX_STRETCH, OPENING_PLAYOUT_STEPS, HardBot, Sampler, gone_out, score

# UCB1's exploration constant, for rewards in [0, 1].
EXPLORATION = 0.7


class Node:
    """One of the bot's own actions, reached by the line of its actions above it."""

    __slots__ = ("visits", "total", "available", "children")

    def __init__(self) -> None:
        self.visits = 0
        self.total = 0.0  # the bot's scores of the iterations through this node
        self.available = 0  # iterations in which this action was legal at its parent
        self.children: dict[Action, Node] = {}


def search(
    knowledge: Knowledge,
    root_actions: list[Action] | None,
    rng: random.Random,
    budget: Budget,
    sampler: Sampler,
    limits: SearchLimits | None = None,
    seat_totals: SeatTotals | None = None,
) -> Node:
    """The tree of the bot's own lines below its decision now (``root_actions``).

    With ``root_actions`` None the bot's first decision in each deal branches on the
    actions legal there, as every later one does (the judge searches the position after
    each option this way, see ``analysis.option_vectors``). ``seat_totals`` gets every
    seat's share of every iteration's outcome added up, and the bot's share is then its
    reward: the games are played to their end, even past the bot's going out. The root
    node counts every iteration and the bot's reward in it.

    ``budget.iterations`` sets the iterations at a deal's first move; later moves,
    whose playouts are shorter, get as many playout actions, in more iterations (at
    most ``MAX_STRETCH`` times as many), as in the flat search. Whatever the
    playouts' length, the search applies at most ``MAX_STRETCH`` times the work of
    its plan, and it stops when ``limits`` (by default the budget's) are reached.
    """
    limits = limits or budget.limits()
    planned = budget.iterations or DEFAULT_BUDGET.iterations or 1
    work = planned * OPENING_PLAYOUT_STEPS
    most = planned * MAX_STRETCH
    most_work = work * MAX_STRETCH
    max_steps = fast.MAX_PLAYOUT_STEPS
    me = knowledge.seat
    to_the_end = seat_totals is not None
    policy = fast.medium_move
    decider = fast.decider
    # ``medium`` draws no random numbers, so a position played out again ends alike.
    outcomes: dict[tuple, tuple[float, int]] = {}
    root = Node()
    spent = iterations = 0
    log, sqrt = math.log, math.sqrt
    while spent < most_work and (iterations < planned or (spent < work and iterations < most)):
        iterations += 1
        g = sampler.deal(rng)
        node = root
        path: list[Node] = []
        steps = 0
        # Once the bot is out the others' game cannot change its score: it ends there.
        while not g.is_over and steps < max_steps and (to_the_end or not gone_out(g, me)):
            s = decider(g)
            if s is None:
                break
            actions = g.legal_actions(s)
            steps += 1
            if len(actions) == 1:
                g.apply_legal(actions[0])
                continue
            if s != me:
                g.apply_legal(policy(g, s, actions, rng))
                continue
            if node is root and root_actions is not None:
                # The same actions in every deal, with the policy's move first.
                actions = root_actions
            children = node.children
            untried = best = None
            best_value = -1.0
            for a in actions:
                child = children.get(a)
                if child is None:
                    if untried is None:
                        untried = a
                    continue
                child.available += 1
                if untried is None:
                    value = child.total / child.visits + EXPLORATION * sqrt(
                        log(child.available) / child.visits
                    )
                    if value > best_value:
                        best_value, best = value, a
            if untried is not None:
                # A new node: the policy's move if it is new here, else a random new one.
                chosen = policy(g, s, actions, rng)
                if chosen in children:
                    fresh = [a for a in actions if a not in children]
                    chosen = fresh[rng.randrange(len(fresh))]
                child = children[chosen] = Node()
                child.available = 1
                g.apply_legal(chosen)
                path.append(child)
                break
            g.apply_legal(best)
            node = children[best]
            path.append(node)
        if to_the_end:
            shares, played = seat_totals.played_out(g, policy, rng, max_steps - steps, outcomes)
            steps += played
            reward = shares[me]
            seat_totals.add(shares)
        elif g.is_over or steps >= max_steps:
            reward = score(g, me)
        elif gone_out(g, me):
            reward = 1.0
        else:
            key = g.position_key()
            outcome = outcomes.get(key)
            if outcome is None:
                played = fast.playout(g, policy, rng, max_steps - steps)
                outcome = outcomes[key] = (score(g, me), played)
            reward, played = outcome
            steps += played
        spent += steps
        root.visits += 1
        root.total += reward
        for node in path:
            node.visits += 1
            node.total += reward
        if not iterations & 15 and (
            limits.reached() or settled(root, left(iterations, spent, planned, work, most))
        ):
            break
    return root


@dataclass
class SeatTotals:
    """Every seat's share of the outcomes of a search's iterations, added up.

    ``shares`` gives each seat's share of a finished (or cut off) game."""

    shares: Callable[[Game], tuple[float, ...]]
    totals: list[float]

    def add(self, shares: tuple[float, ...]) -> None:
        for seat, share in enumerate(shares):
            self.totals[seat] += share

    def played_out(
        self, g: Game, policy: fast.Policy, rng: random.Random, max_steps: int, outcomes: dict
    ) -> tuple[tuple[float, ...], int]:
        """The shares once ``g`` is played out by ``policy`` (at most ``max_steps``
        actions), and the actions played; a position played out before is read from
        ``outcomes``, since ``medium`` draws no random numbers."""
        if g.is_over or max_steps <= 0:
            return self.shares(g), 0
        key = g.position_key()
        outcome = outcomes.get(key)
        if outcome is None:
            played = fast.playout(g, policy, rng, max_steps)
            outcome = outcomes[key] = (self.shares(g), played)
        return outcome


def left(iterations: int, spent: int, planned: int, work: int, most: int) -> int:
    """The iterations the loop would still run, at the playout length seen so far."""
    if spent >= work:
        by_work = 0
    elif not spent:  # every game so far ended at once (the judge's last moves)
        by_work = most - iterations
    else:
        by_work = math.ceil((work - spent) * iterations / spent)
    return max(planned - iterations, min(most - iterations, by_work))


def settled(root: Node, remaining: int) -> bool:
    """True when the most visited root action stays so whatever ``remaining``
    iterations do: its lead in visits over every other is larger."""
    first = second = 0
    for child in root.children.values():
        if child.visits > first:
            first, second = child.visits, first
        elif child.visits > second:
            second = child.visits
    return first - second > remaining


class TreeBot(HardBot):
    """The flat search's bot (the exact solver where it applies, the policy's move
    first), choosing by the tree; ``samplers`` as for ``HardBot``."""

    def _search(
        self,
        knowledge: Knowledge,
        acts: list[Action],
        rng: random.Random,
        budget: Budget,
        limits: SearchLimits,
    ) -> Action:
        root = search(knowledge, acts, rng, budget, self.samplers(knowledge), limits)
        best, most = acts[0], (-1, 0.0)
        for a in acts:
            child = root.children.get(a)
            if child is not None and child.visits:
                seen = (child.visits, child.total / child.visits)
                if seen > most:
                    best, most = a, seen
        return best
