"""Puzzles from finished games: positions whose answer the exact endgame solver proves.

A puzzle is a decision of one seat in a two-seat endgame (``endgame.applicable``: every
hidden card is in the opponent's hand, so the position is perfect information) where
some of the seat's moves reach the goal against any defence and others do not. Two goals:

- ``not_fool``: the seat avoids being the fool (a draw counts);
- ``out_first``: the seat goes out while the opponent still holds cards, so the
  opponent is the fool. Asked only where every move avoids being the fool, so the
  harder goal is what separates the moves.

Every winning move is an accepted answer: a puzzle never has a second winning answer
it would refuse. After a right answer the opponent replies (the medium policy's move:
every reply loses by then, so any is fair) and the player's forced moves are played,
and the puzzle goes on while the player's next decision is a puzzle again, up to
``MAX_PLAYER_MOVES`` moves. The line is a tree (a ``Step`` per decision), one branch
per accepted answer. Pure Python, like the rest of the bots.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from durak.engine import Action, Game

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
# The player's decisions in one puzzle at most, and the decisions stored in its tree
# at most (the branches of several accepted answers add up).
MAX_PLAYER_MOVES = 3
MAX_STEPS = 12


@dataclass(frozen=True)
class FoundPuzzle:
    """One puzzle: the position before move ``move`` of the game, solved for ``seat``.

    ``line`` is the first decision's ``Step`` as JSON-ready data (``step_data``)."""

    move: int
    seat: int
    goal: str
    answers: tuple[str, ...]
    options: tuple[str, ...]
    played: str
    swing: bool
    snapshot: dict[str, Any]
    line: dict[str, Any]

    @property
    def player_moves(self) -> int:
        """The player's decisions on the longest branch of the line."""
        return line_depth(self.line)

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


def is_puzzle(values: dict[Action, bool]) -> bool:
    """Some moves win, and at least ``MIN_LOSING_SHARE`` of them do not."""
    winning = sum(values.values())
    return 0 < winning <= (1 - MIN_LOSING_SHARE) * len(values)


def solve_position(
    game: Game, seat: int, max_nodes: int | None = MAX_NODES
) -> tuple[str, dict[Action, bool]] | None:
    """The puzzle in this position for ``seat``: ``(goal, each move's value)``, or None
    when it is no puzzle (not a solvable endgame, one option, every move loses, more
    than ``1 - MIN_LOSING_SHARE`` of them win, or the solver's budget ran out)."""
    if not puzzle_rules(game) or not endgame.applicable(game) or fast.decider(game) != seat:
        return None
    if len(fast.legal(game, seat)) < 2:
        return None
    for goal in GOALS:
        values = goal_values(game, seat, goal, max_nodes)
        if values is None or not any(values.values()):
            return None
        if not all(values.values()):
            return (goal, values) if is_puzzle(values) else None
    return None


def play_replies(game: Game, seat: int, action: Action) -> tuple[Game, list[Action]]:
    """The position after ``seat`` plays ``action``, the opponent replies (the medium
    policy) and the seat's forced moves are made, up to the seat's next real decision
    or the end; with the moves played after ``action``."""
    game = game.copy()
    game.apply(action)
    replies = []
    rng = random.Random(0)
    while not game.is_over:
        decider = fast.decider(game)
        if decider is None:
            break
        acts = fast.legal(game, decider)
        if decider == seat and len(acts) > 1:
            break
        reply = acts[0] if len(acts) == 1 else fast.medium_move(game, decider, acts, rng)
        game.apply(reply)
        replies.append(reply)
    return game, replies


def step_data(
    game: Game,
    seat: int,
    goal: str,
    values: dict[Action, bool],
    max_nodes: int | None = MAX_NODES,
    room: list[int] | None = None,
    depth: int = 1,
) -> dict[str, Any]:
    """One decision of the line and what follows each accepted answer, as JSON-ready
    data: ``{"options", "answers", "next": {answer: {"replies", "step"}}}`` (moves in
    engine notation; ``step`` is None where the puzzle ends)."""
    room = [MAX_STEPS - 1] if room is None else room
    winning = [a for a, wins in values.items() if wins]
    following: dict[str, Any] = {}
    for action in winning:
        after, replies = play_replies(game, seat, action)
        step = None
        if (
            depth < MAX_PLAYER_MOVES
            and room[0] > 0
            and endgame.applicable(after)
            and fast.decider(after) == seat
        ):
            next_values = goal_values(after, seat, goal, max_nodes)
            if next_values is not None and is_puzzle(next_values):
                room[0] -= 1
                step = step_data(after, seat, goal, next_values, max_nodes, room, depth + 1)
        following[str(action)] = {"replies": [str(r) for r in replies], "step": step}
    return {
        "options": [str(a) for a in values],
        "answers": [str(a) for a in winning],
        "next": following,
    }


def line_depth(step: dict[str, Any] | None) -> int:
    if step is None:
        return 0
    return 1 + max((line_depth(n["step"]) for n in step["next"].values()), default=0)


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
                goal, values = solved
                line = step_data(game, played.seat, goal, values, max_nodes)
                found = FoundPuzzle(
                    move=move,
                    seat=played.seat,
                    goal=goal,
                    answers=tuple(line["answers"]),
                    options=tuple(line["options"]),
                    played=str(played),
                    swing=move in swings or not values[played],
                    snapshot=game.snapshot(),
                    line=line,
                )
                (at_swings if move in swings else others).append(found)
        game.apply(played)
    others.sort(key=lambda p: (-p.player_moves, -p.losing_share, p.move))
    return at_swings + others[:per_deal]
