"""The post-game review read from a stored analysis: judgements, accuracy, mistakes.

A decision loses ``before - after`` points of the deciding seat's chance of not
being the fool (0-100).  docs/analysis.md gives the thresholds and the accuracy
formula; this module is their one implementation.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import pgettext_lazy

from durak.bots import ANALYSIS_FORMAT
from durak.engine import Action

# Chance lost (in points of 0-100) from which a decision is judged, worst first.
BLUNDER = 30.0
MISTAKE = 20.0
INACCURACY = 10.0
JUDGEMENTS = (("blunder", BLUNDER), ("mistake", MISTAKE), ("inaccuracy", INACCURACY))
SYMBOLS = {"blunder": "??", "mistake": "?", "inaccuracy": "?!"}
LABELS = {
    "blunder": pgettext_lazy("judged decision", "Blunder"),
    "mistake": pgettext_lazy("judged decision", "Mistake"),
    "inaccuracy": pgettext_lazy("judged decision", "Inaccuracy"),
}
# A move the player tries while learning is "as good as the best" within this loss.
GOOD_ENOUGH = INACCURACY


def judgement(loss: float) -> str | None:
    """``"blunder"``, ``"mistake"``, ``"inaccuracy"`` or None for a decision's loss."""
    for name, threshold in JUDGEMENTS:
        if loss >= threshold:
            return name
    return None


def move_accuracy(loss: float) -> float:
    """Accuracy (0-100) of one decision from the chance it lost (docs/analysis.md)."""
    value = 103.1668 * math.exp(-0.04354 * max(0.0, loss)) - 3.1669
    return min(100.0, max(0.0, value))


def game_accuracy(losses: Sequence[float]) -> float | None:
    """A player's accuracy for a game: the mean of their decisions' accuracies."""
    if not losses:
        return None
    return sum(move_accuracy(loss) for loss in losses) / len(losses)


@dataclass
class Judged:
    """One decision of the stored analysis, with its judgement."""

    move: int  # index of the action in the deal; the position before it is step ``move``
    seat: int
    action: Action
    best: Action
    before: float
    after: float
    loss: float
    judgement: str | None
    values: dict[str, float]

    @property
    def step(self) -> int:
        """The replay step at which the decision was taken."""
        return self.move

    @property
    def symbol(self) -> str:
        return SYMBOLS.get(self.judgement or "", "")

    def ranked(self) -> list[tuple[Action, float]]:
        """Every legal move there with its chance, best first (ties keep the engine's order)."""
        moves = [(Action.parse(text), value) for text, value in self.values.items()]
        return sorted(moves, key=lambda move: -move[1])

    @property
    def label(self) -> str:
        return str(LABELS[self.judgement]) if self.judgement else ""


@dataclass
class PlayerReview:
    seat: int
    name: str
    accuracy: float | None
    decisions: int
    counts: dict[str, int] = field(default_factory=dict)


@dataclass
class Review:
    """Everything the replay page shows of one finished analysis."""

    decisions: list[Judged]
    players: list[PlayerReview]
    chances: list[list[float]]

    @property
    def judged(self) -> list[Judged]:
        return [d for d in self.decisions if d.judgement]

    def at_step(self, step: int) -> Judged | None:
        """The decision taken at ``step`` (before move ``step + 1``), if it was judged."""
        return self.by_move.get(step)

    @property
    def by_move(self) -> dict[int, Judged]:
        return {d.move: d for d in self.decisions if d.judgement}

    def decision_at(self, step: int) -> Judged | None:
        """The decision taken at ``step``, judged or not (None: a forced move, or none)."""
        return next((d for d in self.decisions if d.move == step), None)

    def mistakes_of(self, seat: int) -> list[Judged]:
        """The seat's mistakes and blunders, in the order they were made."""
        return [
            d for d in self.decisions if d.seat == seat and d.judgement in ("mistake", "blunder")
        ]


def is_current(result: Mapping[str, Any] | None) -> bool:
    """Whether a stored analysis result is of today's format. Older ones sampled the
    graph apart from the decisions, with a judge weaker than the hard bot, so their
    numbers disagree: they are not shown, and may be analysed again."""
    return bool(result) and result.get("format") == ANALYSIS_FORMAT


def build_review(result: Mapping[str, Any], names: Sequence[str]) -> Review | None:
    """The review of a stored analysis result, or None when it is of an older format."""
    if not is_current(result):
        return None
    decisions = []
    for d in result["decisions"]:
        decisions.append(
            Judged(
                move=d["move"],
                seat=d["seat"],
                action=Action.parse(d["action"]),
                best=Action.parse(d["best"]),
                before=d["before"],
                after=d["after"],
                loss=d["loss"],
                judgement=judgement(d["loss"]),
                values=d.get("values", {}),
            )
        )
    players = []
    for seat in result["seats"]:
        mine = [d for d in decisions if d.seat == seat]
        counts = {name: sum(d.judgement == name for d in mine) for name, _t in JUDGEMENTS}
        players.append(
            PlayerReview(
                seat=seat,
                name=names[seat] if seat < len(names) else f"#{seat}",
                accuracy=game_accuracy([d.loss for d in mine]),
                decisions=len(mine),
                counts=counts,
            )
        )
    return Review(decisions=decisions, players=players, chances=result["chances"])


def verdict(decision: Judged, tried: str) -> tuple[bool, float]:
    """Whether ``tried`` (an action's text) is as good as the best move there, and the
    chance it keeps; KeyError when it was not one of the seat's legal actions."""
    value = decision.values[tried]
    return decision.before - value < GOOD_ENOUGH, value
