"""The hard search spends a move's budget as playout actions, not as a fixed count."""

import random

from durak.bots import Budget, fast, search
from durak.bots.search import MAX_STRETCH, evaluate
from durak.engine import Game, Rules
from durak.tests.bots.decisions import OneDeal, decision


def test_shorter_late_playouts_come_more_often_within_the_stretch():
    budget = Budget(iterations=40)
    compared = 0
    for seed in range(20):
        opening, opening_acts = decision(Game.new(Rules(players=2), seed), random.Random(0), 24)
        late, late_acts = decision(Game.new(Rules(players=2), seed), random.Random(0), 4)
        if opening is None or late is None or late.talon_count == 0:
            continue
        early_visits, _, _ = evaluate(opening, opening_acts, random.Random(1), budget)
        late_visits, _, _ = evaluate(late, late_acts, random.Random(1), budget)
        assert sum(late_visits) > sum(early_visits)
        assert sum(late_visits) <= MAX_STRETCH * budget.iterations
        compared += 1
    assert compared >= 5


def test_every_action_is_played_out_on_the_first_deals():
    game = Game.new(Rules(players=2), 3)
    knowledge, acts = decision(game, random.Random(0), 24)
    visits, total, survived = evaluate(knowledge, acts, random.Random(1), Budget(iterations=30))
    assert all(v > 0 for v in visits)
    assert all(0 <= t <= v for t, v in zip(total, visits, strict=True))
    assert max(survived) > min(survived) or len(acts) <= 2


def test_a_deal_drawn_again_reuses_its_playouts(monkeypatch):
    # With the talon gone every hidden card is in the one opponent's hand, so every
    # sampled deal is the same: each action is played out once, then looked up.
    knowledge = None
    for seed in range(20):
        knowledge, acts = decision(Game.new(Rules(players=2), seed), random.Random(0), 0)
        if knowledge is not None:
            break
    assert knowledge is not None
    played = []
    playout = fast.playout

    def counting_playout(g, policy, rng):
        played.append(g)
        return playout(g, policy, rng)

    monkeypatch.setattr(search.fast, "playout", counting_playout)
    visits, total, _ = evaluate(knowledge, acts, random.Random(1), Budget(iterations=40))
    assert len(played) == len(acts)
    assert sum(visits) > 2 * len(acts)
    # The same outcome every time: a loss, a draw or a win in each of them.
    assert all(t / v in (0.0, 0.5, 1.0) for t, v in zip(total, visits, strict=True))


def _endgames(count: int):
    """Positions with an empty talon, where every sampled deal is the same one."""
    found = []
    for seed in range(60):
        knowledge, acts = decision(Game.new(Rules(players=2), seed), random.Random(0), 0)
        if knowledge is not None and knowledge.talon_count == 0:
            found.append((knowledge, acts))
        if len(found) == count:
            break
    return found


def test_a_clear_decision_stops_early_and_a_close_one_uses_the_whole_budget():
    # With every deal the same, an action that loses where another wins is behind on
    # every deal: the race drops it early, and a lone winner ends the search. Where
    # every action ends alike nothing is clear, and the search spends its whole plan.
    budget = Budget(iterations=400)
    clear = close = 0
    for knowledge, acts in _endgames(40):
        visits, total, _ = evaluate(knowledge, acts, random.Random(1), budget)
        means = [t / v for t, v in zip(total, visits, strict=True)]
        if means.count(max(means)) == 1:
            assert sum(visits) < budget.iterations
            clear += 1
        elif len(set(means)) == 1:
            assert sum(visits) >= budget.iterations
            close += 1
    assert clear and close


def test_the_same_seed_gives_the_same_move():
    budget = Budget(iterations=60, reproducible=True)
    for seed in range(6):
        knowledge, _ = decision(Game.new(Rules(players=2), seed), random.Random(0), 12)
        if knowledge is None:
            continue
        bot = search.HardBot()
        first = bot.choose_action(knowledge, random.Random(seed), budget)
        assert bot.choose_action(knowledge, random.Random(seed), budget) == first


def test_the_bot_plays_out_the_deals_of_its_sampler():
    # A sampler that always deals the real game: every playout of an action ends alike,
    # and the bot's move is one that wins that game whenever one does.
    checked = 0
    for seed in range(30):
        game = Game.new(Rules(players=2), seed)
        knowledge, acts = decision(game, random.Random(0), 18)
        if knowledge is None:
            continue
        sampler = OneDeal(game)
        visits, total, _ = evaluate(
            knowledge, acts, random.Random(1), Budget(iterations=40), sampler=sampler
        )
        assert sampler.dealt > 0
        assert all(t / v in (0.0, 0.5, 1.0) for t, v in zip(total, visits, strict=True) if v)
        bot = search.HardBot(samplers=lambda k, game=game: OneDeal(game))
        move = bot.choose_action(knowledge, random.Random(1), Budget(iterations=40))
        best = max(search.score(_after(game, a), knowledge.seat) for a in acts)
        assert search.score(_after(game, move), knowledge.seat) == best
        checked += 1
    assert checked >= 10


def _after(game: Game, action) -> Game:
    """``game`` after ``action``, played out by ``medium`` for both seats."""
    played = game.copy()
    played.apply(action)
    fast.playout(played, fast.medium_move, random.Random(0))
    return played
