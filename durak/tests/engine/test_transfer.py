"""Perevodnoy: transfers, their limits, the trump-show transfer."""

import pytest

from durak.engine import Game, IllegalAction, Rules

from .helpers import kinds, play

P3 = Rules(players=3, mode="perevodnoy")
SHOW3 = Rules(players=3, mode="perevodnoy", trump_show_transfer=True)


def test_transfer_chain():
    g = Game.from_position(P3, ["6C 9S 9C 9D", "6D TD JD", "6S QS KS AS"], "6H", talon="7C 8C 6H")
    play(g, "0 attack 6C")
    assert "1 transfer 6D" in {str(a) for a in g.legal_actions()}
    ev = play(g, "1 transfer 6D")
    assert ev[0].kind == "transferred" and ev[0].defender == 2
    assert (g.attacker, g.defender) == (1, 2)
    ev = play(g, "2 transfer 6S")
    assert (g.attacker, g.defender) == (2, 0)
    assert g.table() == [["6C", None], ["6D", None], ["6S", None]]
    # Seat 0 held 3 cards: the limit is reached, so the pick-up is immediate.
    ev = play(g, "0 take")
    assert "cards_taken" in kinds(ev)
    # The taker loses the turn: the player after it attacks.
    assert (g.attacker, g.defender) == (1, 2)


def test_transfer_refused_when_the_next_player_holds_too_few_cards():
    g = Game.from_position(P3, ["6C 9S", "6D TD JD", "6S QS KS AS"], "6H", talon="7C 8C 6H")
    play(g, "0 attack 6C", "1 transfer 6D")
    assert not any(a.kind == "transfer" for a in g.legal_actions())
    with pytest.raises(IllegalAction, match="seat 0 holds 1 card"):
        g.apply("2 transfer 6S")


def test_transfer_with_several_cards_and_back_to_the_attacker():
    rules = Rules(mode="perevodnoy")
    g = Game.from_position(rules, ["6C 9S 9C 9D", "6D 6S JD"], "6H", talon="7C 8C 6H")
    play(g, "0 attack 6C", "1 transfer 6D 6S")
    assert (g.attacker, g.defender) == (1, 0)
    assert len(g.table()) == 3


def test_transfer_refused_after_a_card_is_beaten_or_with_another_rank():
    rules = Rules(mode="perevodnoy")
    g = Game.from_position(rules, ["6C 6S 9C 9D", "6D 7C JD KD"], "6H", talon="7D 8C 6H")
    play(g, "0 attack 6C 6S")
    with pytest.raises(IllegalAction, match="rank 6"):
        g.apply("1 transfer 7C")
    play(g, "1 defend 6C 7C")
    with pytest.raises(IllegalAction, match="already beaten"):
        g.apply("1 transfer 6D")


def test_transfer_keeps_the_bout_limit():
    rules = Rules(mode="perevodnoy", first_bout_limit=3)
    hands = ["6C 6S 9C 9D 8C 8D", "6D 6H JD KD QD AD"]
    g = Game.new(rules, 1)
    g = Game(rules, _deck(hands), first_attacker=0)
    play(g, "0 attack 6C 6S")
    with pytest.raises(IllegalAction, match="at most 3"):
        g.apply("1 transfer 6D 6H")
    play(g, "1 transfer 6D")


def _deck(hands):
    from .helpers import deck_for

    return deck_for(hands, trump="AS")


def test_transfer_not_in_podkidnoy():
    g = Game.from_position(Rules(), ["6C 9S", "6D TD"], "6H", talon="7C 8C 6H")
    play(g, "0 attack 6C")
    with pytest.raises(IllegalAction, match="perevodnoy"):
        g.apply("1 transfer 6D")


def test_trump_show_transfer():
    g = Game.from_position(SHOW3, ["6C 9S 9C", "6H TD JD", "7S QS KS AS"], "AH", talon="7C 8C AH")
    play(g, "0 attack 6C")
    assert "1 show 6H" in {str(a) for a in g.legal_actions()}
    ev = play(g, "1 show 6H")
    assert ev[0].kind == "shown" and ev[0].card == "6H" and ev[0].defender == 2
    assert (g.attacker, g.defender) == (1, 2)
    assert "6H" in g.hand(1)  # shown, not played
    assert g.table() == [["6C", None]]
    assert g.knowledge(0).known_cards(1) == ["6H"]


def test_trump_show_each_card_once_per_bout():
    g = Game.from_position(
        SHOW3, ["6C 6S 9C 9D", "6H TD JD QD", "6D QS KS AS"], "AH", talon="7C 8C AH"
    )
    play(g, "0 attack 6C", "1 show 6H", "2 transfer 6D", "0 transfer 6S")
    assert g.defender == 1
    with pytest.raises(IllegalAction, match="already shown"):
        g.apply("1 show 6H")


def test_trump_show_only_the_trump_of_the_attack_rank():
    g = Game.from_position(SHOW3, ["6C 9S 9C", "7H 6D JD", "7S QS KS AS"], "AH", talon="7C 8C AH")
    play(g, "0 attack 6C")
    with pytest.raises(IllegalAction, match="6H"):
        g.apply("1 show 7H")
    with pytest.raises(IllegalAction, match="no trump-show"):
        Game.from_position(P3, ["6C", "6H 7D", "8S 9S"], "AH", talon="7C AH").apply("1 show 6H")


def test_transfer_drawing_order_principal_attacker_first():
    # 0 leads, 1 transfers to 2, 2 beats: 1 is now the principal attacker and draws first.
    hands = ["6C 9S 9C 9D", "6D TD JD", "7C 7D QS KS AS"]
    g = Game.from_position(P3, hands, "6H", talon="8C 8D 8S 8H JC QC 6H")
    play(g, "0 attack 6C", "1 transfer 6D", "2 defend 6C 7C", "2 defend 6D 7D", "1 done")
    ev = play(g, "0 done")
    assert [(e.seat, e.count) for e in ev if e.kind == "drew"] == [(1, 4), (0, 3)]
