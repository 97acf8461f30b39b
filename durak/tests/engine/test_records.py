"""Records, snapshots, copies, views and events."""

import json
import random

import pytest

from durak.engine import Action, Game, IllegalAction, Rules


def random_game(rules: Rules, seed: int, steps: int = 10**6) -> Game:
    rng = random.Random(seed)
    g = Game.new(rules, rng)
    for _ in range(steps):
        if g.is_over:
            break
        g.apply(rng.choice(g.legal_actions()))
    return g


def test_record_format_and_replay():
    g = random_game(Rules(players=3, mode="perevodnoy"), 1)
    rec = g.to_record()
    assert rec["format"] == "durak-record/1"
    assert set(rec) >= {"rules", "deck", "actions", "result", "dealer", "first_attacker"}
    json.dumps(rec)
    g2 = Game.from_record(json.loads(json.dumps(rec)))
    assert g2.snapshot() == g.snapshot()
    assert g2.history == g.history


def test_record_validation_messages():
    rec = random_game(Rules(), 2).to_record()
    with pytest.raises(ValueError, match="format"):
        Game.from_record({**rec, "format": "other/9"})
    with pytest.raises(ValueError, match="bad card"):
        Game.from_record({**rec, "deck": ["1X", *rec["deck"][1:]]})
    with pytest.raises(ValueError, match="twice"):
        Game.from_record({**rec, "deck": [rec["deck"][1], *rec["deck"][1:]]})
    bad = list(rec["actions"])
    bad[3] = "0 fly"
    with pytest.raises(ValueError, match="action 3"):
        Game.from_record({**rec, "actions": bad})
    bad = list(rec["actions"])
    bad[4] = bad[4].replace("0", "1", 1) if bad[4][0] == "0" else bad[4].replace("1", "0", 1)
    with pytest.raises(ValueError, match="action 4"):
        Game.from_record({**rec, "actions": bad})
    with pytest.raises(ValueError, match="result"):
        Game.from_record({**rec, "result": {"fool": 9}})


def test_snapshot_round_trip_mid_game_and_play_on():
    g = random_game(Rules(players=4, mode="perevodnoy", trump_six_swap=True), 3, steps=40)
    snap = json.loads(json.dumps(g.snapshot()))
    g2 = Game.from_snapshot(snap)
    assert g2.snapshot() == g.snapshot()
    assert g2.to_record() == g.to_record()
    rng1, rng2 = random.Random(9), random.Random(9)
    while not g.is_over:
        a = rng1.choice(g.legal_actions())
        b = rng2.choice(g2.legal_actions())
        assert a == b
        assert [e.to_dict() for e in g.apply(a)] == [e.to_dict() for e in g2.apply(b)]
    assert g.result == g2.result


def test_snapshot_rejects_broken_data():
    snap = random_game(Rules(), 4, steps=10).snapshot()
    with pytest.raises(ValueError):
        Game.from_snapshot({**snap, "format": "x"})
    hands = [list(h) for h in snap["hands"]]
    hands[0].append(snap["talon"][0])
    with pytest.raises(ValueError, match="two places"):
        Game.from_snapshot({**snap, "hands": hands})


def test_copy_is_independent():
    g = random_game(Rules(players=3), 5, steps=15)
    c = g.copy()
    before = g.snapshot()
    while not c.is_over:
        c.apply(c.legal_actions()[0])
    assert g.snapshot() == before


def test_apply_accepts_text_or_action_and_returns_json_ready_events():
    g = Game.new(Rules(), 6)
    a = g.legal_actions()[0]
    ev = g.apply(str(a))
    json.dumps([e.to_dict() for e in ev])
    assert g.history == [a]
    with pytest.raises(IllegalAction):
        g.apply(42)  # type: ignore[arg-type]
    with pytest.raises(IllegalAction, match="no seat 5"):
        g.apply(Action(5, "take"))


def test_view_spectator_and_seat():
    g = Game.new(Rules(players=3), 7)
    v = g.view(None)
    assert v["hand"] is None and "legal" not in v
    json.dumps(v)
    v0 = g.view(0)
    assert v0["hand"] == g.hand(0)
    assert set(v0) >= {
        "seat",
        "hand",
        "hand_counts",
        "table",
        "trump",
        "talon",
        "discard",
        "attacker",
        "defender",
        "to_act",
    }
    with pytest.raises(ValueError):
        g.view(3)
