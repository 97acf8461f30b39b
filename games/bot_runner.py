"""Choosing a bot's move: the bots package when present, else a random legal move.

Pure computation on an engine ``Game`` copy's knowledge; no database here, so the
bot worker (``manage.py bot_worker``) runs it outside any transaction.
"""

from __future__ import annotations

import random
import secrets

from games.conf import setting
from games.engine import Action, Game

try:  # The bots package is developed alongside; keep working without it.
    from games import bots as _bots

    _choose = getattr(_bots, "choose", None)
    LEVELS: tuple[str, ...] = tuple(getattr(_bots, "LEVELS", ()))
except ImportError:  # pragma: no cover - depends on the checkout
    _choose = None
    LEVELS = ()

_rng = secrets.SystemRandom()


def legal_for(game: Game, seat: int) -> list[Action]:
    return [a for a in game.legal_actions(seat) if a.kind != "swap"]


def choose_action(game: Game, seat: int, level: str, *, seed: str = "") -> Action | None:
    """The action bot ``level`` plays for ``seat`` now, or None when it waits.

    The search's budget is ``GAMES_BOT_PLAYOUTS`` playouts, never wall time.  With a
    table's ``seed`` the bot's random choices come from that seed, the move number and
    the seat, and its search shares nothing with earlier searches: the same position
    reached by the same moves gets the same reply in any process.
    """
    legal = legal_for(game, seat)
    if not legal:
        return None
    # Unseeded, the move still gets a fast generator of its own, seeded from the OS:
    # the search draws thousands of numbers, and ``SystemRandom`` asks the OS for each.
    rng = random.Random(f"{seed}/{len(game.history)}/{seat}" if seed else _rng.getrandbits(64))
    if _choose is not None and level in LEVELS:
        try:
            action = _choose(
                level,
                game.knowledge(seat),
                rng,
                setting("GAMES_BOT_PLAYOUTS"),
                reproducible=bool(seed),
            )
        except Exception:  # A faulty bot must not stall the table: fall back below.
            action = None
        else:
            if action is None or game.is_legal(action):
                return action
    return _fallback(legal, rng)


def _fallback(legal: list[Action], rng: random.Random) -> Action:
    # Prefer ending a bout over throwing in forever; otherwise any legal move.
    return rng.choice(legal)
