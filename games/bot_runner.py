"""Choosing a bot's move for a seat of a live table.

Pure computation on an engine ``Game`` copy's knowledge; no database here, so the
bot worker (``manage.py bot_worker``) runs it outside any transaction.
"""

from __future__ import annotations

import logging
import random
import secrets
from collections.abc import Callable

from durak import bots
from durak.engine import Action, Game
from games.conf import setting

logger = logging.getLogger(__name__)
_rng = secrets.SystemRandom()


def legal_for(game: Game, seat: int) -> list[Action]:
    return [a for a in game.legal_actions(seat) if a.kind != "swap"]


def choose_action(
    game: Game,
    seat: int,
    level: str,
    *,
    seed: str = "",
    stop: Callable[[], bool] | None = None,
) -> Action | None:
    """The action bot ``level`` plays for ``seat`` now, or None when it waits.

    The search's budget is ``GAMES_BOT_PLAYOUTS`` playouts, never wall time (its CPU
    is capped all the same, see ``bots.Budget``).  With a table's ``seed`` the bot's
    random choices come from that seed, the move number and the seat, and its search
    shares nothing with earlier searches: the same position reached by the same moves
    gets the same reply in any process.  ``stop`` is asked now and then during the
    search; once it says True the search ends early and its move should be dropped.
    """
    legal = legal_for(game, seat)
    if not legal:
        return None
    # Unseeded, the move still gets a fast generator of its own, seeded from the OS:
    # the search draws thousands of numbers, and ``SystemRandom`` asks the OS for each.
    rng = random.Random(f"{seed}/{len(game.history)}/{seat}" if seed else _rng.getrandbits(64))
    if level in bots.LEVELS:
        try:
            action = bots.choose(
                level,
                game.knowledge(seat),
                rng,
                setting("GAMES_BOT_PLAYOUTS"),
                reproducible=bool(seed),
                stop=stop,
                cpu_seconds=setting("GAMES_SEARCH_CPU_SECONDS"),
            )
        except Exception:  # A faulty bot must not stall the table: fall back below.
            logger.exception("bot %s failed; a random legal move is played", level)
            action = None
        else:
            if action is None or game.is_legal(action):
                return action
    return rng.choice(legal)
