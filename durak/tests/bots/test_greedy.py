"""The greedy baseline plays exactly its rules on hand-made positions (trumps are diamonds)."""

import random

import pytest

from durak.bots import get_bot
from durak.engine import Action, Game, Rules

PODKIDNOY = Rules(players=2)
PEREVODNOY = Rules(players=2, mode="perevodnoy")
TALON = ["AH", "KD"]  # KD lies face up: diamonds are trumps


def choice(game: Game, seat: int) -> Action | None:
    return get_bot("greedy").choose_action(game.knowledge(seat), random.Random(0))


def position(hand0: str, hand1: str, talon=TALON, rules=PODKIDNOY, attacker=0) -> Game:
    trump = talon[-1] if talon else "KD"
    return Game.from_position(rules, [hand0, hand1], trump, talon, attacker)


def test_leads_its_lowest_plain_card_not_a_lower_trump():
    game = position("9C 7H 6D AS TH QS", "6C 8C JC 7S 8S JS")
    assert choice(game, 0) == Action(0, "attack", ["7H"])


def test_leads_one_card_even_with_a_low_pair():
    game = position("7H 7C 6D AS TH QS", "6C 8C JC 7S 8S JS")
    assert choice(game, 0) == Action(0, "attack", ["7C"])


def test_leads_its_lowest_trump_when_it_holds_only_trumps():
    game = position("9D 6D AD", "6C 8C JC 7S 8S JS")
    assert choice(game, 0) == Action(0, "attack", ["6D"])


def test_defends_with_the_cheapest_card_of_the_suit():
    game = position("7H 9C", "TH 8H 6D AS 6C 9S")
    game.apply("0 attack 7H")
    assert choice(game, 1) == Action(1, "defend", ["7H", "8H"])


def test_defends_with_its_lowest_trump_when_the_suit_cannot_beat():
    game = position("AS 9C", "TH 8D 6D 7S 6C 9S")
    game.apply("0 attack AS")
    assert choice(game, 1) == Action(1, "defend", ["AS", "6D"])


def test_takes_when_nothing_beats():
    game = position("AS 9C", "TH 8H 7S 6C 9S JC")
    game.apply("0 attack AS")
    assert choice(game, 1) == Action(1, "take")


def test_takes_when_it_cannot_beat_every_unbeaten_card():
    game = position("7H 7S 9C", "8H 9H 6S 6C JC QC")
    game.apply("0 attack 7H 7S")
    assert choice(game, 1) == Action(1, "take")


def test_throws_in_its_lowest_plain_card_of_a_table_rank():
    game = position("7H 9C 7C 8S 9D", "8H 9H 6S 6C JC QC")
    game.apply("0 attack 7H")
    game.apply("1 defend 7H 8H")
    assert choice(game, 0) == Action(0, "attack", ["7C"])


def test_adds_no_trump_while_the_talon_lasts():
    game = position("7H 8D 9C", "8H 9H 6S 6C JC QC")
    game.apply("0 attack 7H")
    game.apply("1 defend 7H 8H")
    assert choice(game, 0) == Action(0, "done")


def test_adds_a_trump_once_the_talon_is_empty():
    game = position("7H 8D 9C", "8H 9H 6S 6C JC QC", talon=[])
    game.apply("0 attack 7H")
    game.apply("1 defend 7H 8H")
    assert choice(game, 0) == Action(0, "attack", ["8D"])


def test_throws_in_after_a_take():
    game = position("AS 9C 9S", "TH 8H 7S 6C JC QH")
    game.apply("0 attack 9S")
    game.apply("1 take")
    assert choice(game, 0) == Action(0, "attack", ["9C"])


def test_never_transfers():
    game = position("7H 9C JH QH", "7S 8H 6D AS 6C 9S", rules=PEREVODNOY)
    game.apply("0 attack 7H")
    options = [a for a in game.legal_actions() if a.seat == 1]
    assert Action(1, "transfer", ["7S"]) in options
    assert choice(game, 1) == Action(1, "defend", ["7H", "8H"])


@pytest.mark.parametrize("seed", range(3))
def test_matches_its_rules_through_whole_games(seed):
    # Each choice is the lowest-valued card of its kind, whatever the position.
    from durak.bots.fast import decider
    from durak.bots.greedy import card_value

    game = Game.new(PODKIDNOY, seed)
    while not game.is_over:
        seat = decider(game)
        action = choice(game, seat)
        assert action in game.legal_actions()
        trump = game.trump_suit
        hand = game.hand(seat)
        if action.kind == "attack" and not game.table():
            plain = [c for c in hand if c[1] != trump]
            lowest = min(card_value(c, trump) for c in (plain or hand))
            assert len(action.cards) == 1
            assert card_value(action.cards[0], trump) == lowest
        if action.kind == "attack" and game.table() and game.talon_count:
            assert action.cards[0][1] != trump
        assert action.kind not in ("transfer", "show", "swap")
        game.apply(action)
