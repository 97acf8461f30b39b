"""Puzzles from finished games: positions whose answer the exact endgame solver proves.

A puzzle is a decision of one seat in a two-seat endgame (``endgame.applicable``: every
hidden card is in the opponent's hand, so the position is perfect information) where
some of the seat's moves reach the goal against any defence and others do not. Two goals:

- ``not_fool``: the seat avoids being the fool (a draw counts);
- ``out_first``: the seat goes out while the opponent still holds cards, so the
  opponent is the fool. Asked only where every move avoids being the fool, so the
  harder goal is what separates the moves.

Every winning move is an accepted answer: a puzzle never has a second winning answer
it would refuse. Pure Python, like the rest of the bots.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from games.engine import Action, Game

from . import endgame, fast

NOT_FOOL = "not_fool"
OUT_FIRST = "out_first"
GOALS = (NOT_FOOL, OUT_FIRST)
# Solver nodes per move judged: positions bigger than this are skipped, not guessed.
MAX_NODES = 60_000
# A position where most moves reach the goal is no puzzle: at least this share must miss.
MIN_LOSING_SHARE = 0.5
# Puzzles kept per deal beyond those at the swings a stored analysis found: the
# endgame's positions follow one another and would repeat one idea.
PER_DEAL = 2


@dataclass(frozen=True)
class FoundPuzzle:
    """One puzzle: the position before move ``move`` of the game, solved for ``seat``."""

    move: int
    seat: int
    goal: str
    answers: tuple[str, ...]
    options: tuple[str, ...]
    played: str
    swing: bool
    snapshot: dict[str, Any]

    @property
    def losing_share(self) -> float:
        """The share of the seat's moves that miss the goal: the more, the harder."""
        return 1.0 - len(self.answers) / len(self.options)


def goal_values(
    game: Game, seat: int, goal: str, max_nodes: int | None = MAX_NODES
) -> dict[Action, bool] | None:
    """Whether each of ``seat``'s legal actions reaches ``goal`` with best play by both
    sides; None when the solver's node budget ran out first.

    ``out_first`` is the opponent's ``not_fool`` turned over: with two seats left and
    the talon known, the seat makes the opponent the fool exactly when the opponent
    cannot avoid it.
    """
    opponent = next(s for s in range(game.players) if s != seat and s not in game.out_order)
    values: dict[Action, bool] = {}
    for action in fast.legal(game, seat):
        child = game.copy()
        child.apply_legal(action)
        judged = seat if goal == NOT_FOOL else opponent
        if child.is_over or fast.decider(child) is None:
            value = fast.not_fool(child, judged) > 0.5
        else:
            try:
                value = endgame.Solver(judged, float("inf"), max_nodes).wins(child)
            except endgame.OutOfBudget:
                return None
        values[action] = value if goal == NOT_FOOL else not value
    return values


def solve_position(
    game: Game, seat: int, max_nodes: int | None = MAX_NODES
) -> tuple[str, tuple[Action, ...]] | None:
    """The puzzle in this position for ``seat``: ``(goal, winning actions)``, or None
    when it is no puzzle (not a solvable endgame, one option, every move loses, more
    than ``1 - MIN_LOSING_SHARE`` of them win, or the solver's budget ran out)."""
    if not puzzle_rules(game) or not endgame.applicable(game) or fast.decider(game) != seat:
        return None
    if len(fast.legal(game, seat)) < 2:
        return None
    for goal in GOALS:
        values = goal_values(game, seat, goal, max_nodes)
        if values is None:
            return None
        winning = tuple(a for a, wins in values.items() if wins)
        if not winning:
            return None
        if len(winning) < len(values):
            if len(winning) > (1 - MIN_LOSING_SHARE) * len(values):
                return None
            return goal, winning
    return None


def puzzle_rules(game: Game) -> bool:
    """Puzzles come from games where each plays alone and someone may be the fool."""
    return game.rules.teams is None and not game.rules.one_winner


def find_puzzles(
    record: dict[str, Any],
    swing_moves: Iterable[int] = (),
    max_nodes: int | None = MAX_NODES,
    per_deal: int = PER_DEAL,
) -> list[FoundPuzzle]:
    """The puzzles of one finished game record.

    Every position at one of ``swing_moves`` (moves a stored analysis judged a big
    loss) that the solver proves is kept; of the other proven positions, the
    ``per_deal`` hardest (most losing moves), earliest first on a tie.
    """
    final = Game.from_record(record)
    game = Game.from_record({**record, "actions": [], "result": None})
    if not puzzle_rules(game):
        return []
    swings = set(swing_moves)
    at_swings: list[FoundPuzzle] = []
    others: list[FoundPuzzle] = []
    for move, played in enumerate(final.history):
        if played.kind != "resign" and endgame.applicable(game):
            solved = solve_position(game, played.seat, max_nodes)
            if solved is not None:
                goal, winning = solved
                found = FoundPuzzle(
                    move=move,
                    seat=played.seat,
                    goal=goal,
                    answers=tuple(str(a) for a in winning),
                    options=tuple(str(a) for a in fast.legal(game, played.seat)),
                    played=str(played),
                    swing=move in swings or played not in winning,
                    snapshot=game.snapshot(),
                )
                (at_swings if move in swings else others).append(found)
        game.apply(played)
    others.sort(key=lambda p: (-p.losing_share, p.move))
    return at_swings + others[:per_deal]
