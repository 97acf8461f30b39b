"""The same knowledge with two different hidden deals gives the same choice."""

import random

from durak.bots import BASELINES, LEVELS, TRIALS, Budget, get_bot
from durak.bots.fast import decider, medium_move
from durak.bots.inference import Inference
from durak.engine import Game, Rules

BUDGET = Budget(iterations=40)


def _twin_games(rules: Rules, seed: int) -> tuple[Game, Game, str, str]:
    """Two deals that differ only in one card of seat 1's hand and one deep talon card."""
    deck = Game.new(rules, seed).deck
    dealt = rules.players * rules.hand_size
    hidden = deck[1]  # seat 1's first card
    deep = deck[dealt + 1]  # the last card the talon would hand out, just above the trump
    other = list(deck)
    other[1], other[dealt + 1] = deep, hidden
    # A given first attacker: the lowest-trump rule would reveal a card of seat 1.
    return (
        Game(rules, deck, first_attacker=0),
        Game(rules, other, first_attacker=0),
        hidden,
        deep,
    )


def _compare_along_game(rules: Rules, seed: int) -> int:
    g1, g2, hidden, deep = _twin_games(rules, seed)
    assert g1.hand(1) != g2.hand(1)
    compared = 0
    rng = random.Random(seed)
    while not g1.is_over:
        seat = decider(g1)
        if seat == 0:
            k1, k2 = g1.knowledge(0), g2.knowledge(0)
            assert k1 == k2
            # The hidden deal really differs at this point.
            assert g1.hand(1) != g2.hand(1) or g1.snapshot() != g2.snapshot()
            # The inference of hidden cards weighs both deals alike.
            assert Inference.of(k1).weights == Inference.of(k2).weights
            for level in LEVELS + BASELINES + TRIALS:
                a1 = get_bot(level).choose_action(k1, random.Random(7), BUDGET)
                a2 = get_bot(level).choose_action(k2, random.Random(7), BUDGET)
                assert a1 == a2, f"{level}: {a1} != {a2}"
            compared += 1
            action = a1
        else:
            acts = [a for a in g1.legal_actions() if a.seat == seat]
            action = medium_move(g1, seat, acts, rng)
        if hidden in action.cards or deep in action.cards or action not in g2.legal_actions():
            break  # the swapped cards are about to become visible: the twins part here
        g1.apply(action)
        g2.apply(action)
        if hidden in g1.hand(0) or deep in g1.hand(0) or g1.talon_count <= 1:
            break
    return compared


def test_twin_deals_have_equal_knowledge_but_different_hands():
    g1, g2, _, _ = _twin_games(Rules(players=2), 1)
    assert g1.knowledge(0) == g2.knowledge(0)
    assert g1.knowledge(1) != g2.knowledge(1)


def test_same_knowledge_same_choice_podkidnoy():
    total = sum(_compare_along_game(Rules(players=2), seed) for seed in range(2))
    assert total >= 4


def test_same_knowledge_same_choice_perevodnoy_three_players():
    total = sum(_compare_along_game(Rules(players=3, mode="perevodnoy"), seed) for seed in range(2))
    assert total >= 3
