"""The live tables' bot move: a bot that fails still moves the table on."""

from __future__ import annotations

import logging
import random

import pytest

from durak import bots
from durak.engine import Game, Rules
from games import bot_runner


def broken_choose(*args: object, **kwargs: object) -> None:
    raise RuntimeError("search crashed")


def test_a_failing_bot_plays_a_legal_move_and_says_why(monkeypatch, caplog) -> None:
    game = Game.new(Rules(), random.Random(3))
    seat = game.to_act()[0].seat
    monkeypatch.setattr(bots, "choose", broken_choose)
    with caplog.at_level(logging.ERROR, logger="games.bot_runner"):
        action = bot_runner.choose_action(game, seat, "hard", seed="s")
    assert action is not None and game.is_legal(action)
    assert "search crashed" in caplog.text


@pytest.mark.parametrize("level", bots.LEVELS)
def test_every_level_plays_a_legal_move(level: str) -> None:
    game = Game.new(Rules(), random.Random(5))
    seat = game.to_act()[0].seat
    action = bot_runner.choose_action(game, seat, level, seed="t")
    assert action is not None and game.is_legal(action)
