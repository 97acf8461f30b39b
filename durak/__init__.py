"""Durak, the Russian card game: the rules and the bots, in pure Python.

``durak.engine`` is every rule of RULES.md (value objects, ``legal_actions``/``apply``,
text notation, records that round-trip); ``durak.bots`` are the computer players,
from random to the search. Neither imports Django: the web site is built on their
public interface, as any other program may be::

    import random
    from durak import Game, Rules

    game = Game.new(Rules(players=2), 42)
    while not game.is_over:
        game.apply(random.choice(game.legal_actions()))
    print(game.result)

See docs/engine.md.
"""

from durak.engine import *  # noqa: F403  (the package's face is the engine's API)
from durak.engine import __all__  # noqa: F401
