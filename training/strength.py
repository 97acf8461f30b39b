"""How a checkpoint plays: duplicate games against ``greedy`` on deals kept for it.

Each deal is played twice with the seats swapped, as ``benchmarks/bot_tournament.py``
plays them; the rate is over decided games, with its 95% Wilson interval. The deals
(900000 on) are used by no benchmark figure and no tuning.
"""

from __future__ import annotations

import multiprocessing as mp
import random

from benchmarks.bot_tournament import wilson
from durak.bots import get_bot
from durak.bots.fast import decider
from durak.bots.learned import LearnedBot, Network
from durak.engine import Game, Rules

FIRST_DEAL = 900_000


def _play(task: tuple[str, int]) -> list[float | None]:
    """The learned side's score in both seatings of one deal (None: a draw)."""
    path, deal = task
    # The network alone, no endgame solver: a checkpoint measures what the net learned.
    learned, greedy = LearnedBot(Network.load(path), solver_nodes=0), get_bot("greedy")
    scores: list[float | None] = []
    for learned_seat in (0, 1):
        game = Game.new(Rules(players=2), f"2p-podkidnoy:{deal}")
        rng = random.Random(deal)
        while not game.is_over:
            seat = decider(game)
            bot = learned if seat == learned_seat else greedy
            game.apply(bot.choose_action(game.knowledge(seat), rng))
        fool = game.result["fool"]
        scores.append(None if fool is None else float(fool != learned_seat))
    return scores


def against_greedy(path: str, deals: int, workers: int) -> dict[str, float | int]:
    tasks = [(path, FIRST_DEAL + d) for d in range(deals)]
    with mp.get_context("fork").Pool(workers) as pool:
        scores = [s for pair in pool.map(_play, tasks) for s in pair if s is not None]
    wins = int(sum(scores))
    rate, low, high = wilson(wins, len(scores))
    return {"decided": len(scores), "wins": wins, "rate": rate, "low": low, "high": high}
