"""Positions for the search tests: a seat's decision, and a dealer of one known game."""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator

from durak.bots import fast
from durak.engine import Action, Game, Knowledge, Rules


def decision(game: Game, rng: random.Random, talon_at_most: int) -> tuple:
    """Play medium moves until a seat has several options and the talon is this small:
    that seat's knowledge and its actions, or (None, None) if the game ends first."""
    while not game.is_over:
        seat = fast.decider(game)
        acts = fast.legal(game, seat)
        if len(acts) > 2 and game.talon_count <= talon_at_most:
            return game.knowledge(seat), acts
        game.apply(fast.medium_move(game, seat, acts, rng))
    return None, None


def two_player_decisions(
    seeds: Iterable[int], talon_at_most: int
) -> Iterator[tuple[int, Game, Knowledge, list[Action]]]:
    """``decision`` in the 2-player game of each seed that reaches one: the seed, the
    game at that decision, the seat's knowledge and its actions."""
    for seed in seeds:
        game = Game.new(Rules(players=2), seed)
        knowledge, acts = decision(game, random.Random(0), talon_at_most)
        if knowledge is not None:
            yield seed, game, knowledge, acts


class OneDeal:
    """Deals ``game`` as it stands every time: the bot knows every card."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.dealt = 0

    def deal(self, rng: random.Random) -> Game:
        self.dealt += 1
        return self.game.copy()
