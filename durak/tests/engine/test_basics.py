import pytest

from durak.engine import Action, Game, IllegalAction, Rules

from .helpers import game_for, play


def test_deal_deck_order_and_trump_is_talon_bottom():
    g = game_for(["6C 7C 8C 9C TC JC", "6D 7D 8D 9D TD JD"], trump="6H", talon="QC QD")
    assert g.hand(0) == ["6C", "7C", "8C", "9C", "TC", "JC"]
    assert g.hand(1) == ["6D", "7D", "8D", "9D", "TD", "JD"]
    assert g.trump == "6H"
    snap = g.snapshot()
    assert snap["talon"][:2] == ["QC", "QD"]
    assert snap["talon"][-1] == "6H"
    assert g.view(0)["talon"] == 24


def test_action_text_round_trip():
    for text in [
        "0 attack 6H",
        "1 defend 6H TH",
        "2 transfer 6S 6C",
        "1 show 6D",
        "0 take",
        "3 done",
        "0 swap",
        "1 resign",
    ]:
        a = Action.parse(text)
        assert Action.parse(str(a)) == a
    assert str(Action.parse("2 transfer 6S 6C")) == "2 transfer 6C 6S"
    assert Action(0, "attack", ("6H",)) == Action.parse("0 attack 6H")
    with pytest.raises(ValueError):
        Action.parse("zero attack 6H")
    with pytest.raises(ValueError):
        Action.parse("0 attack 1H")
    with pytest.raises(IllegalAction):
        Action.parse("0 fly")


def test_simple_bout_beaten_then_defender_attacks():
    g = game_for(["6C 7C 8C 9C TC JC", "6D 7D 8D 9D TD AC"], trump="6H", talon="")
    # no trumps dealt: the first attacker is drawn; force seat 0 for the test
    g = game_for(["6C 7C 8C 9C TC JC", "6D 7D 8D 9D TD AC"], trump="6H", first_attacker=0)
    play(g, "0 attack 6C", "1 defend 6C AC", "0 done")
    assert g.attacker == 1 and g.defender == 0
    assert g.view(None)["discard"] == 2
    assert g.hand_counts() == [6, 6]


def test_illegal_leaves_state_unchanged():
    g = Game.new(Rules(), 3)
    before = g.snapshot()
    with pytest.raises(IllegalAction):
        g.apply(f"{g.defender} take")
    assert g.snapshot() == before
