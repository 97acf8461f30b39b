"""The learned policy: its committed weights load, it plays only legal actions, it
sees nothing hidden, it beats random, and it hands other tables to its fallback.

Legal play over whole games and the hidden-card twins are also run for it with every
level in test_legal_play.py and test_no_cheating.py (it is in ``TRIALS``)."""

import dataclasses
import random

import numpy as np
import pytest

from durak.bots import endgame, get_bot
from durak.bots.base import rebuild
from durak.bots.fast import decider, legal
from durak.bots.learned import LearnedBot, Network, WeightsError, covers, default_network
from durak.bots.learned.bot import WEIGHTS
from durak.bots.learned.features import ACTION_SIZE, STATE_SIZE, encode_state
from durak.engine import Game, Rules


def test_the_committed_weights_load_and_are_small():
    network = default_network()
    assert network.arrays["state_in"].shape[0] == STATE_SIZE
    assert network.arrays["action_in"].shape[0] == ACTION_SIZE
    assert network.size_bytes < 1_000_000
    assert WEIGHTS.stat().st_size < 1_000_000


def test_weights_of_another_encoding_are_refused(tmp_path):
    network = default_network()
    other = Network(network.arrays, {**network.meta, "encoding": -1})
    other.save(tmp_path / "old.npz")
    with pytest.raises(WeightsError):
        Network.load(tmp_path / "old.npz")


def _duel(rules: Rules, levels: tuple[str, str], seed: int) -> int | None:
    game = Game.new(rules, f"learned-test:{seed}")
    rng = random.Random(seed)
    while not game.is_over:
        seat = decider(game)
        action = get_bot(levels[seat]).choose_action(game.knowledge(seat), rng)
        assert action is not None and action in game.legal_actions(seat)
        game.apply(action)
    return game.result["fool"]


def test_it_beats_random_on_both_seats():
    wins = decided = 0
    for seed in range(30):
        for seat in (0, 1):
            levels = ("learned", "random") if seat == 0 else ("random", "learned")
            fool = _duel(Rules(players=2), levels, seed)
            if fool is not None:
                decided += 1
                wins += fool != seat
    assert decided >= 50
    assert wins / decided >= 0.8


def test_the_encoding_is_the_same_whatever_the_hidden_cards():
    # Two deals that differ only in the opponent's hand and the talon's order.
    rules = Rules(players=2)
    deck = Game.new(rules, 11).deck
    deep = rules.players * rules.hand_size + 1  # a talon card, not the face-up trump
    other = list(deck)
    other[1], other[deep] = deck[deep], deck[1]  # seat 1's first card and it swap
    a, b = Game(rules, deck, first_attacker=0), Game(rules, other, first_attacker=0)
    ka, kb = a.knowledge(0), b.knowledge(0)
    assert ka == kb and a.hand(1) != b.hand(1)
    np.testing.assert_array_equal(encode_state(ka, rebuild(ka)), encode_state(kb, rebuild(kb)))


def test_other_tables_are_played_by_the_fallback():
    three = Rules(players=3)
    assert covers(Rules(players=2)) and covers(Rules(players=2, mode="perevodnoy"))
    assert not covers(three) and not covers(Rules(players=2, deck_size=52))
    assert not covers(dataclasses.replace(Rules(players=2), trump_six_swap=True))
    game = Game.new(three, 5)
    seat = decider(game)
    knowledge = game.knowledge(seat)
    bot = LearnedBot()
    assert bot.choose_action(knowledge, random.Random(1)) == bot.fallback.choose_action(
        knowledge, random.Random(1)
    )


def _endgame_the_network_loses(bot: LearnedBot) -> tuple[Game, int]:
    """A two-player endgame (every hidden card known) that the deciding seat wins, in
    which the network alone plays a losing move."""
    medium = get_bot("medium")
    for seed in range(200):
        game = Game.new(Rules(players=2), f"learned-endgame:{seed}")
        rng = random.Random(seed)
        while not game.is_over:
            seat = decider(game)
            knowledge = game.knowledge(seat)
            if endgame.applicable(game) and len(legal(game, seat)) > 1:
                values = endgame.solve_all(rebuild(knowledge), seat, max_nodes=5_000)
                played = bot.choose_action(knowledge, random.Random(0))
                if values and any(values.values()) and not values[played]:
                    return game, seat
            game.apply(medium.choose_action(knowledge, rng))
    raise AssertionError("no such endgame in 200 deals")


def test_a_won_endgame_is_played_exactly_where_the_network_alone_goes_wrong():
    network_alone = LearnedBot(default_network(), solver_nodes=0)
    game, seat = _endgame_the_network_loses(network_alone)
    knowledge = game.knowledge(seat)
    move = LearnedBot(default_network()).choose_action(knowledge, random.Random(0))
    assert endgame.solve_all(rebuild(knowledge), seat)[move]
