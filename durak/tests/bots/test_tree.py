"""The hard level's tree over its own decisions, on sampled deals."""

from __future__ import annotations

import random

from durak.bots import Budget, fast, get_bot, search, tree
from durak.bots.tree import TreeBot
from durak.engine import Game, Rules
from durak.tests.bots.decisions import OneDeal, decision, two_player_decisions


def test_the_hard_level_is_the_tree():
    assert isinstance(get_bot("hard"), TreeBot)


def test_the_same_seed_gives_the_same_move():
    budget = Budget(iterations=60, reproducible=True)
    checked = 0
    for seed in range(6):
        knowledge, acts = decision(Game.new(Rules(players=2), seed), random.Random(0), 12)
        if knowledge is None:
            continue
        bot = TreeBot()
        first = bot.choose_action(knowledge, random.Random(seed), budget)
        assert first in acts
        assert bot.choose_action(knowledge, random.Random(seed), budget) == first
        checked += 1
    assert checked >= 4


def _plays_on(game: Game, seat: int, rng: random.Random) -> float:
    """The rest of ``game`` with the tree bot at ``seat``, dealing itself the game as
    it stands (it knows every card), ``medium`` at the other; ``seat``'s score."""
    bot = TreeBot(samplers=lambda knowledge: OneDeal(game))
    while not game.is_over:
        s = fast.decider(game)
        acts = fast.legal(game, s)
        if s == seat and len(acts) > 1:
            move = bot.choose_action(game.knowledge(s), rng, Budget(iterations=40))
        else:
            move = fast.medium_move(game, s, acts, rng) if len(acts) > 1 else acts[0]
        game.apply(move)
    return search.score(game, seat)


def test_knowing_every_card_it_keeps_a_won_game_won():
    # Whenever one of its moves, with medium play after it on both sides, wins the real
    # game, the bot that knows the cards wins it too, choosing every later move itself.
    won = 0
    for seed, game, knowledge, acts in two_player_decisions(range(12), 6):
        after = []
        for a in acts:
            played = game.copy()
            played.apply(a)
            fast.playout(played, fast.medium_move, random.Random(0))
            after.append(search.score(played, knowledge.seat))
        if max(after) < 1.0:
            continue
        assert _plays_on(game.copy(), knowledge.seat, random.Random(seed)) == 1.0
        won += 1
    assert won >= 4


def test_the_search_stops_once_the_move_is_settled_and_the_move_is_the_same(monkeypatch):
    # With the real deal as every sample, one root action soon leads by more visits
    # than the iterations left could give any other, and the search stops there; run
    # to the end of its plan instead, it chooses the same move.
    budget = Budget(iterations=200, reproducible=True)
    spent = {True: 0, False: 0}
    checked = 0
    for seed, game, knowledge, _acts in two_player_decisions(range(8), 12):
        moves = {}
        for stops in (True, False):
            if not stops:
                monkeypatch.setattr(tree, "settled", lambda root, remaining: False)
            dealer = OneDeal(game)
            bot = TreeBot(samplers=lambda knowledge, dealer=dealer: dealer)
            moves[stops] = bot.choose_action(knowledge, random.Random(seed), budget)
            spent[stops] += dealer.dealt
            monkeypatch.undo()
        assert moves[True] == moves[False]
        checked += 1
    assert checked >= 4
    assert spent[True] < spent[False]
