"""The contract in RULES.md: imports, decks, players, the defender."""

import subprocess
import sys
from pathlib import Path

import pytest

from durak.engine import Game, Rules, deck_codes

ROOT = Path(__file__).resolve().parents[3]


def test_interface_imports_without_django_settings():
    code = "import sys, durak.engine; assert 'django' not in sys.modules; print('ok')"
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.stdout.strip() == "ok", out.stderr


@pytest.mark.parametrize(("size", "low"), [(24, "9"), (36, "6"), (52, "2")])
def test_deck_sizes_24_36_52(size, low):
    cards = deck_codes(size)
    assert len(cards) == size and cards[0] == low + "C" and cards[-1] == "AS"
    g = Game.new(Rules(deck_size=size), 1)
    assert sum(g.hand_counts()) + g.talon_count == size


def test_deck_52_with_seven_cards_and_eight_players():
    g = Game.new(Rules(players=8, deck_size=52, hand_size=6), 2)
    assert g.hand_counts() == [6] * 8 and g.talon_count == 4
    g = Game.new(Rules(players=7, deck_size=52, hand_size=7), 3)
    assert g.hand_counts() == [7] * 7 and g.talon_count == 3


def test_deck_explicit_must_match_the_rules():
    with pytest.raises(ValueError, match="missing"):
        Game(Rules(), deck_codes(36)[:-1])
    with pytest.raises(ValueError, match="not in this deck"):
        Game(Rules(deck_size=24), deck_codes(24)[:-1] + ["6C"])


def test_defender_is_the_next_player_with_cards():
    g = Game.from_position(Rules(players=4), ["7C 8C", "", "9D", "TS JS"], "6H", out_order=[1])
    assert (g.attacker, g.defender) == (0, 2)


def test_legal_actions_cover_every_seat_that_may_act():
    hands = ["6C 7C 8C 9C TC JC", "AC KD QD JD TD 9D", "6D 7S 8S 9S TS JS"]
    from .helpers import game_for

    g = game_for(hands, trump="6H", rules=Rules(players=3), first_attacker=0)
    g.apply("0 attack 6C")
    # Seat 1 defends, seat 2 may throw in its six; seat 0 has no six left.
    assert {a.seat for a in g.legal_actions()} == {1, 2} == set(g.seats_to_act())
    # to_act uses public facts only, so it cannot reveal that seat 0 has no six.
    assert g.to_act() == [0, 1, 2]
