"""Rules: the immutable, validated variant value."""

import pytest

from durak.engine import Rules


def test_rules_defaults_are_classic_podkidnoy():
    r = Rules()
    assert (r.players, r.deck_size, r.hand_size, r.mode) == (2, 36, 6, "podkidnoy")
    assert r.multi_card_lead and not r.one_winner and r.teams is None
    assert r.effective_throw_in == "all"
    assert Rules(players=5).effective_throw_in == "neighbours"
    assert Rules(players=5, throw_in="all").effective_throw_in == "all"


def test_rules_are_hashable_and_frozen():
    assert hash(Rules()) == hash(Rules())
    assert {Rules(), Rules()} == {Rules()}
    with pytest.raises(AttributeError):
        Rules().players = 3  # type: ignore[misc]


def test_rules_dict_round_trip_and_unknown_keys():
    r = Rules(players=4, mode="perevodnoy", trump_show_transfer=True, first_bout_limit=5)
    assert Rules.from_dict(r.to_dict()) == r
    with pytest.raises(ValueError, match="colour"):
        Rules.from_dict({"colour": "red"})


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"deck_size": 32}, "deck_size"),
        ({"players": 7}, "players"),
        ({"players": 1}, "players"),
        ({"players": 9, "deck_size": 52}, "players"),
        ({"players": 5, "deck_size": 24}, "hand_size"),
        ({"hand_size": 0}, "hand_size"),
        ({"mode": "simple"}, "mode"),
        ({"trump_show_transfer": True}, "trump_show_transfer"),
        ({"teams": "2x2", "players": 3}, "2x2"),
        ({"teams": "3x3", "players": 4}, "3x3"),
        ({"teams": "4x4"}, "teams"),
        ({"throw_in": "some"}, "throw_in"),
        ({"first_bout_limit": 7}, "first_bout_limit"),
        ({"first_bout_limit": 0}, "first_bout_limit"),
        ({"next_game_lead": "dealer"}, "next_game_lead"),
        ({"one_winner": True, "teams": "2x2", "players": 4}, "one_winner"),
        ({"one_winner": True, "epaulettes": True}, "epaulettes"),
        ({"trump_six_swap": True, "deck_size": 24}, "trump_six_swap"),
        ({"epaulettes": 1}, "epaulettes"),
        ({"players": True}, "players"),
    ],
)
def test_rules_impossible_combinations_name_the_field(kwargs, field):
    with pytest.raises(ValueError, match=field):
        Rules(**kwargs)


def test_rules_deck_must_hold_players_times_hand_size():
    Rules(players=6, deck_size=36)  # exactly 36: allowed, no talon
    Rules(players=8, deck_size=52, hand_size=6)
    with pytest.raises(ValueError, match="hand_size"):
        Rules(players=8, deck_size=52, hand_size=7)
