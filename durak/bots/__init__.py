"""Computer players for every variant, from random to a search bot.

The one interface is ``get_bot(level).choose_action(knowledge, rng, budget)``: a bot sees
only a seat's ``Knowledge`` and returns that seat's ``Action`` (or ``None`` when the seat
may only throw in before the defender answered, and prefers to wait). ``choose`` wraps it.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable

from durak.engine import Action, Knowledge

from . import fast
from .analysis import ANALYSIS_FORMAT, MISTAKE_POINTS, AnalysisBudget, analyse_record
from .base import DEFAULT_BUDGET, Bot, Budget, decider_of, legal_for, rebuild
from .levels import PolicyBot
from .puzzles import FoundPuzzle, find_puzzles
from .tree import TreeBot

LEVELS = ("random", "easy", "medium", "hard")
# Bots that are not lobby levels: the outside yardstick of the benchmark.
BASELINES = ("greedy",)
# Bots on trial, not yet lobby levels: the learned policy (``learned/``), until it
# plays as well as the level it is meant to replace (docs/bots.md).
TRIALS = ("learned",)

# Elo of each level (random = 1000), rounded, from the duplicate tournament in 2-player
# podkidnoy that ``benchmarks/bot_tournament.py`` prints (see docs/performance.md). The
# lobby shows them beside the level names; rerun the benchmark when a level changes.
ELO = {"random": 1000, "easy": 1630, "medium": 1730, "hard": 2100}

_BOTS: dict[str, Bot] = {
    "random": PolicyBot("random"),
    "easy": PolicyBot("easy"),
    "medium": PolicyBot("medium"),
    "hard": TreeBot(),
    "greedy": PolicyBot("greedy"),
}


def _trial_bot(level: str) -> Bot:
    """A bot on trial, made on first use: the learned bot brings numpy and its weights,
    which no process loads unless it plays that bot (the site's levels never do)."""
    from .learned import LearnedBot

    return _BOTS.setdefault(level, LearnedBot())


def get_bot(level: str) -> Bot:
    """The bot of ``level`` (one of LEVELS, BASELINES or TRIALS); ValueError for an
    unknown one."""
    if level in TRIALS and level not in _BOTS:
        return _trial_bot(level)
    try:
        return _BOTS[level]
    except KeyError:
        raise ValueError(
            f"unknown bot level {level!r}; expected one of {', '.join(LEVELS + BASELINES + TRIALS)}"
        ) from None


def choose(
    level: str,
    knowledge: Knowledge,
    rng: random.Random,
    playouts: int | None = None,
    *,
    reproducible: bool = False,
    stop: Callable[[], bool] | None = None,
    cpu_seconds: float | None = None,
) -> Action | None:
    """The bot's action for ``knowledge.seat``.

    ``playouts`` sets the search's budget in playouts alone, with no wall-time cap:
    a live bot keeps its strength on a loaded machine (it answers later instead).
    ``reproducible`` (with ``playouts``) makes the action depend on the knowledge and
    the rng alone (see ``Budget.reproducible``). ``stop`` may end the search early
    (see ``Budget.stop``); ``cpu_seconds`` replaces the default cap on its CPU.
    """
    if playouts is None:
        budget = dataclasses.replace(DEFAULT_BUDGET, stop=stop)
    else:
        budget = Budget(iterations=playouts, reproducible=reproducible, stop=stop)
    if cpu_seconds is not None:
        budget = dataclasses.replace(budget, cpu_seconds=cpu_seconds)
    return get_bot(level).choose_action(knowledge, rng, budget)


__all__ = [
    "ANALYSIS_FORMAT",
    "BASELINES",
    "DEFAULT_BUDGET",
    "ELO",
    "LEVELS",
    "MISTAKE_POINTS",
    "TRIALS",
    "AnalysisBudget",
    "Bot",
    "Budget",
    "FoundPuzzle",
    "analyse_record",
    "choose",
    "decider_of",
    "fast",
    "find_puzzles",
    "get_bot",
    "legal_for",
    "rebuild",
]
