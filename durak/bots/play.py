"""Play whole games between bots through the public interface (tests, benchmark, demos)."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

from durak.engine import Action, Game

from . import fast, get_bot
from .base import Budget


def play_game(
    game: Game,
    levels: Sequence[str],
    rng: random.Random,
    budgets: dict[str, Budget] | None = None,
    on_move: Callable[[int, Action, float, float], None] | None = None,
    max_moves: int = 5000,
) -> Game:
    """Play ``game`` to the end in place; seat ``s`` is played by ``levels[s]``.

    Each bot gets only ``game.knowledge(seat)``. ``on_move(seat, action, wall, cpu)`` is
    called after every decision with its wall and process CPU seconds (on a shared
    machine the CPU time is what the decision cost one core).
    """
    budgets = budgets or {}
    for _ in range(max_moves):
        if game.is_over:
            break
        seat = fast.decider(game)
        if seat is None:
            break
        level = levels[seat]
        knowledge = game.knowledge(seat)
        t = time.perf_counter()
        cpu = time.process_time()
        action = get_bot(level).choose_action(knowledge, rng, budgets.get(level))
        cpu = time.process_time() - cpu
        dt = time.perf_counter() - t
        if action is None:
            raise RuntimeError(f"{level} bot returned no action for seat {seat} on its turn")
        game.apply(action)
        if on_move is not None:
            on_move(seat, action, dt, cpu)
    return game
