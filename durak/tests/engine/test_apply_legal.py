"""``apply_legal``, the unchecked fast path, plays every legal action as ``apply`` does."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from durak.engine import Game

from .test_properties import rules_strategy


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rules_strategy(), seed=st.integers(0, 2**32))
def test_apply_legal_gives_the_same_game_and_events_as_apply(rules, seed):
    rng = random.Random(seed)
    checked = Game.new(rules, rng)
    fast = checked.copy()
    while not checked.is_over:
        action = rng.choice(checked.legal_actions())
        assert fast.apply_legal(action) == checked.apply(action)
        assert fast.snapshot() == checked.snapshot()
        assert fast.legal_actions() == checked.legal_actions()
    assert fast.result == checked.result
