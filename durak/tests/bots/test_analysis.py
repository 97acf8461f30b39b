"""Post-game analysis marks a planted blunder and not the good moves around it."""

import random

from durak.bots import endgame, fast
from durak.bots.analysis import AnalysisBudget, analyse_game, analyse_record
from durak.engine import Game, Rules

BUDGET = AnalysisBudget(seconds=0.05, samples=3, min_samples=2)


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
    assert marked["before"] == 100.0 and marked["after"] == 0.0
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
    assert at_move["after"] == 100.0
