"""Post-game analysis: every seat's chance of not being the fool at every step, and how
each decision changed the deciding seat's.

A step is judged from the knowledge of the seat that made the next move, never from the
real deal. Its options (every legal action when it had a choice, else the move made) are
valued by the judge on the same sampled deals:

- two seats left and every hidden card in the opponent's hand (``endgame.applicable``):
  solved exactly;
- otherwise the unseen cards are dealt by ``inference.Inference`` and, after each option,
  the seat searches on with the hard bot's own tree (``tree.search``): its later
  decisions are planned, the others play ``medium``. Every option is searched on the same
  sequence of deals (common random numbers), so the differences between options are not
  drowned in deal luck, and each option gets as many iterations as the hard bot spends on
  a whole move (``AnalysisBudget.samples``, stretched as the hard bot's are), so the
  judge is never weaker than the hard bot it judges. With many options they are raced:
  those far behind after a quarter of the samples keep that rougher value, while the
  move made and every option that may be the best get all of them.

Each option's value is a vector: every seat's share of the outcomes of those iterations
(``shares``), so the seats' chances at a step always add up to (players - 1) x 100. The
step's point on the graph, ``chances[step]``, is the vector of the best option for the
mover (of the move made, when it had no choice). A decision stores the mover's value of
every option (``values``), the best (``before``, which is the mover's point at the step)
and the one played (``after``).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from typing import Any

from durak.engine import Action, Game, Knowledge

from . import endgame, fast, tree
from .base import Budget, rebuild
from .inference import Inference

MISTAKE_POINTS = 20.0
# The exact solver's work for all the options of one step, in positions searched: over
# three times the hard bot's at its live budget, enough for 98% of the two-seat endgames
# solved with four seconds a step in games of hard against medium and hard, and about a
# second of CPU where it gives up (the sampled search then values the step).  A count,
# not a time, so that a game is judged alike on a fast machine and a slow one.
SOLVER_NODES = 60_000
ANALYSIS_FORMAT = "durak-analysis/4"
# The judge's chances are those of its own best play against the medium policy, and the
# site's players go wrong more often than that: positions it gave 85% were won about 60%
# of the time, and won endgames were lost now and then.  So for two players a chance p
# is shown as sigmoid(CALIBRATION_SLOPE x logit(p)), p taken within CALIBRATION_EDGE of
# 0 and 1, the slope fitted on real outcomes (benchmarks/review_calibration.py,
# docs/analysis.md).  The map is symmetric about 50, so two seats' chances still add up
# to 100, and increasing, so the best option stays the best.  Larger tables, with no
# games to fit, show the judge's own chances.
CALIBRATION_SLOPE = 0.5
CALIBRATION_EDGE = 0.01


@dataclass(frozen=True)
class AnalysisBudget:
    """Per option of a step: ``samples`` sampled deals, one search iteration each, as
    the hard bot's budget is counted (``Budget.iterations``); at most ``seconds`` of
    wall time for all the options of a step."""

    seconds: float = 2.0
    samples: int = 200


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


def shares(game: Game) -> tuple[float, ...]:
    """Every seat's share of a game's outcome (1 not the fool, 0 the fool), such that
    the shares of a game without teams or a single winner add up to players - 1: a draw
    (nobody the fool) or a game cut off gives every seat (players - 1) / players."""
    players = game.players
    rules = game.rules
    plain = rules.teams is None and not rules.one_winner
    result = game.outcome
    if result is None or (plain and result["draw"]):
        even = (players - 1) / players if plain else 0.5
        return (even,) * players
    return tuple(fast.not_fool(game, seat) for seat in range(players))


def calibrated(vector: list[float]) -> list[float]:
    """Two seats' chances (points) as they are shown (see ``CALIBRATION_SLOPE``); the
    chances of more seats as they are."""
    if len(vector) != 2:
        return vector
    p = min(max(vector[0] / 100.0, CALIBRATION_EDGE), 1.0 - CALIBRATION_EDGE)
    shown = 100.0 / (1.0 + math.exp(-CALIBRATION_SLOPE * math.log(p / (1.0 - p))))
    return [shown, 100.0 - shown]


def whole_points(vector: list[float]) -> list[float]:
    """``vector`` rounded to whole points that add up to its own sum rounded (largest
    remainders first, then the earlier seat), so that two players' chances shown
    as whole percentages still add up to 100."""
    floors = [float(int(value)) for value in vector]
    short = round(sum(vector)) - int(sum(floors))
    by_remainder = sorted(range(len(vector)), key=lambda i: (floors[i] - vector[i], i))
    for i in by_remainder[:short]:
        floors[i] += 1.0
    return floors


class AfterAction:
    """Deals consistent with a seat's knowledge, with ``action`` applied, drawn from an
    rng of their own: searches given the same seed see the same deals."""

    def __init__(self, sampler: Inference, action: Action, seed: int) -> None:
        self.sampler = sampler
        self.action = action
        self.rng = random.Random(seed)

    def deal(self, rng: random.Random) -> Game:
        game = self.sampler.deal(self.rng)
        game.apply(self.action)
        return game


def _solved(knowledge: Knowledge, acts: list[Action], deadline: float) -> list[list[float]] | None:
    """Exact vectors of every option when the position is a solvable two-seat endgame
    of plain rules; None otherwise or when the solver runs out of nodes or time."""
    g0 = rebuild(knowledge)
    if not endgame.applicable(g0) or g0.rules.teams is not None or g0.rules.one_winner:
        return None
    seat = knowledge.seat
    (other,) = [s for s in range(g0.players) if s not in g0.out_order and s != seat]
    solver = endgame.Solver(seat, deadline, SOLVER_NODES)
    vectors = []
    for action in acts:
        child = g0.copy()
        child.apply(action)
        if child.is_over:
            vectors.append([100.0 * share for share in shares(child)])
            continue
        try:
            wins = solver.wins(child)
        except endgame.OutOfBudget:
            return None
        vector = [100.0] * g0.players  # the seats already out are not the fool
        vector[seat], vector[other] = (100.0, 0.0) if wins else (0.0, 100.0)
        vectors.append(vector)
    return vectors


# Racing the options of a decision: when it has at least RACE_FROM options, each is
# first searched on a quarter of the samples, and only the one played and those within
# RACE_MARGIN points of the leader for the mover are searched on all of them. The others
# keep their first, rougher values: they are neither the best nor the move judged, so a
# verdict (the loss of the move played against the best) is as precise as with every
# option searched whole, at about two thirds of the cost (docs/analysis.md).
RACE_FROM = 4
RACE_FIRST_SHARE = 4
RACE_MARGIN = 10.0


def option_vectors(
    knowledge: Knowledge,
    acts: list[Action],
    seed: int,
    budget: AnalysisBudget,
    played: int | None = None,
) -> tuple[list[list[float]], bool, int]:
    """Every seat's chance (0-100) after each of ``acts``: (vectors, exact, the deals
    of the options searched on all samples). ``acts[played]``, the move made, is never
    left with a rough value."""
    start = time.perf_counter()
    solved = _solved(knowledge, acts, start + budget.seconds)
    if solved is not None:
        return solved, True, 0
    sampler = Inference.of(knowledge)
    players = len(knowledge.hand_counts)
    seat = knowledge.seat

    def searched(action: Action, samples: int, seconds: float) -> tuple[list[float], int]:
        totals = tree.SeatTotals(shares, [0.0] * players)
        root = tree.search(
            knowledge,
            None,
            random.Random(seed + 1),
            Budget(seconds=seconds, iterations=samples),
            AfterAction(sampler, action, seed),
            seat_totals=totals,
        )
        return [100.0 * total / root.visits for total in totals.totals], root.visits

    whole: list[int] = list(range(len(acts)))
    seconds = budget.seconds  # at most, for all the options' searches
    if len(acts) >= RACE_FROM:
        first_seconds = budget.seconds / RACE_FIRST_SHARE / len(acts)
        seconds -= budget.seconds / RACE_FIRST_SHARE
        rough = [searched(a, budget.samples // RACE_FIRST_SHARE, first_seconds) for a in acts]
        lead = max(vector[seat] for vector, _ in rough)
        whole = [
            i
            for i, (vector, _) in enumerate(rough)
            if i == played or vector[seat] >= lead - RACE_MARGIN
        ]
        results = dict(enumerate(rough))
    else:
        results = {}
    done: set[int] = set()
    while whole:
        for i in whole:
            results[i] = searched(acts[i], budget.samples, seconds / len(whole))
            done.add(i)
        # A rough value may still top the whole ones: then it is searched whole too, so
        # that the best option is never a rough one.
        top = max(results[i][0][seat] for i in done)
        whole = [i for i in results if i not in done and results[i][0][seat] >= top]
    vectors = [results[i][0] for i in range(len(acts))]
    return vectors, False, min(results[i][1] for i in done)


def analyse_record(
    record: dict[str, Any],
    seats: Iterable[int] | None = None,
    budget: AnalysisBudget | None = None,
    progress: Callable[[int, int], None] | None = None,
    seed: int = 0,
) -> dict[str, Any]:
    """Analyse a game record: the chances at every step, and the decisions of ``seats``
    (default: every seat)."""
    budget = budget or AnalysisBudget()
    final = Game.from_record(record)
    actions = final.history
    game = Game.from_record({**record, "actions": [], "result": None})
    wanted = set(range(game.players) if seats is None else seats)
    decisions: list[Decision] = []
    chances: list[list[float]] = []
    if progress is not None:
        progress(0, len(actions))
    for step, played in enumerate(actions):
        options = game.legal_actions(played.seat)
        judged = (
            played.seat in wanted
            and played.kind != "resign"
            and len(options) > 1
            and played in options
        )
        acts = options if judged else [played]
        vectors, exact, samples = option_vectors(
            game.knowledge(played.seat), acts, seed + step, budget, acts.index(played)
        )
        # Every number stored is a whole point, rounded once, here: the graph, the
        # chances beside the replay's controls, a decision's options, its loss and the
        # accuracy all read these, so no two of them can disagree by a rounding.
        rounded = [whole_points(calibrated(vector)) for vector in vectors]
        mine = [vector[played.seat] for vector in rounded]
        unrounded = [vector[played.seat] for vector in vectors]
        best = max(range(len(acts)), key=lambda i: (mine[i], unrounded[i]))
        chances.append(rounded[best])
        if judged:
            decisions.append(_decision(step, played, acts, mine, best, exact, samples))
        game.apply(played)
        if progress is not None:
            progress(step + 1, len(actions))
    chances.append(whole_points([100.0 * share for share in shares(game)]))
    return {
        "format": ANALYSIS_FORMAT,
        "seats": sorted(wanted),
        "result": final.result,
        "threshold": MISTAKE_POINTS,
        "decisions": [asdict(d) for d in decisions],
        "mistakes": sum(d.mistake for d in decisions),
        "chances": chances,
        "calibration": CALIBRATION_SLOPE if game.players == 2 else None,
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


def _decision(
    step: int,
    played: Action,
    acts: list[Action],
    values: list[float],
    best: int,
    exact: bool,
    samples: int,
) -> Decision:
    before, after = values[best], values[acts.index(played)]
    loss = before - after
    return Decision(
        move=step,
        seat=played.seat,
        action=str(played),
        before=before,
        after=after,
        loss=loss,
        best=str(acts[best]),
        mistake=loss >= MISTAKE_POINTS,
        exact=exact,
        options=len(acts),
        samples=samples,
        values={str(act): value for act, value in zip(acts, values, strict=True)},
    )
