"""``legal_actions(seat, defences=False)``: the seat's legal actions less its defences."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import Game

from .test_properties import rules_strategy


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rules_strategy(), seed=st.integers(0, 2**32))
def test_without_defences_lists_every_other_action_of_the_seat_in_order(rules, seed):
    rng = random.Random(seed)
    game = Game.new(rules, rng)
    defended = False
    while not game.is_over:
        for seat in range(game.players):
            full = game.legal_actions(seat)
            rest = game.legal_actions(seat, defences=False)
            assert rest == [a for a in full if a.kind != "defend"]
            defended = defended or len(rest) < len(full)
        game.apply(rng.choice(game.legal_actions()))
    assert defended or not any(a.kind == "defend" for a in game.history)
