"""Durak rules engine: pure Python, no Django.

Quick start::

    from durak import Game, Rules

    game = Game.new(Rules(players=2), 42)
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    print(game.result)
"""

from .actions import KINDS, Action, IllegalAction, defend_action, take_action
from .cards import (
    BEATERS,
    BIT,
    CODES,
    DECK_MASK,
    RANK_MASK,
    RANKS,
    SUIT_MASK,
    SUITS,
    beats,
    card_code,
    card_index,
    codes_to_mask,
    deck_codes,
    mask_to_codes,
)
from .config import PHASES
from .events import (
    EVENT_TYPES,
    Attacked,
    BoutBeaten,
    BoutStarted,
    CardsTaken,
    Dealt,
    Defended,
    Drew,
    FirstAttackerChosen,
    FirstAttackerDrawn,
    GameOver,
    Resigned,
    SaidDone,
    Shown,
    Swapped,
    Took,
    Transferred,
    WentOut,
)
from .game import Game
from .knowledge import Knowledge
from .match import Match
from .record import RECORD_FORMAT, SNAPSHOT_FORMAT
from .rules import Rules
from .state import GameState
from .turns import ROLES, Turn

__all__ = [
    "BEATERS",
    "BIT",
    "CODES",
    "DECK_MASK",
    "EVENT_TYPES",
    "KINDS",
    "PHASES",
    "RANKS",
    "RANK_MASK",
    "RECORD_FORMAT",
    "ROLES",
    "SNAPSHOT_FORMAT",
    "SUITS",
    "SUIT_MASK",
    "Action",
    "Attacked",
    "BoutBeaten",
    "BoutStarted",
    "CardsTaken",
    "Dealt",
    "Defended",
    "Drew",
    "FirstAttackerChosen",
    "FirstAttackerDrawn",
    "Game",
    "GameOver",
    "GameState",
    "IllegalAction",
    "Knowledge",
    "Match",
    "Resigned",
    "Rules",
    "SaidDone",
    "Shown",
    "Swapped",
    "Took",
    "Transferred",
    "Turn",
    "WentOut",
    "beats",
    "card_code",
    "card_index",
    "codes_to_mask",
    "deck_codes",
    "defend_action",
    "mask_to_codes",
    "take_action",
]
