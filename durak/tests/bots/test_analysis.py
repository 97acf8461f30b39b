"""Post-game analysis marks a planted blunder and not the good moves around it, and its
numbers agree: the chances at a step share one fool, and a decision's step is worth
its best move."""

import random

from durak.bots import endgame, fast
from durak.bots.analysis import (
    RACE_FROM,
    AnalysisBudget,
    analyse_game,
    analyse_record,
    calibrated,
    option_vectors,
    whole_points,
)
from durak.engine import Game, Rules

BUDGET = AnalysisBudget(seconds=0.05, samples=16)
# How a two-player endgame won with best play is shown.
WON = whole_points(calibrated([100.0, 0.0]))[0]


def _game_with_blunder(seed_range=range(60)):
    """A real game in which one seat, in a solved endgame, picks a losing move over a
    winning one; everyone else plays on with the medium policy."""
    for seed in seed_range:
        g = Game.new(Rules(players=2), seed)
        rng = random.Random(seed)
        while not g.is_over:
            s = fast.decider(g)
            acts = fast.legal(g, s)
            if endgame.applicable(g) and len(acts) > 1 and sum(g.hand_counts()) <= 10:
                values = endgame.solve_all(g, s)
                if values and any(values.values()) and not all(values.values()):
                    blunder = next(a for a, v in values.items() if not v)
                    move = len(g.history)
                    g.apply(blunder)
                    fast.playout(g, fast.medium_move, rng)
                    winning = {str(a) for a, v in values.items() if v}
                    return g, s, move, str(blunder), winning
            g.apply(fast.medium_move(g, s, acts, rng) if len(acts) > 1 else acts[0])
    raise AssertionError("no position with a planted blunder found")


def test_planted_blunder_is_marked_with_the_better_action():
    game, seat, move, blunder, winning = _game_with_blunder()
    seen = []
    report = analyse_game(game, seat, BUDGET, progress=lambda d, t: seen.append((d, t)))
    by_move = {d["move"]: d for d in report["decisions"]}
    marked = by_move[move]
    assert marked["action"] == blunder
    assert marked["exact"]
    assert marked["mistake"]
    # A won endgame is shown as its calibrated chance, a lost one as the rest.
    assert (marked["before"], marked["after"]) == (WON, 100.0 - WON)
    assert marked["best"] in winning
    assert all(d["seat"] == seat for d in report["decisions"])
    # Progress runs from 0 to every move.
    assert seen[0][0] == 0 and seen[-1][0] == seen[-1][1] == len(game.history)


def test_winning_move_in_a_solved_endgame_is_not_a_mistake():
    game, seat, move, blunder, winning = _game_with_blunder()
    record = game.to_record()
    # Replace the blunder with a winning move and play on: no mistake at that move.
    replay = Game.from_record({**record, "actions": record["actions"][:move], "result": None})
    replay.apply(sorted(winning)[0])
    fast.playout(replay, fast.medium_move, random.Random(0))
    report = analyse_record(replay.to_record(), [seat], BUDGET)
    at_move = next(d for d in report["decisions"] if d["move"] == move)
    assert not at_move["mistake"]
    assert at_move["after"] == WON


def _medium_game(players: int, seed: int) -> Game:
    g = Game.new(Rules(players=players), seed)
    rng = random.Random(seed)
    while not g.is_over:
        s = fast.decider(g)
        acts = fast.legal(g, s)
        g.apply(fast.medium_move(g, s, acts, rng) if len(acts) > 1 else acts[0])
    return g


def test_the_chances_at_every_step_share_one_fool():
    for players, seed in ((2, 4), (4, 5)):
        game = _medium_game(players, seed)
        report = analyse_record(game.to_record(), None, BUDGET)
        assert len(report["chances"]) == len(game.history) + 1
        for point in report["chances"]:
            assert sum(point) == 100 * (players - 1), point
            assert all(chance == int(chance) for chance in point), point


def test_a_decisions_step_is_worth_its_best_move_and_the_loss_is_read_from_the_options():
    game = _medium_game(2, 6)
    report = analyse_record(game.to_record(), None, BUDGET)
    assert report["decisions"]
    for decision in report["decisions"]:
        values = decision["values"]
        assert decision["before"] == max(values.values())
        assert decision["after"] == values[decision["action"]]
        assert values[decision["best"]] == decision["before"]
        assert decision["loss"] == decision["before"] - decision["after"]
        point = report["chances"][decision["move"]]
        assert point[decision["seat"]] == decision["before"]


def test_whole_points_keep_the_sum_and_round_the_largest_remainders_up():
    assert whole_points([62.5, 37.5]) == [63.0, 37.0]
    assert whole_points([62.4, 37.6]) == [62.0, 38.0]
    assert whole_points([33.4, 33.3, 33.3, 100.0]) == [34.0, 33.0, 33.0, 100.0]
    assert sum(whole_points([12.25, 40.5, 47.25])) == 100.0


def test_a_raced_decision_values_the_move_played_and_the_best_on_every_sample():
    # Options far behind the leader keep a rough value; the move played and the best
    # must be worth exactly what a search of that option alone on all samples gives.
    budget = AnalysisBudget(seconds=60.0, samples=24)
    for seed in range(6):
        game = Game.new(Rules(players=2), seed)
        seat = fast.decider(game)
        acts = game.legal_actions(seat)
        assert len(acts) >= RACE_FROM
        knowledge = game.knowledge(seat)
        for played in (0, len(acts) - 1):
            vectors, exact, _deals = option_vectors(knowledge, acts, seed, budget, played)
            assert not exact
            mine = [vector[seat] for vector in vectors]
            best = max(range(len(acts)), key=mine.__getitem__)
            for i in {played, best}:
                alone, _exact, _deals = option_vectors(knowledge, [acts[i]], seed, budget)
                assert vectors[i] == alone[0]


def test_two_seats_chances_are_shown_calibrated_and_still_add_up_and_keep_their_order():
    shown = [calibrated([p, 100.0 - p]) for p in range(0, 101, 5)]
    assert all(a + b == 100.0 for a, b in shown)
    firsts = [a for a, _ in shown]
    assert all(a < b for a, b in zip(firsts, firsts[1:], strict=False))
    assert calibrated([50.0, 50.0]) == [50.0, 50.0]
    # Toward the middle: the judge's own chances are too sure of themselves.
    assert 50.0 < calibrated([85.0, 15.0])[0] < 85.0
    assert 0.0 < WON < 100.0
    # More seats: the judge's own chances.
    assert calibrated([10.0, 90.0, 100.0]) == [10.0, 90.0, 100.0]


def test_a_two_player_analysis_says_which_calibration_its_chances_have():
    two = analyse_record(_medium_game(2, 1).to_record(), [0], BUDGET)
    three = analyse_record(_medium_game(3, 1).to_record(), [0], BUDGET)
    assert two["calibration"] is not None and three["calibration"] is None
    assert all(sum(point) == 100.0 for point in two["chances"])
