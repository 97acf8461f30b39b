"""Puzzles for the tests, found in engine-only bot games (no stored game needed)."""

from __future__ import annotations

import random

from games.bots.play import play_game
from games.bots.puzzles import FoundPuzzle, find_puzzles
from games.engine import Game, Rules
from puzzles.generation import position_hash
from puzzles.models import Puzzle


def found_puzzles(seed: int = 1) -> list[FoundPuzzle]:
    game = Game.new(Rules(players=2), seed)
    play_game(game, ["medium", "medium"], random.Random(seed))
    return find_puzzles(game.to_record())


def stored_puzzle(rating: float = 1500.0, seed: int = 1, index: int = 0) -> Puzzle:
    """A puzzle row whose answer is a single move among several."""
    found = found_puzzles(seed)[index]
    return Puzzle.objects.create(
        move=found.move,
        seat=found.seat,
        goal=found.goal,
        position=found.snapshot,
        position_hash=position_hash(found),
        answers=list(found.answers),
        options=list(found.options),
        played=found.played,
        from_swing=found.swing,
        rating=rating,
    )


def wrong_move(puzzle: Puzzle) -> str:
    return next(o for o in puzzle.options if o not in puzzle.answers)
