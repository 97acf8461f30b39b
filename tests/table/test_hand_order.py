"""The hand's order: trumps at the right, plain suits in alternating colours."""

from __future__ import annotations

import pytest

from table.hand_order import by_rank, by_suit, suit_order

RED = "DH"


@pytest.mark.parametrize("trump", "CDHS")
def test_the_trump_suit_comes_last_and_the_colours_alternate(trump):
    order = suit_order(trump)
    assert sorted(order) == sorted("CDHS")
    assert order[-1] == trump
    colours = [suit in RED for suit in order]
    assert all(a != b for a, b in zip(colours, colours[1:], strict=False)), order


def test_by_suit_groups_each_suit_ascending_with_the_trumps_last():
    # Diamonds are trumps: the ace of diamonds goes right, past the plain suits.
    hand = ["AD", "7S", "KH", "6C", "TS", "9D", "6H"]
    assert by_suit(hand, "D") == ["7S", "TS", "6H", "KH", "6C", "9D", "AD"]


def test_by_rank_keeps_the_trumps_last_and_ascending():
    hand = ["AD", "7S", "KH", "6C", "TS", "9D", "6H", "7H"]
    assert by_rank(hand, "D") == ["6H", "6C", "7S", "7H", "TS", "KH", "9D", "AD"]


def test_an_order_is_the_same_whatever_order_the_cards_came_in():
    hand = ["QS", "2C", "AH", "9S", "JD", "5C"]
    for trump in "CDHS":
        assert by_suit(hand, trump) == by_suit(list(reversed(hand)), trump)
        assert by_rank(hand, trump) == by_rank(list(reversed(hand)), trump)
