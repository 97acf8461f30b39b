"""Puzzles for the tests, found in engine-only bot games (no stored game needed)."""

from __future__ import annotations

import random

from durak.bots.play import play_game
from durak.bots.puzzles import FoundPuzzle, find_puzzles
from durak.engine import Game, Rules
from puzzles.generation import position_hash
from puzzles.models import Puzzle


def found_puzzles(seed: int = 1) -> list[FoundPuzzle]:
    game = Game.new(Rules(players=2), seed)
    play_game(game, ["medium", "medium"], random.Random(seed))
    return find_puzzles(game.to_record())


def store(found: FoundPuzzle, rating: float = 1500.0) -> Puzzle:
    return Puzzle.objects.create(
        move=found.move,
        seat=found.seat,
        goal=found.goal,
        position=found.snapshot,
        position_hash=position_hash(found),
        answers=list(found.answers),
        options=list(found.options),
        line=found.line,
        player_moves=found.player_moves,
        played=found.played,
        from_swing=found.swing,
        rating=rating,
    )


def stored_puzzle(rating: float = 1500.0, seed: int = 1, index: int = 0) -> Puzzle:
    return store(found_puzzles(seed)[index], rating)


def puzzle_of(moves: int) -> Puzzle:
    """A stored puzzle whose line's first answer leads to exactly ``moves`` decisions."""
    for seed in range(100):
        for found in found_puzzles(seed):
            if len(right_line(found.line)) == moves:
                return store(found)
    raise AssertionError(f"no puzzle of {moves} moves in 100 bot games")


def right_line(step: dict | None) -> list[str]:
    """The player's moves that solve the line, taking the first answer each time."""
    moves = []
    while step is not None:
        move = step["answers"][0]
        moves.append(move)
        step = step["next"][move]["step"]
    return moves


def wrong_move(step: dict) -> str:
    return next(o for o in step["options"] if o not in step["answers"])
