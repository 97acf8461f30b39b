"""Deal and first attacker."""

import random

from durak.engine import Game, Rules
from durak.engine.cards import deck_codes

from .helpers import deck_for, game_for

H2 = ["7C 8C 9C TC JC QC", "7D 8D 9D TD JD QD"]


def test_deal_one_card_at_a_time_clockwise_from_dealers_left():
    rules = Rules(players=3)
    deck = deck_for(
        ["6C 7C 8C 9C TC JC", "6D 7D 8D 9D TD JD", "6S 7S 8S 9S TS JS"], "6H", rules=rules, dealer=0
    )
    assert deck[:3] == ["6D", "6S", "6C"]  # seat 1 first, then 2, then the dealer
    g = Game(rules, deck, dealer=0)
    assert g.dealer == 0
    assert g.hand(1) == ["6D", "7D", "8D", "9D", "TD", "JD"]
    assert g.hand(0) == ["6C", "7C", "8C", "9C", "TC", "JC"]


def test_deal_trump_is_turned_up_and_is_the_talons_last_card():
    g = game_for(H2, trump="AS", talon="6C 6D")
    assert g.trump == "AS" and g.trump_suit == "S"
    snap = g.snapshot()
    assert snap["talon"][0] == "6C" and snap["talon"][1] == "6D"
    assert snap["talon"][-1] == "AS"
    assert g.talon_count == 36 - 12


def test_deal_six_players_36_cards_no_talon_trump_is_dealers_card():
    rules = Rules(players=6)
    g = Game.new(rules, 11)
    deck = g.deck
    assert g.talon_count == 0
    assert g.hand_counts() == [6] * 6
    assert g.trump == deck[-1]
    assert g.trump in g.hand(g.dealer) and g.dealer == 5
    assert g.view(0)["trump"] == g.trump
    # The turned-up card is public knowledge in the dealer's hand.
    assert g.trump in g.knowledge(0).known_cards(5)


def test_first_attacker_holder_of_lowest_trump_may_lead_any_card():
    g = game_for(["9H 7C 8C 9C TC JC", "7H 7D 8D 9D TD JD"], trump="6H")
    assert g.first_attacker == 1 and g.attacker == 1 and g.defender == 0
    ev = g.deal_events
    assert ev[1].kind == "first_attacker_chosen" and ev[1].seat == 1 and ev[1].card == "7H"
    assert "1 attack JD" in [str(a) for a in g.legal_actions()]
    # Showing the lowest trump makes it public.
    assert g.knowledge(0).known_cards(1) == ["7H"]


def test_first_attacker_face_up_trump_does_not_count():
    # 6H is turned up, so it is nobody's; 8H is the lowest trump held.
    g = game_for(["8H 7C 8C 9C TC JC", "9H 7D 8D 9D TD JD"], trump="6H")
    assert g.first_attacker == 0


def test_first_attacker_no_trumps_dealt_drawn_at_random_and_recorded():
    hands = ["7C 8C 9C TC JC QC", "7D 8D 9D TD JD QD", "7S 8S 9S TS JS QS"]
    rules = Rules(players=3)
    deck = deck_for(hands, trump="6H", rules=rules)
    g = Game(rules, deck)
    kinds = [e.kind for e in g.deal_events]
    assert "first_attacker_drawn" in kinds
    # The draw comes from the deal's own random source: the same deck draws the same seat.
    assert Game(rules, deck).first_attacker == g.first_attacker
    rec = g.to_record()
    assert rec["first_attacker_by"] == "draw" and rec["first_attacker"] == g.first_attacker
    assert Game.from_record(rec).first_attacker == g.first_attacker
    assert g.to_record()["first_attacker"] in range(3)


def test_first_attacker_no_trumps_with_game_new_uses_the_same_rng():
    import random

    rules = Rules(players=6, deck_size=52, hand_size=1)
    seen = set()
    for seed in range(300):
        g = Game.new(rules, random.Random(seed))
        if g.deal_events[1].kind == "first_attacker_drawn":
            seen.add(g.first_attacker)
            rec = g.to_record()
            assert Game.from_record(rec).first_attacker == g.first_attacker
    assert len(seen) > 1


def test_game_new_deals_the_deck_random_shuffle_gives_for_the_same_seed():
    # A seed keeps dealing the same deck: the deck in index order (by rank, then suit
    # C D H S), shuffled as random.shuffle would with that seed, and the same again
    # for a Random subclass that draws its numbers its own way.
    class Doubled(random.Random):
        def random(self) -> float:
            return super().random() ** 2

    for rules in (Rules(), Rules(deck_size=24), Rules(deck_size=52, players=4)):
        in_order = deck_codes(rules.deck_size)
        for make in (random.Random, Doubled):
            for seed in range(20):
                expected = in_order[:]
                make(seed).shuffle(expected)
                assert Game.new(rules, make(seed)).deck == expected
