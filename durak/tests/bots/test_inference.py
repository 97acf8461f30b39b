"""The public replay matches the engine, and weighted deals agree with the knowledge."""

import random

import pytest

from durak.bots.fast import decider
from durak.bots.greedy import greedy_move
from durak.bots.inference import Inference
from durak.bots.public_replay import replay
from durak.engine import Drew, Game, Rules, card_index

from .conftest import VARIANTS


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_public_replay_follows_the_game_through_random_games(variant):
    """Replayed from one seat's knowledge, every state before an action has the real
    game's public facts, and the seats drew what they really drew."""
    rules = VARIANTS[variant]
    for seed in range(3):
        game = Game.new(rules, seed)
        rng = random.Random(seed)
        states = []
        drawn = [0] * rules.players
        while not game.is_over:
            states.append((game.table(), game.bout_limit, game.phase, list(drawn)))
            acts = game.legal_actions()
            for event in game.apply(acts[rng.randrange(len(acts))]):
                if isinstance(event, Drew):
                    drawn[event.seat] += event.count
        seen = []

        def before(replayed, action, seen=seen):
            game = replayed.game
            seen.append((game.table(), game.bout_limit, game.phase, list(replayed.drawn)))

        # Any seat's knowledge would do: the replay reads only the public history.
        knowledge = game.knowledge(seed % rules.players)
        replayed = replay(knowledge, before)
        assert seen == states
        assert replayed.drawn == drawn
        assert replayed.game.result == game.result


def test_public_replay_follows_games_with_a_trump_six_swap():
    """After a swap the six lies face up and the card it replaced is hidden in the
    swapper's hand until played, possibly after other trumps, and it may be taken and
    played by another seat. The replay still follows every action of such games."""
    rules = Rules(players=2, trump_six_swap=True)
    swapped = 0
    for seed in range(60):
        game = Game.new(rules, seed)
        rng = random.Random(seed)
        while not game.is_over:
            acts = game.legal_actions()
            game.apply(acts[rng.randrange(len(acts))])
        if not any(a.kind == "swap" for a in game.history):
            continue
        swapped += 1
        for seat in (0, 1):
            replayed = replay(game.knowledge(seat))
            assert replayed.game.history == game.history, (seed, seat)
            assert replayed.game.result == game.result
    assert swapped >= 10


def test_public_replay_stops_where_a_history_leaves_the_deal():
    """A made-up position's history need not fit a deal: here the first bout of a deal
    would hold five cards, and the position's bout takes a sixth. The replay follows the history up to there and
    stops instead of failing."""
    rules = Rules(players=2, first_bout_limit=5)
    game = Game.from_position(rules, ["6C 6D 6H 6S 7H 7S", "7C 7D 8H 8S AH AS"], "AD")
    history = [
        "0 attack 6C 6D 6H 6S",
        "1 defend 6C 7C",
        "1 defend 6D 7D",
        "1 defend 6H 8H",
        "1 defend 6S 8S",
        "0 attack 7H",
        "1 defend 7H AH",
        "0 attack 7S",
    ]
    for action in history:
        game.apply(action)
    replayed = replay(game.knowledge(1))
    # The fifth card ended the deal's first bout, so the sixth attack is out of turn there.
    assert [str(a) for a in replayed.game.history] == history[:-1]


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
