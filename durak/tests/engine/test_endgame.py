"""Going out, the fool, draws, one winner, epaulettes, resign."""

import pytest

from durak.engine import Game, IllegalAction, Rules

from .helpers import kinds, play

R3 = Rules(players=3)


def test_going_out_only_once_the_talon_is_empty():
    g = Game.from_position(Rules(), ["6C", "7C 8D 9D TD JD QD"], "6H", talon="KD AD 6H")
    ev = play(g, "0 attack 6C")
    assert "went_out" not in kinds(ev)  # no cards, but the talon will refill the hand
    # Seat 0 has no card to add, so the bout ends with the defence.
    ev = play(g, "1 defend 6C 7C")
    assert [(e.seat, e.count) for e in ev if e.kind == "drew"] == [(0, 3)]
    assert not g.is_over and g.view(None)["out"] == []


def test_going_out_mid_bout_when_the_talon_is_empty_and_turns_skip_the_player():
    g = Game.from_position(R3, ["6C", "7C 8D", "9S TS"], "6H")
    ev = play(g, "0 attack 6C")
    assert [e.seat for e in ev if e.kind == "went_out"] == [0]
    ev = play(g, "1 defend 6C 7C", "2 done")
    assert "bout_beaten" in kinds(ev)
    assert (g.attacker, g.defender) == (1, 2)  # seat 0 is skipped
    assert g.view(None)["out_order"] == [0]


def test_going_out_defender_last_card_ends_the_bout_as_beaten():
    g = Game.from_position(R3, ["6C 6D", "7C", "9S TS"], "6H")
    ev = play(g, "0 attack 6C", "1 defend 6C 7C")
    assert kinds(ev)[-3:] == ["went_out", "bout_beaten", "bout_started"]
    # The defender is out, so the player after it attacks.
    assert (g.attacker, g.defender) == (2, 0)


def test_going_out_principal_attacker_out_other_attackers_continue():
    g = Game.from_position(R3, ["6C", "7C 8C AD", "6D 9S"], "6H")
    play(g, "0 attack 6C", "1 defend 6C 7C", "2 attack 6D", "1 defend 6D AD")
    ev = play(g, "2 done")
    assert "bout_beaten" in kinds(ev)
    assert (g.attacker, g.defender) == (1, 2)


def test_going_out_last_player_holding_cards_is_the_fool():
    g = Game.from_position(Rules(), ["6C", "7D 8D"], "6H")
    ev = play(g, "0 attack 6C", "1 take")
    assert kinds(ev)[-2:] == ["cards_taken", "game_over"]
    r = g.result
    assert r["fool"] == 1 and not r["draw"] and r["out_order"] == [0] and r["winner"] is None


def test_going_out_draw_when_the_last_two_go_out_together():
    g = Game.from_position(Rules(), ["6C", "7C"], "6H")
    play(g, "0 attack 6C", "1 defend 6C 7C")
    r = g.result
    assert g.is_over and r["draw"] and r["fool"] is None and r["out_order"] == [0, 1]


def test_going_out_draw_with_three_players_last_two_in_one_bout():
    g = Game.from_position(R3, ["", "6C", "7C"], "6H", attacker=1, out_order=[0])
    play(g, "1 attack 6C", "2 defend 6C 7C")
    assert g.result["draw"] and g.result["out_order"] == [0, 1, 2]


def test_one_winner_the_first_player_out_wins_at_once():
    rules = Rules(players=3, one_winner=True)
    g = Game.from_position(rules, ["6C", "7C 8D", "9S TS"], "6H")
    ev = play(g, "0 attack 6C")
    assert kinds(ev)[-1] == "game_over"
    r = g.result
    assert r["winner"] == 0 and r["fool"] is None and not r["draw"]
    with pytest.raises(IllegalAction, match="over"):
        g.apply("1 take")


def test_epaulettes_two_sixes_in_the_deciding_play():
    rules = Rules(epaulettes=True)
    g = Game.from_position(rules, ["6C 6D", "7S 8S 9S"], "6H")
    play(g, "0 attack 6C 6D", "1 take")
    assert g.result["fool"] == 1 and g.result["epaulettes"] == 2


def test_epaulettes_a_six_beating_the_last_attack():
    rules = Rules(epaulettes=True)
    g = Game.from_position(rules, ["7C 8D", "6H"], "AH")
    play(g, "0 attack 7C", "1 defend 7C 6H")
    assert g.result["fool"] == 0 and g.result["epaulettes"] == 1


def test_epaulettes_none_without_sixes_or_without_the_option():
    g = Game.from_position(Rules(epaulettes=True), ["7C", "8D 9D"], "6H")
    play(g, "0 attack 7C", "1 take")
    assert g.result["epaulettes"] == 0
    g = Game.from_position(Rules(), ["6C 6D", "7S 8S 9S"], "6H")
    play(g, "0 attack 6C 6D", "1 take")
    assert g.result["epaulettes"] == 0


def test_resign_makes_the_player_the_fool_and_ends_the_game():
    g = Game.new(R3, 5)
    assert all(a.kind != "resign" for a in g.legal_actions())
    ev = g.apply("2 resign")
    assert kinds(ev) == ["resigned", "game_over"]
    r = g.result
    assert r["fool"] == 2 and r["resigned"] == 2 and g.is_over
    assert g.history[-1].kind == "resign"
    assert Game.from_record(g.to_record()).result == r


def test_resign_refused_for_a_player_already_out():
    g = Game.from_position(R3, ["6C", "7C 8D", "9S TS"], "6H")
    play(g, "0 attack 6C")
    with pytest.raises(IllegalAction, match="out"):
        g.apply("0 resign")
    g.apply("1 resign")
    assert g.result["fool"] == 1


def test_resign_in_teams_the_team_loses():
    g = Game.new(Rules(players=4, teams="2x2"), 3)
    g.apply("3 resign")
    assert g.result["fool_team"] == 1 and g.result["fool"] == 3
