"""default_action for timed-out seats, and the Match helper."""

import random

import pytest

from durak.engine import Game, Match, Rules

from .helpers import play


def test_default_action_lead_plays_lowest_non_trump_else_lowest_trump():
    g = Game.from_position(Rules(), ["6H 9C 7D", "8D 9D"], "AH")
    assert str(g.default_action(0)) == "0 attack 7D"
    assert g.default_action(1) is None
    g = Game.from_position(Rules(), ["9H 6H", "8D 9D"], "AH")
    assert str(g.default_action(0)) == "0 attack 6H"


def test_default_action_defender_takes_attacker_says_done():
    g = Game.from_position(Rules(players=3), ["6C 7C", "AC 8D", "6D 8S"], "6H")
    play(g, "0 attack 6C")
    assert str(g.default_action(1)) == "1 take"
    assert g.default_action(0) is None  # nothing to say while a card is unbeaten
    play(g, "1 defend 6C AC")
    assert str(g.default_action(0)) == "0 done"
    assert str(g.default_action(2)) == "2 done"
    assert g.default_action(1) is None


def test_default_action_taking_attackers_say_done():
    g = Game.from_position(Rules(players=3), ["6C 7C", "9C 8D", "6D 8S"], "6H")
    play(g, "0 attack 6C", "1 take")
    assert str(g.default_action(0)) == "0 done" and str(g.default_action(2)) == "2 done"
    for s in (0, 2):
        g.apply(g.default_action(s))
    assert g.hand_counts()[1] == 3


def test_default_action_always_legal_in_random_games():
    rng = random.Random(4)
    for seed in range(30):
        g = Game.new(Rules(players=4, mode="perevodnoy"), seed)
        while not g.is_over:
            legal = set(g.legal_actions())
            for s in range(4):
                d = g.default_action(s)
                assert d is None or d in legal
            g.apply(rng.choice(sorted(legal, key=str)))


def play_out(g: Game, rng: random.Random) -> None:
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()))


def test_match_fool_deals_next_and_the_player_left_of_the_fool_leads():
    m = Match(Rules(players=3), 7)
    rng = random.Random(1)
    g1 = m.new_game()
    with pytest.raises(ValueError, match="not over"):
        m.new_game()
    for _ in range(6):
        play_out(m.current, rng)
        prev = m.current.result
        g = m.new_game()
        if prev["fool"] is not None:
            assert g.dealer == prev["fool"]
            assert g.first_attacker == (prev["fool"] + 1) % 3
    play_out(m.current, rng)
    fools = [g.result["fool"] for g in m.games]
    assert m.fool_counts == [fools.count(s) for s in range(3)]
    assert m.draws == sum(1 for g in m.games if g.result["draw"])
    assert m.tally()["games"] == 7 and g1 is m.games[0]


def test_match_fool_defends_option():
    m = Match(Rules(players=3, next_game_lead="fool_defends"), 3)
    rng = random.Random(2)
    for _ in range(4):
        play_out(m.new_game(), rng)
        prev = m.current.result
        if prev["fool"] is not None:
            g = m.new_game()
            assert g.dealer == prev["fool"] and g.defender == prev["fool"]
            assert g.attacker == (prev["fool"] - 1) % 3
            play_out(g, rng)


def test_match_after_a_draw_the_same_dealer_deals_again():
    m = Match(Rules(), 1)
    g = Game.from_position(Rules(), ["6C", "7C"], "6H")
    play(g, "0 attack 6C", "1 defend 6C 7C")
    assert g.result["draw"]
    m.games.append(g)
    assert m.next_deal() == (g.dealer, (g.dealer + 1) % 2)
    assert m.draws == 1 and m.fool_counts == [0, 0]


def test_match_team_tally_and_round_trip():
    m = Match(Rules(players=4, teams="2x2"), 9)
    rng = random.Random(3)
    for _ in range(3):
        play_out(m.new_game(), rng)
    m.new_game()
    assert sum(m.team_fool_counts) + m.draws == 3
    m2 = Match.from_dict(m.to_dict())
    assert m2.tally() == m.tally()
    assert m2.current.snapshot() == m.current.snapshot()


def test_match_one_winner_the_winner_leads_next():
    m = Match(Rules(players=3, one_winner=True), 5)
    rng = random.Random(5)
    play_out(m.new_game(), rng)
    w = m.current.result["winner"]
    g = m.new_game()
    assert g.first_attacker == w and g.dealer == (w + 1) % 3
    assert m.win_counts[w] == 1
