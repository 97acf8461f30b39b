"""Partnerships 2x2 and 3x3."""

import pytest

from durak.engine import Game, IllegalAction, Rules

from .helpers import game_for, kinds, play

T2 = Rules(players=4, teams="2x2")
T3 = Rules(players=6, teams="3x3")


def test_teams_2x2_partners_never_attack_each_other():
    hands = ["6C 7C 8C 9C TC JC", "AC KD QD JD TD 9D", "6D 7S 8S 9S TS JS", "6S QS KS AS 7D 8D"]
    g = game_for(hands, trump="6H", rules=T2, first_attacker=0)
    assert (g.attacker, g.defender) == (0, 1)
    play(g, "0 attack 6C")
    assert "2 attack 6D" in {str(a) for a in g.legal_actions()}
    with pytest.raises(IllegalAction, match="partner"):
        g.apply("3 attack 6S")
    play(g, "1 defend 6C AC", "0 done", "2 done")
    assert (g.attacker, g.defender) == (1, 2)


def test_teams_2x2_turn_passes_over_a_player_who_is_out():
    g = Game.from_position(T2, ["", "7C", "9D TD", "QS KS"], "6H", attacker=3)
    # Seat 0 is out and seat 1 is a partner: seat 3 attacks seat 2.
    assert (g.attacker, g.defender) == (3, 2)
    assert g.view(None)["attackers"] == [1, 3]


def test_teams_2x2_team_result_with_two_losers_holding_cards():
    g = Game.from_position(T2, ["", "7C 8C", "9C", "TS JS"], "6H", attacker=1)
    assert g.defender == 2
    play(g, "1 attack 7C")
    ev = play(g, "2 defend 7C 9C")
    assert kinds(ev)[-1] == "game_over"
    r = g.result
    assert r["fool_team"] == 1 and r["fool"] is None and not r["draw"]


def test_teams_2x2_team_result_single_loser_is_the_fool():
    g = Game.from_position(T2, ["", "7C", "9C", "TS JS"], "6H", attacker=1)
    play(g, "1 attack 7C", "2 defend 7C 9C")
    r = g.result
    assert r["fool_team"] == 1 and r["fool"] == 3 and r["out_order"] == [0, 1, 2]


def test_teams_3x3_deal_and_throw_in_neighbours_never_the_partner():
    hands = [
        "6C 7C 8C 9C TC JC",
        "AC KD QD JD TD 9D",
        "6D 7S 8S 9S TS JS",
        "6S QS KS AS 7D 8D",
        "QC KC 7H 8H 9H TH",
        "6H JH QH KH AH AD",
    ]
    g = game_for(hands, trump=None, rules=T3, first_attacker=0)
    assert g.trump == "AD" and g.talon_count == 0  # the dealer's (seat 5) last card
    play(g, "0 attack 6C")
    assert "2 attack 6D" in {str(a) for a in g.legal_actions()}
    with pytest.raises(IllegalAction, match="partner"):
        g.apply("3 attack 6S")
    assert g.view(None)["attackers"] == [0, 2]


def test_teams_3x3_turns_skip_out_players_and_team_result():
    g = Game.from_position(T3, ["", "7C", "", "8D", "9C", "TS"], "6H", attacker=1)
    # 2 is out, 3 is a partner: seat 4 defends.
    assert (g.attacker, g.defender) == (1, 4)
    play(g, "1 attack 7C", "4 defend 7C 9C")
    r = g.result
    assert r["fool_team"] == 1 and r["fool"] is None and r["out_order"] == [0, 2, 1, 4]


def test_teams_draw_when_both_teams_run_out_together():
    g = Game.from_position(T2, ["", "7C", "", "8C"], "6H", attacker=1, out_order=[0, 2])
    assert g.is_over and g.result["fool_team"] == 1  # team 0 already out: nothing to play
    g = Game.from_position(T2, ["", "7C", "9C", ""], "6H", attacker=1)
    play(g, "1 attack 7C", "2 defend 7C 9C")
    assert g.result["draw"] and g.result["fool_team"] is None
