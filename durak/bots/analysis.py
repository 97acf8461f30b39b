"""Post-game analysis: how each decision changed a seat's chance of not being the fool.

For every decision of a seat (a moment with more than one legal action for it), the
position is judged from that seat's Knowledge at that moment, never from the real
deal: two-seat endgames whose hidden cards are all in the opponent's hand (see
``endgame.applicable``) are solved exactly; elsewhere every action
is played out on the same sampled deals (weighted by what the players did in public,
see inference.py) with the ``medium`` policy (common random
numbers, so the differences between actions are not drowned in deal luck).
``before`` is the chance with the best action, ``after`` with the action played, and
``values`` the chance after each legal action.

``chances[step][seat]`` is each seat's chance of not being the fool after ``step``
moves, judged the same way from that seat's own knowledge then (exact once the game is
over); after a judged decision the deciding seat's point is that decision's ``after``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from typing import Any

from durak.engine import Action, Game, Knowledge

from . import endgame, fast
from .base import rebuild
from .inference import Inference

MISTAKE_POINTS = 20.0
ANALYSIS_FORMAT = "durak-analysis/2"


@dataclass(frozen=True)
class AnalysisBudget:
    """Per decision: stop after ``seconds`` or ``samples`` sampled deals (at least 4)."""

    seconds: float = 0.5
    samples: int = 40
    min_samples: int = 4


@dataclass
class Decision:
    move: int
    seat: int
    action: str
    before: float
    after: float
    loss: float
    best: str
    mistake: bool
    exact: bool
    options: int
    samples: int
    values: dict[str, float]


def action_values(
    knowledge: Knowledge,
    acts: list[Action],
    rng: random.Random,
    budget: AnalysisBudget,
) -> tuple[list[float], bool, int]:
    """Chance (0-100) of not being the fool after each action; (values, exact, samples)."""
    seat = knowledge.seat
    start = time.perf_counter()
    g0 = rebuild(knowledge)
    if endgame.applicable(g0):
        values = {}
        for a in acts:
            child = g0.copy()
            child.apply(a)
            if child.is_over or fast.decider(child) is None:
                values[a] = fast.not_fool(child, seat) > 0.5
                continue
            solver = endgame.Solver(seat, start + budget.seconds * 4, None)
            try:
                values[a] = solver.wins(child)
            except endgame.OutOfBudget:
                values = None
                break
        if values is not None:
            return [100.0 if values[a] else 0.0 for a in acts], True, 0
    totals = [0.0] * len(acts)
    inference = Inference.of(knowledge)
    n = 0
    while n < budget.samples and (
        n < budget.min_samples or time.perf_counter() - start < budget.seconds
    ):
        deal = inference.deal(rng)
        for i, a in enumerate(acts):
            g = deal.copy()
            g.apply(a)
            fast.playout(g, fast.medium_move, rng)
            totals[i] += fast.not_fool(g, seat)
        n += 1
    return [100.0 * t / n for t in totals], False, n


def position_value(knowledge: Knowledge, rng: random.Random, budget: AnalysisBudget) -> float:
    """The seat's chance (0-100) of not being the fool from here, by the same means as
    :func:`action_values` (solved two-seat endgames, else medium playouts of sampled deals)."""
    seat = knowledge.seat
    start = time.perf_counter()
    g0 = rebuild(knowledge)
    if g0.is_over or fast.decider(g0) is None:
        return 100.0 * fast.not_fool(g0, seat)
    if endgame.applicable(g0):
        try:
            wins = endgame.Solver(seat, start + budget.seconds * 4, None).wins(g0)
        except endgame.OutOfBudget:
            pass
        else:
            return 100.0 if wins else 0.0
    total = 0.0
    n = 0
    while n < budget.samples and (
        n < budget.min_samples or time.perf_counter() - start < budget.seconds
    ):
        deal = knowledge.determinize(rng)
        fast.playout(deal, fast.medium_move, rng)
        total += fast.not_fool(deal, seat)
        n += 1
    return 100.0 * total / n


def _chances(game: Game, seed: int, budget: AnalysisBudget) -> list[float]:
    if game.is_over:
        return [100.0 * fast.not_fool(game, s) for s in range(game.players)]
    # Every seat is judged after every move, so a step shares half a decision's time
    # among the seats; a position costs one playout per sample where a decision costs
    # one per option, so two seats get twice a decision's samples each (fewer with more
    # seats).  The same seed at every step keeps neighbouring points' sampled deals
    # alike, so the graph shows the moves rather than the sampling noise.
    players = game.players
    wider = AnalysisBudget(
        budget.seconds / (2 * players),
        max(budget.min_samples, 4 * budget.samples // players),
        budget.min_samples,
    )
    return [
        round(position_value(game.knowledge(s), random.Random(seed), wider), 1)
        for s in range(game.players)
    ]


def analyse_record(
    record: dict[str, Any],
    seats: Iterable[int] | None = None,
    budget: AnalysisBudget | None = None,
    progress: Callable[[int, int], None] | None = None,
    seed: int = 0,
) -> dict[str, Any]:
    """Analyse the decisions of ``seats`` (default: every seat) in a game record."""
    budget = budget or AnalysisBudget()
    final = Game.from_record(record)
    actions = final.history
    game = Game.from_record({**record, "actions": [], "result": None})
    n_seats = game.players
    wanted = set(range(n_seats) if seats is None else seats)
    # First pass: which moves are decisions worth judging (more than one option).
    probe = game.copy()
    todo = []
    for i, a in enumerate(actions):
        if a.seat in wanted and a.kind != "resign":
            options = probe.legal_actions(a.seat)
            if len(options) > 1 and a in options:
                todo.append(i)
        probe.apply(a)
    rng = random.Random(seed)
    decisions: list[Decision] = []
    if progress is not None:
        progress(0, len(actions))
    todo_set = set(todo)
    # A position is judged in one sampled pass, a decision in one per option.
    chances = [_chances(game, seed, budget)]
    for i, a in enumerate(actions):
        judged = None
        if i in todo_set:
            judged = _judge(game, i, a, rng, budget)
            decisions.append(judged)
        game.apply(a)
        point = _chances(game, seed, budget)
        if judged is not None and not game.is_over:
            point[judged.seat] = judged.after
        chances.append(point)
        if progress is not None:
            progress(i + 1, len(actions))
    return {
        "format": ANALYSIS_FORMAT,
        "seats": sorted(wanted),
        "result": final.result,
        "threshold": MISTAKE_POINTS,
        "decisions": [asdict(d) for d in decisions],
        "mistakes": sum(d.mistake for d in decisions),
        "chances": chances,
    }


def analyse_game(
    game: Game,
    seat: int,
    budget: AnalysisBudget | None = None,
    progress: Callable[[int, int], None] | None = None,
    seed: int = 0,
) -> dict[str, Any]:
    """Analyse one seat's decisions in a game played from a real deal."""
    return analyse_record(game.to_record(), [seat], budget, progress, seed)


def _judge(
    game: Game, move: int, played: Action, rng: random.Random, budget: AnalysisBudget
) -> Decision:
    seat = played.seat
    knowledge = game.knowledge(seat)
    acts = game.legal_actions(seat)
    values, exact, samples = action_values(knowledge, acts, rng, budget)
    best_i = max(range(len(acts)), key=lambda j: values[j])
    before = values[best_i]
    after = values[acts.index(played)]
    loss = before - after
    return Decision(
        move=move,
        seat=seat,
        action=str(played),
        before=round(before, 1),
        after=round(after, 1),
        loss=round(loss, 1),
        best=str(acts[best_i]),
        mistake=loss >= MISTAKE_POINTS,
        exact=exact,
        options=len(acts),
        samples=samples,
        values={str(x): round(v, 1) for x, v in zip(acts, values, strict=True)},
    )
