"""Every level plays only legal actions through whole games of every variant."""

import random

import pytest

from durak.bots import BASELINES, LEVELS, TRIALS, Budget, get_bot
from durak.bots.fast import decider
from durak.engine import Game

from .conftest import VARIANTS

BUDGETS = {"hard": Budget(iterations=3)}


def _play(rules, levels, seed):
    game = Game.new(rules, seed)
    rng = random.Random(seed)
    moves = 0
    while not game.is_over:
        seat = decider(game)
        assert seat is not None and seat in game.to_act()
        level = levels[seat]
        action = get_bot(level).choose_action(game.knowledge(seat), rng, BUDGETS.get(level))
        assert action is not None, f"{level} returned nothing on its turn"
        assert action.seat == seat
        assert action in game.legal_actions(), f"{level} chose illegal {action}"
        game.apply(action)
        moves += 1
        assert moves < 3000
    return game


@pytest.mark.parametrize("level", LEVELS + BASELINES + TRIALS)
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_every_level_finishes_every_variant(variant, level):
    rules = VARIANTS[variant]
    # The level under test sits at every other seat, the next level between.
    bots = LEVELS + BASELINES + TRIALS
    other = bots[(bots.index(level) + 1) % len(bots)]
    levels = [level if s % 2 == 0 else other for s in range(rules.players)]
    game = _play(rules, levels, seed=variant)
    assert game.result is not None
    assert game.is_over


@pytest.mark.parametrize("level", LEVELS + BASELINES + TRIALS)
def test_level_against_itself_two_players(level):
    for seed in range(2):
        game = _play(VARIANTS["perevodnoy"], [level, level], seed)
        assert game.is_over


def test_attacker_waits_while_defender_must_answer():
    # Under the turn convention an attacker does not throw in before the defender answers.
    game = Game.new(VARIANTS["podkidnoy"], 3)
    game.apply(game.default_action(game.attacker))
    att = game.attacker
    knowledge = game.knowledge(att)
    for level in LEVELS + BASELINES + TRIALS:
        assert get_bot(level).choose_action(knowledge, random.Random(0), BUDGETS.get(level)) is None
    d = game.defender
    assert get_bot("easy").choose_action(game.knowledge(d), random.Random(0)) is not None
