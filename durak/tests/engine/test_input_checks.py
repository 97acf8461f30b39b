"""The engine's own input checks: hostile action texts and records are refused cleanly."""

import time

import pytest

from durak.engine import Action, Game, IllegalAction, Rules


@pytest.mark.parametrize(
    "text",
    [
        "² attack 6H",  # a superscript digit
        "③ done",  # a circled digit
        "１ take",  # a fullwidth digit
        "٣ take",  # an Arabic-Indic digit
        "۱ done",  # an extended Arabic-Indic digit
    ],
)
def test_only_ascii_digits_name_a_seat(text):
    with pytest.raises(IllegalAction) as info:
        Action.parse(text)
    assert info.value.code == "malformed"
    game = Game.new(Rules(), 1)
    before = game.snapshot()
    with pytest.raises(IllegalAction):
        game.apply(text)
    assert game.snapshot() == before


@pytest.mark.parametrize("value", [None, 7, b"0 take", ["0", "take"], {"seat": 0}])
def test_a_non_string_is_an_illegal_action(value):
    with pytest.raises(IllegalAction) as info:
        Action.parse(value)
    assert info.value.code == "malformed"


@pytest.mark.parametrize(
    "text", ["99999999999999999999 done", "100000000000 done", "8 take", "1" * 5000 + " done"]
)
def test_a_seat_out_of_every_game_is_refused_at_once(text):
    game = Game.new(Rules(players=3), 2)
    before = game.snapshot()
    start = time.process_time()
    with pytest.raises(IllegalAction) as info:
        game.apply(text)
    assert time.process_time() - start < 1.0  # not a bit shift by the seat number
    assert info.value.code == "no_such_seat"
    assert game.snapshot() == before
    with pytest.raises(IllegalAction):
        Action(10**11, "done")


def test_seven_is_still_a_seat_of_an_eight_player_game():
    game = Game.new(Rules(players=8, deck_size=52), 3)
    assert Action.parse("7 resign").seat == 7
    game.apply("7 resign")
    assert game.result["fool"] == 7


@pytest.mark.parametrize(
    "text", ["99999999999999999999 done", "100000000000 done", "² take", "１ take"]
)
def test_a_record_with_a_hostile_seat_is_refused_with_a_value_error(text):
    record = Game.new(Rules(), 4).to_record()
    record["actions"] = [text]
    start = time.process_time()
    with pytest.raises(ValueError, match="record action 0"):
        Game.from_record(record)
    assert time.process_time() - start < 1.0


def test_a_record_may_not_claim_a_drawn_first_attacker_when_trumps_were_dealt():
    game = Game.new(Rules(), 5)
    record = game.to_record()
    assert record["first_attacker_by"] == "lowest_trump"
    other = 1 - record["first_attacker"]
    forged = {**record, "first_attacker_by": "draw", "first_attacker": other, "actions": []}
    forged["result"] = None
    with pytest.raises(ValueError, match="drawn only when nobody holds a trump"):
        Game.from_record(forged)


def test_a_drawn_first_attacker_is_still_read_when_nobody_holds_a_trump():
    # 24 cards: clubs and diamonds dealt, 9H turned up, so nobody holds a trump.
    dealt = [card for rank in "9TJQKA" for card in (rank + "C", rank + "D")]
    talon = [rank + suit for suit in "HS" for rank in "9TJQKA"]
    game = Game(Rules(deck_size=24), dealt + talon)
    assert game.first_attacker_by == "draw"
    again = Game.from_record(game.to_record())
    assert again.first_attacker == game.first_attacker


def _epaulettes_after(defence: str) -> dict:
    g = Game.from_position(Rules(epaulettes=True), ["6C 7D", defence.split()[-1]], "6H")
    g.apply("0 attack 6C")
    g.apply(defence)
    return g.result


def test_epaulettes_do_not_count_the_fools_own_beaten_six():
    r = _epaulettes_after("1 defend 6C 9C")
    assert r["fool"] == 0 and r["epaulettes"] == 0


def test_epaulettes_count_the_six_that_beat_the_last_attack():
    r = _epaulettes_after("1 defend 6C 6H")  # hearts are trumps
    assert r["fool"] == 0 and r["epaulettes"] == 1
