"""The mask-level read API that bots and analysis use instead of the engine's fields."""

import random

from durak.engine import SUITS, Action, Game, Rules, codes_to_mask

from .helpers import game_for, play

HANDS = ["6C 6D 8C 9C TC JC", "7D 8D 9D QC JD QD"]


def test_masks_agree_with_the_card_codes_through_a_bout():
    g = game_for(HANDS, trump="6H", first_attacker=0)
    assert g.hand_mask(0) == codes_to_mask(g.hand(0))
    assert g.table_mask == g.unbeaten_mask == g.discard_mask == 0
    assert (g.attack_cards_on_table, g.bout_limit) == (0, 6)
    assert SUITS[g.trump_suit_index] == g.trump_suit == "H"
    play(g, "0 attack 6D", "1 defend 6D 7D", "0 attack 6C")
    assert g.table_mask == codes_to_mask(["6D", "7D", "6C"])
    assert g.unbeaten_mask == codes_to_mask(["6C"])
    assert g.attack_cards_on_table == 2
    assert g.hand_mask(1) == codes_to_mask(g.hand(1))
    play(g, "1 defend 6C QC", "0 done")
    assert g.discard_mask == codes_to_mask(["6D", "7D", "6C", "QC"])
    assert g.table_mask == g.unbeaten_mask == 0


def test_actions_expose_their_cards_as_a_mask_and_indices():
    a = Action.parse("1 defend 6H TH")
    assert a.card_mask == codes_to_mask(["6H", "TH"])
    assert [i for i in a.card_indices] == [codes_to_mask([c]).bit_length() - 1 for c in a.cards]


def test_out_order_lists_the_seats_that_went_out():
    g = Game.from_position(Rules(players=3), ["6C", "7C 8D", "9S TS"], "6H")
    assert g.out_order == []
    play(g, "0 attack 6C")
    assert g.out_order == [0]
    g.out_order.append(2)  # a copy: the game is not changed
    assert g.out_order == [0]


def test_position_keys_are_equal_for_the_same_position_only():
    rules = Rules(players=3, mode="perevodnoy")
    rng = random.Random(7)
    g = Game.new(rules, 7)
    for _ in range(10):
        g.apply(rng.choice(g.legal_actions()))
    twin = g.copy()
    assert twin.position_key() == g.position_key()
    hash(g.position_key())
    for a in g.legal_actions():
        child = g.copy()
        child.apply(a)
        assert child.position_key() != g.position_key()


def test_a_position_reached_by_two_histories_has_one_key():
    hands = ["6C 6D 8C 9C TC JC", "7C 7D 9D TD JD QD"]
    first = game_for(hands, trump="6H", first_attacker=0)
    second = first.copy()
    play(first, "0 attack 6C 6D", "1 defend 6C 7C", "1 defend 6D 7D")
    play(second, "0 attack 6C 6D", "1 defend 6D 7D", "1 defend 6C 7C")
    assert first.history != second.history
    assert first.position_key() == second.position_key()
    first.apply("0 done")
    assert first.position_key() != second.position_key()
