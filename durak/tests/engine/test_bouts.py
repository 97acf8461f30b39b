"""Leading, beating, throwing in, limits, ending the attack, taking, drawing, next bout."""

import pytest

from durak.engine import Game, IllegalAction, Rules

from .helpers import game_for, kinds, play

R52_7 = Rules(players=2, deck_size=52, hand_size=7)


def legal(g: Game) -> set[str]:
    return {str(a) for a in g.legal_actions()}


# ---------------------------------------------------------------- leading


def test_leading_several_cards_of_one_rank():
    g = game_for(["6C 6D 8C 9C TC JC", "7D 8D 9D TD JD QD"], trump="6H", first_attacker=0)
    assert "0 attack 6C 6D" in legal(g)
    ev = play(g, "0 attack 6D 6C")
    assert ev[0].kind == "attacked" and ev[0].cards == ("6C", "6D") and ev[0].lead


def test_leading_mixed_ranks_refused():
    g = game_for(["6C 6D 8C 9C TC JC", "7D 8D 9D TD JD QD"], trump="6H", first_attacker=0)
    with pytest.raises(IllegalAction, match="one rank"):
        g.apply("0 attack 6C 8C")


def test_leading_one_card_only_option():
    rules = Rules(multi_card_lead=False)
    g = game_for(
        ["6C 6D 8C 9C TC JC", "7D 8D 9D TD JD QD"], trump="6H", rules=rules, first_attacker=0
    )
    assert "0 attack 6C 6D" not in legal(g)
    with pytest.raises(IllegalAction, match="one card on the lead"):
        g.apply("0 attack 6C 6D")
    g.apply("0 attack 6C")
    assert "0 attack 6D" in legal(g)  # the second six is still a legal throw-in


def test_leading_only_the_attacker_leads():
    g = game_for(["6C 6D 8C 9C TC JC", "7D 8D 9D TD JD QD"], trump="6H", first_attacker=0)
    with pytest.raises(IllegalAction, match="seat 0 leads"):
        g.apply("1 attack 7D")


# ---------------------------------------------------------------- beating


def test_beating_higher_same_suit_or_any_trump_no_need_to_follow_suit():
    hands = ["9C 7H 8S 9S TS JS", "TC 8C 6H 8H AS 7D"]
    g = game_for(hands, trump="QH", first_attacker=0)
    g.apply("0 attack 9C")
    assert {"1 defend 9C TC", "1 defend 9C 6H", "1 defend 9C 8H"} <= legal(g)
    with pytest.raises(IllegalAction, match="does not beat"):
        g.apply("1 defend 9C 8C")
    with pytest.raises(IllegalAction, match="does not beat"):
        g.apply("1 defend 9C AS")
    g.apply("1 defend 9C 6H")  # trumping although holding a higher club


def test_beating_a_trump_only_by_a_higher_trump():
    hands = ["7H 9C 8S 9S TS JS", "6H 8H AS AC AD 7D"]
    g = game_for(hands, trump="QH", first_attacker=0)
    g.apply("0 attack 7H")
    assert "1 defend 7H 8H" in legal(g)
    for bad in ("1 defend 7H 6H", "1 defend 7H AS"):
        with pytest.raises(IllegalAction):
            g.apply(bad)


# ---------------------------------------------------------------- throwing in


def test_throw_in_ranks_from_defending_cards():
    g = game_for(["6C 9D 7D 8S 9S TS", "9C TC JC QC KC AC"], trump="6H", first_attacker=0)
    play(g, "0 attack 6C", "1 defend 6C 9C")
    assert "0 attack 9D" in legal(g)  # 9 came from the defence
    assert "0 attack 9D 9S" in legal(g)
    with pytest.raises(IllegalAction, match="not on the table"):
        g.apply("0 attack 7D")
    play(g, "0 attack 9D")


def test_throw_in_allowed_while_earlier_cards_are_unbeaten():
    g = game_for(["6C 6D 8S 9S TS JS", "9C TC JC QC KC AC"], trump="6H", first_attacker=0)
    play(g, "0 attack 6C", "0 attack 6D")
    assert g.table() == [["6C", None], ["6D", None]]


def test_throw_in_all_opponents_with_four_players():
    hands = ["6C 7C 8C 9C TC JC", "AC KD QD JD TD 9D", "6D 7S 8S 9S TS JS", "6S QS KS AS 7D 8D"]
    g = game_for(hands, trump="6H", first_attacker=0)
    play(g, "0 attack 6C")
    assert {"2 attack 6D", "3 attack 6S"} <= legal(g)
    play(g, "2 attack 6D", "3 attack 6S")


def test_throw_in_neighbours_only_with_five_players():
    rules = Rules(players=5)
    hands = [
        "6C 7C 8C 9C TC JC",
        "AC KD QD JD TD 9D",
        "6D 7S 8S 9S TS JS",
        "6S QS KS AS 7D 8D",
        "QC KC 7H 8H 9H TH",
    ]
    g = game_for(hands, trump="6H", rules=rules, first_attacker=0)
    play(g, "0 attack 6C")
    assert "2 attack 6D" in legal(g)  # the defender's other neighbour
    with pytest.raises(IllegalAction, match="neighbours"):
        g.apply("3 attack 6S")
    assert g.view(None)["attackers"] == [0, 2]


def test_throw_in_attacker_only_option():
    rules = Rules(players=3, throw_in="attacker")
    hands = ["6C 7C 8C 9C TC JC", "AC KD QD JD TD 9D", "6D 7S 8S 9S TS JS"]
    g = game_for(hands, trump="6H", rules=rules, first_attacker=0)
    play(g, "0 attack 6C")
    with pytest.raises(IllegalAction, match="principal attacker"):
        g.apply("2 attack 6D")
    play(g, "1 defend 6C AC")  # only seat 0 needs to say done
    ev = play(g, "0 done")
    assert "bout_beaten" in kinds(ev)


# ---------------------------------------------------------------- limits


def test_limits_six_attack_cards():
    hands = ["6C 6D 6S 6H 7C 7D 7S", "7H 8C 8D 8S 9C 9D 9S"]
    g = game_for(hands, trump="AH", rules=R52_7, first_attacker=0)
    play(g, "0 attack 6C 6D 6S 6H", "1 defend 6C 7H", "0 attack 7C 7D")
    assert g.view(None)["cards_allowed"] == 0
    with pytest.raises(IllegalAction, match="limit is 6"):
        g.apply("0 attack 7S")


def test_limits_six_beaten_cards_end_the_bout():
    hands = ["6C 6D 6S 7C 7D 7S 2C", "7H 8D 8S 9C 9D 9S 2D"]
    g = game_for(hands, trump="AH", rules=R52_7, first_attacker=0)
    play(g, "0 attack 6C 6D 6S", "1 defend 6C 7H", "0 attack 7C 7D 7S")
    ev = play(g, "1 defend 6D 8D", "1 defend 6S 8S", "1 defend 7C 9C", "1 defend 7D 9D")
    assert "bout_beaten" not in kinds(ev)
    ev = play(g, "1 defend 7S 9S")
    assert "bout_beaten" in kinds(ev)  # no "done" needed: nothing more may be played


def test_limits_defender_hand():
    g = Game.from_position(Rules(), ["6C 6D 6S 6H 7C", "8C 8D 9S"], trump="AH", attacker=0)
    assert g.view(None)["bout_limit"] == 3
    with pytest.raises(IllegalAction, match="at most 3"):
        g.apply("0 attack 6C 6D 6S 6H")
    play(g, "0 attack 6C", "1 defend 6C 8C")
    # Unbeaten cards never outnumber the defender's cards: 2 left, so 2 more at most.
    play(g, "0 attack 6D 6S")
    with pytest.raises(IllegalAction, match="limit is 3"):
        g.apply("0 attack 6H")


def test_limits_first_bout_five():
    rules = Rules(first_bout_limit=5)
    hands = ["6C 6D 6S 7C 7D 7S", "7H 8D 8S 9C 9D 9S"]
    g = game_for(hands, trump="AH", rules=rules, first_attacker=0)
    assert g.view(None)["bout_limit"] == 5
    play(g, "0 attack 6C 6D 6S", "1 defend 6C 7H", "0 attack 7C 7D")
    with pytest.raises(IllegalAction, match="limit is 5"):
        g.apply("0 attack 7S")
    play(g, "1 defend 6D 8D", "1 defend 6S 8S", "1 defend 7C 9C")
    ev = play(g, "1 defend 7D 9D")
    assert "bout_beaten" in kinds(ev)
    assert g.view(None)["bout_limit"] == 6  # later bouts: 6


# ---------------------------------------------------------------- ending the attack


def three_players() -> Game:
    hands = ["6C 7C 8C 9C TC JC", "AC KD QD JD TD 9D", "6D 7S 8S 9S TS JS"]
    return game_for(hands, trump="6H", rules=Rules(players=3), first_attacker=0)


def test_done_only_once_every_attack_card_is_beaten():
    g = three_players()
    g.apply("0 attack 6C")
    with pytest.raises(IllegalAction, match="unbeaten"):
        g.apply("0 done")


def test_done_bout_ends_when_every_eligible_attacker_said_done():
    g = three_players()
    play(g, "0 attack 6C", "1 defend 6C AC")
    ev = play(g, "0 done")
    assert "bout_beaten" not in kinds(ev)  # seat 2 may still throw in
    assert g.view(None)["done"] == [0] and g.view(None)["to_act"] == [2]
    ev = play(g, "2 done")
    assert "bout_beaten" in kinds(ev)
    assert (g.attacker, g.defender) == (1, 2)  # the defence held: the defender attacks


def test_done_no_longer_counts_once_new_cards_reach_the_table():
    g = three_players()
    play(g, "0 attack 6C", "1 defend 6C AC", "0 done", "2 attack 6D", "1 defend 6D TD")
    ev = play(g, "2 done")
    assert "bout_beaten" not in kinds(ev)  # seat 0's done was reset by the throw-in
    with pytest.raises(IllegalAction, match="said done"):
        g.apply("2 done")
    ev = play(g, "0 done")
    assert "bout_beaten" in kinds(ev)


def test_done_defender_without_cards_ends_the_bout_beaten():
    g = Game.from_position(Rules(players=3), ["6C 7C", "AC", "6D 8S"], "6H", talon="9D TD QH KH 6H")
    ev = play(g, "0 attack 6C", "1 defend 6C AC")
    assert "bout_beaten" in kinds(ev)


# ---------------------------------------------------------------- taking


def test_take_then_throw_ins_after_take():
    g = game_for(["6C 6D 7C 8C 9C TC", "7D 8D 9D TD JD QD"], trump="6H", first_attacker=0)
    play(g, "0 attack 6C", "1 take")
    assert g.phase == "taking"
    assert {"0 attack 6D", "0 done"} <= legal(g)
    with pytest.raises(IllegalAction, match="not on the table"):
        g.apply("0 attack 7C")
    ev = play(g, "0 attack 6D", "0 done")
    taken = [e for e in ev if e.kind == "cards_taken"][0]
    assert taken.seat == 1 and set(taken.cards) == {"6C", "6D"}
    assert "6C" in g.hand(1) and "6D" in g.hand(1)
    # 2 players: the player after the defender is the attacker again.
    assert (g.attacker, g.defender) == (0, 1)


def test_take_throw_ins_after_take_keep_the_defender_hand_limit():
    g = Game.from_position(Rules(), ["6C 6D 6S 6H 7C", "8D 9D TD"], "AH", attacker=0)
    play(g, "0 attack 6C", "1 take")
    with pytest.raises(IllegalAction, match="limit is 3"):
        g.apply("0 attack 6D 6S 6H")
    ev = play(g, "0 attack 6D 6S")
    # The limit is reached, so the defender picks up at once (no "done" needed).
    assert "cards_taken" in kinds(ev)
    assert g.hand_counts()[1] == 6


def test_take_at_any_point_of_the_defence_picks_up_everything():
    g = three_players()
    play(g, "0 attack 6C", "1 defend 6C AC", "2 attack 6D", "1 take", "0 done")
    ev = play(g, "2 done")
    taken = [e for e in ev if e.kind == "cards_taken"][0]
    assert set(taken.cards) == {"6C", "AC", "6D"}
    assert (g.attacker, g.defender) == (2, 0)  # the defender loses the turn


def test_take_not_allowed_once_everything_is_beaten():
    g = three_players()
    play(g, "0 attack 6C", "1 defend 6C AC")
    with pytest.raises(IllegalAction, match="nothing to take"):
        g.apply("1 take")


# ---------------------------------------------------------------- drawing


def test_drawing_order_three_attackers():
    hands = ["6C 8C 9C TC JC QC", "7C 7D 7S AD KD QD", "6S 8S 9S TS JS QS", "6D 8H 9H TH JH QH"]
    g = game_for(hands, trump="AH", rules=Rules(players=4), first_attacker=0)
    play(g, "0 attack 6C", "1 defend 6C 7C", "3 attack 6D", "1 defend 6D 7D", "2 attack 6S")
    ev = play(g, "1 defend 6S 7S", "0 done", "2 done", "3 done")
    drew = [(e.seat, e.count) for e in ev if e.kind == "drew"]
    assert drew == [(0, 1), (3, 1), (2, 1), (1, 3)]  # attacker, joiners in join order, defender


def test_drawing_face_up_trump_drawn_last_and_public():
    hands = ["6C 7C 8C 9C TC JC", "7D 8D 9D TD JD AC"]
    g = Game.from_position(Rules(), hands, "6H", talon="QC 6H", attacker=0)
    ev = play(g, "0 attack 6C", "1 defend 6C AC", "0 done")
    drew = [e for e in ev if e.kind == "drew"]
    assert [(e.seat, e.count, e.trump) for e in drew] == [(0, 1, None), (1, 1, "6H")]
    assert "6H" in g.hand(1) and g.talon_count == 0
    assert g.knowledge(0).known_cards(1) == ["6H"]
    for e in ev:  # no drawn card is named except the face-up trump
        assert "QC" not in str(e.to_dict())


def test_drawing_none_once_the_talon_is_empty():
    g = Game.from_position(Rules(players=3), ["6C 7C", "AC 8D", "6D 8S"], "6H")
    ev = play(g, "0 attack 6C", "1 defend 6C AC", "0 done", "2 done")
    assert "drew" not in kinds(ev)


# ---------------------------------------------------------------- next bout


def test_next_bout_defence_held_defender_attacks_took_player_after():
    g = three_players()
    play(g, "0 attack 6C", "1 defend 6C AC", "0 done", "2 done")
    assert (g.attacker, g.defender) == (1, 2)
    play(g, "1 attack 9D", "2 take", "1 done", "0 done")
    assert (g.attacker, g.defender) == (0, 1)
