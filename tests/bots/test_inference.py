"""The public replay matches the engine, and weighted deals agree with the knowledge."""

import random

import pytest

from games.bots.fast import decider
from games.bots.greedy import greedy_move
from games.bots.inference import Inference
from games.bots.tracker import PublicTracker
from games.engine import Game, Rules, card_index

from .conftest import VARIANTS


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_tracker_follows_the_engine_through_random_games(variant):
    rules = VARIANTS[variant]
    for seed in range(3):
        game = Game.new(rules, seed)
        rng = random.Random(seed)
        tracker = PublicTracker(rules, game.first_attacker)
        while not game.is_over:
            acts = game.legal_actions()
            action = acts[rng.randrange(len(acts))]
            game.apply(action)
            tracker.step(action)
            if game.is_over:
                break
            assert tracker.counts == game.hand_counts()
            assert tracker.talon == game.talon_count
            assert tracker.table == game.table()
            assert (tracker.att, tracker.dfn) == (game.attacker, game.defender)
            assert tracker.cap == game.bout_limit
            assert tracker.elig == set(game.attackers)


def _played(rules: Rules, seed: int, moves: int) -> Game:
    game = Game.new(rules, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if game.is_over:
            break
        seat = decider(game)
        acts = [a for a in game.legal_actions() if a.seat == seat]
        game.apply(greedy_move(game, seat, acts, rng))
    return game


@pytest.mark.parametrize("variant", ["podkidnoy", "perevodnoy", "trump-show", "teams-2x2"])
def test_weighted_deals_agree_with_the_knowledge(variant):
    rules = VARIANTS[variant]
    for seed, moves in ((1, 10), (2, 25), (3, 40)):
        game = _played(rules, seed, moves)
        if game.is_over:
            continue
        seat = decider(game)
        knowledge = game.knowledge(seat)
        inference = Inference.of(knowledge)
        rng = random.Random(seed)
        for _ in range(20):
            deal = inference.deal(rng)
            assert deal.knowledge(seat) == knowledge
            assert deal.hand(seat) == game.hand(seat)
            assert deal.hand_counts() == game.hand_counts()


def test_a_take_makes_the_cards_that_beat_less_likely():
    # Seat 1 takes a lone 7 of hearts; then nobody draws, so the evidence stands.
    game = Game.from_position(
        Rules(players=2), ["7H 6C 6S 9C 9S JC", "6H 8S TS QS KC AC"], "KD", ["AH", "8H", "KD"], 0
    )
    game.apply("0 attack 7H")
    game.apply("1 take")
    game.apply("0 done")
    weights = Inference.of(game.knowledge(0)).weights[1]
    # Seat 0 drew AH; 8H is unseen (still in the talon) and beats 7H, 9H is discarded.
    assert 0.0 < weights[card_index("8H")] < 1.0
    assert card_index("9H") not in weights
