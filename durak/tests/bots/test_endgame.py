"""The endgame solver agrees with plain brute-force minimax on small positions."""

import random

from durak.bots import Budget, endgame, fast, get_bot
from durak.bots.base import rebuild
from durak.engine import Game, Rules


class Cycle(Exception):
    """The position can repeat (transfers); brute force does not judge those."""


def brute(g: Game, seat: int, memo: dict | None = None, path: set | None = None) -> bool:
    """Exhaustive minimax over every child, no pruning, no move ordering (memoised on the
    full state to stay fast): can ``seat`` avoid being the fool?"""
    memo = {} if memo is None else memo
    path = set() if path is None else path
    if g.is_over:
        return fast.not_fool(g, seat) > 0.5
    key = (seat, g.position_key())
    if key in memo:
        return memo[key]
    if key in path:
        raise Cycle
    path.add(key)
    s = fast.decider(g)
    results = []
    for a in fast.legal(g, s):
        child = g.copy()
        child.apply(a)
        results.append(brute(child, seat, memo, path))
    path.discard(key)
    mine = s == seat or (g.rules.teams and g.team_of(s) == g.team_of(seat))
    memo[key] = any(results) if mine else all(results)
    return memo[key]


def small_endgames(rules: Rules, max_cards: int, count: int) -> list[Game]:
    out = []
    seed = 0
    while len(out) < count and seed < 400:
        g = Game.new(rules, seed)
        rng = random.Random(seed)
        seed += 1
        while not g.is_over:
            s = fast.decider(g)
            acts = fast.legal(g, s)
            if (
                endgame.applicable(g)
                and len(acts) > 1
                and sum(g.hand_counts()) <= max_cards
                and min(c for c in g.hand_counts() if c) >= 2
            ):
                out.append(g.copy())
                break
            g.apply(fast.random_move(g, s, acts, rng))
    return out


def _check(positions: list[Game]) -> tuple[int, int]:
    wins = losses = 0
    for g in positions:
        seat = fast.decider(g)
        values = endgame.solve_all(g, seat)
        assert values is not None
        try:
            exact = {}
            for action in values:
                child = g.copy()
                child.apply(action)
                exact[action] = brute(child, seat)
        except Cycle:
            continue
        assert values == exact, f"{g.view(seat)}"
        best, _ = endgame.solve(g, seat)
        if any(values.values()):
            assert best is not None and values[best]
            wins += 1
        else:
            assert best is None
            losses += 1
        # The hard bot, given only the seat's knowledge, plays a winning move when one exists.
        choice = get_bot("hard").choose_action(
            g.knowledge(seat), random.Random(0), Budget(iterations=10)
        )
        assert choice in values
        if any(values.values()):
            assert values[choice]
    return wins, losses


def test_solver_matches_brute_force_podkidnoy():
    positions = small_endgames(Rules(players=2), 6, 12)
    assert len(positions) >= 10
    wins, losses = _check(positions)
    assert wins >= 2 and losses >= 2  # both kinds of position were covered


def test_solver_matches_brute_force_perevodnoy():
    positions = small_endgames(Rules(players=2, mode="perevodnoy"), 6, 8)
    wins, losses = _check(positions)
    assert wins + losses >= 5


def test_solver_matches_brute_force_teams():
    positions = small_endgames(Rules(players=4, teams="2x2"), 5, 6)
    wins, losses = _check(positions)
    assert wins + losses >= 4


def test_with_only_the_trump_left_in_the_talon_the_position_is_known_exactly():
    # The talon's last card is the face-up trump, so every hidden card is in the one
    # opponent's hand: the seat's knowledge pins the whole position and the solver applies.
    seen = 0
    for seed in range(40):
        g = Game.new(Rules(players=2), seed)
        rng = random.Random(seed)
        while g.talon_count > 1:
            s = fast.decider(g)
            g.apply(fast.random_move(g, s, fast.legal(g, s), rng))
        if g.is_over or g.talon_count != 1:
            continue
        seat = fast.decider(g)
        rebuilt = rebuild(g.knowledge(seat))
        assert endgame.applicable(rebuilt)
        assert rebuilt.position_key() == g.position_key()
        seen += 1
    assert seen >= 10


def test_solver_waits_for_an_empty_talon_with_more_than_two_players():
    g = Game.new(Rules(players=3), 0)
    rng = random.Random(0)
    while g.talon_count > 1:
        s = fast.decider(g)
        g.apply(fast.random_move(g, s, fast.legal(g, s), rng))
    assert g.talon_count == 1 and not endgame.applicable(g)
