"""Trump-six swap."""

import pytest

from durak.engine import Game, IllegalAction, Rules

from .helpers import game_for, play

SW = Rules(trump_six_swap=True)


def test_trump_six_swap_by_the_original_holder():
    g = game_for(["6H 7C 8C 9C TC JC", "7D 8D 9D TD JD QD"], trump="AH", rules=SW)
    assert "0 swap" in {str(a) for a in g.legal_actions()}
    ev = g.apply("0 swap")
    assert ev[0].kind == "swapped" and ev[0].six == "6H" and ev[0].trump == "AH"
    assert "AH" in g.hand(0) and "6H" not in g.hand(0)
    assert g.trump == "6H" and g.snapshot()["talon"][-1] == "6H"
    assert g.knowledge(1).known_cards(0) == ["AH"]
    assert not any(a.kind == "swap" for a in g.legal_actions())  # only once


def test_trump_six_swap_time_limit_until_the_next_bout_begins():
    hands = ["7C 7D 8S 9S TS JS", "6H 8C 8D QS KS AS"]
    g = Game.from_position(SW, hands, "AH", talon="QC AH", attacker=0)
    play(g, "0 attack 7C 7D", "1 defend 7C 8C", "1 defend 7D 8D", "0 done")
    # Seat 0 drew the face-up ace; the talon is empty, the next bout has not begun.
    assert g.talon_count == 0 and "AH" in g.hand(0)
    late = g.copy()
    ev = g.apply("1 swap")
    assert ev[0].other == 0
    assert "AH" in g.hand(1) and "6H" in g.hand(0)
    assert g.knowledge(1).known_cards(0) == ["6H"]
    play(late, "1 attack QS")
    with pytest.raises(IllegalAction, match="too late"):
        late.apply("1 swap")


def test_trump_six_swap_not_by_a_player_who_picked_it_up():
    hands = ["6H 7C 8S 9S TS JS", "8C 8D QS KS AS QD"]
    g = Game.from_position(SW, hands, "AH", talon="QC 7D AH", attacker=0)
    play(g, "0 attack 6H", "1 take", "0 done")
    assert "6H" in g.hand(1)
    with pytest.raises(IllegalAction, match="no longer"):
        g.apply("1 swap")


def test_trump_six_swap_impossible_when_the_six_is_face_up():
    g = game_for(["7H 7C 8C 9C TC JC", "7D 8D 9D TD JD QD"], trump="6H", rules=SW)
    assert not any(a.kind == "swap" for a in g.legal_actions())
    with pytest.raises(IllegalAction):
        g.apply("0 swap")


def test_trump_six_swap_only_with_the_option():
    g = game_for(["6H 7C 8C 9C TC JC", "7D 8D 9D TD JD QD"], trump="AH")
    with pytest.raises(IllegalAction, match="no trump-six swap"):
        g.apply("0 swap")
