"""How a checkpoint plays: duplicate games against ``greedy`` on deals kept for it.

Each deal is played twice with the seats swapped, by ``benchmarks/learned_strength.py``'s
``play_deal``; the rate is over decided games, with its 95% Wilson interval. The deals
(900000 on) are used by no benchmark figure and no tuning.
"""

from __future__ import annotations

import multiprocessing as mp

from benchmarks.bot_tournament import wilson
from benchmarks.learned_strength import play_deal

FIRST_DEAL = 900_000


def against_greedy(path: str, deals: int, workers: int) -> dict[str, float | int]:
    """The network alone, no endgame solver: a checkpoint measures what the net learned."""
    tasks = [(path, False, "podkidnoy", FIRST_DEAL + d) for d in range(deals)]
    with mp.get_context("fork").Pool(workers) as pool:
        games = pool.map(play_deal, tasks)
    scores = [s for pair, _cpu in games for s in pair if s is not None]
    wins = int(sum(scores))
    rate, low, high = wilson(wins, len(scores))
    return {"decided": len(scores), "wins": wins, "rate": rate, "low": low, "high": high}
