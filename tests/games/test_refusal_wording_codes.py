"""Every refusal code the engine raises has a wording a player reads."""

from __future__ import annotations

from durak.tests.engine.test_refusal_codes import raised_codes
from games.refusal_reasons import REASONS


def test_every_raised_code_has_a_player_wording():
    raised = raised_codes()
    assert {"not_held", "does_not_beat", "out_of_game", "not_a_neighbour"} <= raised
    assert raised <= set(REASONS), sorted(raised - set(REASONS))
