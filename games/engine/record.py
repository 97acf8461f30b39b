"""Game records (deal + actions, replayable) and snapshots (the full state, restorable)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .actions import Action
from .cards import BEATERS, BIT, CODES, card_index, mask_to_codes
from .config import PHASES
from .rules import Rules

if TYPE_CHECKING:
    from .game import Game

RECORD_FORMAT = "durak-record/1"
SNAPSHOT_FORMAT = "durak-snapshot/1"


def _history_chain(actions: list[Action]) -> Any:
    h = None
    for a in actions:
        h = (h, a)
    return h


def to_record(g: Game) -> dict[str, Any]:
    deck, dealer, fa, fa_by = g._deal
    if deck is None:
        raise ValueError(
            "this game was not dealt from a deck (a made-up position or a determinized game),"
            " so it has no record; use snapshot()"
        )
    return {
        "format": RECORD_FORMAT,
        "rules": g.rules.to_dict(),
        "deck": list(deck),
        "dealer": dealer,
        "first_attacker": fa,
        "first_attacker_by": fa_by,
        "actions": [str(a) for a in g.history],
        "result": g.result,
    }


def _build(cls: type[Game], rules: Rules, deck: Any, dealer: Any, fa: Any, fa_by: Any) -> Game:
    g = object.__new__(cls)
    if fa_by == "given":
        g._setup(rules, deck, dealer, fa, None, None)
    elif fa_by == "draw":
        if not isinstance(fa, int) or isinstance(fa, bool) or not 0 <= fa < rules.players:
            raise ValueError(f"first_attacker must be a seat 0-{rules.players - 1}, not {fa!r}")
        g._setup(rules, deck, dealer, None, fa, None)
    elif fa_by in ("lowest_trump", None):
        g._setup(rules, deck, dealer, None, None, None)
        if fa is not None and g._deal[2] != fa:
            raise ValueError(
                f"first_attacker {fa!r} does not hold the lowest trump; seat {g._deal[2]} does"
            )
    else:
        raise ValueError(f"first_attacker_by must be lowest_trump, draw or given, not {fa_by!r}")
    return g


def from_record(cls: type[Game], record: dict[str, Any]) -> Game:
    if not isinstance(record, dict):
        raise ValueError("a record must be a dict")
    if record.get("format") != RECORD_FORMAT:
        raise ValueError(f"record format must be {RECORD_FORMAT!r}, not {record.get('format')!r}")
    for key in ("rules", "deck", "actions"):
        if key not in record:
            raise ValueError(f"record has no {key!r}")
    rules = Rules.from_dict(record["rules"])
    fa_by = record.get("first_attacker_by")
    if fa_by is None and record.get("first_attacker") is not None:
        fa_by = "given"
    g = _build(
        cls, rules, record["deck"], record.get("dealer"), record.get("first_attacker"), fa_by
    )
    actions = record["actions"]
    if not isinstance(actions, list):
        raise ValueError("record actions must be a list of action texts")
    for i, text in enumerate(actions):
        try:
            g.apply(text)
        except ValueError as e:
            raise ValueError(f"record action {i} ({text!r}): {e}") from None
    want = record.get("result")
    if want is not None and want != g.result:
        raise ValueError(f"record result {want!r} does not match the replayed result {g.result!r}")
    return g


# ------------------------------------------------------------------ snapshots


def _seats(mask: int, n: int) -> list[int]:
    return [s for s in range(n) if mask >> s & 1]


def snapshot(g: Game) -> dict[str, Any]:
    n = g._config.players
    deck, dealer, fa, fa_by = g._deal
    r = g._result
    return {
        "format": SNAPSHOT_FORMAT,
        "rules": g.rules.to_dict(),
        "deck": list(deck) if deck is not None else None,
        "dealer": dealer,
        "first_attacker": fa,
        "first_attacker_by": fa_by,
        "hands": [mask_to_codes(h) for h in g._hands],
        "talon": [CODES[i] for i in reversed(g._talon)],
        "trump": CODES[g._trump_card],
        "table": [
            [CODES[a], CODES[d] if d >= 0 else None]
            for a, d in zip(g._attack_cards, g._defence_cards, strict=True)
        ],
        "discard": mask_to_codes(g._discard_mask),
        "phase": g._phase,
        "attacker": g._attacker,
        "defender": g._defender,
        "attackers": _seats(g._attackers_mask, n),
        "done": _seats(g._done_mask, n),
        "joined": list(g._joined_order),
        "limit": g._bout_limit,
        "shown": mask_to_codes(g._shown_mask),
        "bout": g._bout_number,
        "out_order": list(g._out_order),
        "known": [mask_to_codes(k) for k in g._known_cards],
        "six": mask_to_codes(g._trump_six),
        "six_owner": g._trump_six_holder if g._trump_six_holder >= 0 else None,
        "trump_drawer": g._trump_drawer if g._trump_drawer >= 0 else None,
        "sixes": list(g._last_play_sixes),
        "actions": [str(a) for a in g.history],
        "result": None if r is None else {**r, "out_order": list(r["out_order"])},
    }


def _mask(codes: Any, what: str) -> int:
    if not isinstance(codes, list):
        raise ValueError(f"snapshot {what} must be a list of card codes")
    m = 0
    for c in codes:
        i = card_index(c)
        if m & BIT[i]:
            raise ValueError(f"snapshot {what} holds {c} twice")
        m |= BIT[i]
    return m


def _seat_or_none(v: Any, n: int, what: str) -> int:
    if v is None:
        return -1
    if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v < n:
        raise ValueError(f"snapshot {what} must be a seat 0-{n - 1} or null, not {v!r}")
    return v


def from_snapshot(cls: type[Game], data: dict[str, Any]) -> Game:
    from .config import config_for

    if not isinstance(data, dict) or data.get("format") != SNAPSHOT_FORMAT:
        raise ValueError(f"snapshot format must be {SNAPSHOT_FORMAT!r}")
    try:
        return _from_snapshot(cls, data, config_for)
    except (KeyError, TypeError, IndexError) as e:
        raise ValueError(f"malformed snapshot: {e!r}") from None


def _from_snapshot(cls: type[Game], d: dict[str, Any], config_for: Any) -> Game:
    rules = Rules.from_dict(d["rules"])
    c = config_for(rules)
    n = c.players
    g = object.__new__(cls)
    g._config = c
    if len(d["hands"]) != n or len(d["known"]) != n or len(d["sixes"]) != n:
        raise ValueError("snapshot hands/known/sixes need one entry per seat")
    g._hands = [_mask(h, "hand") for h in d["hands"]]
    g._talon = [card_index(x) for x in reversed(d["talon"])]
    g._trump_card = card_index(d["trump"])
    g._trump_suit = g._trump_card & 3
    g._beaters = BEATERS[g._trump_suit]
    g._attack_cards = [card_index(a) for a, _ in d["table"]]
    g._defence_cards = [card_index(x) if x is not None else -1 for _, x in d["table"]]
    g._rebuild_table_masks()
    g._beaten_count = sum(1 for x in g._defence_cards if x >= 0)
    if d["phase"] not in PHASES:
        raise ValueError(f"snapshot phase {d['phase']!r} is unknown")
    g._phase = PHASES[PHASES.index(d["phase"])]  # the engine's own string object
    g._is_over = d["phase"] == "over"
    g._attacker = _seat_or_none(d["attacker"], n, "attacker")
    g._defender = _seat_or_none(d["defender"], n, "defender")
    g._attackers_mask = sum(1 << s for s in d["attackers"])
    g._done_mask = sum(1 << s for s in d["done"])
    g._joined_order = list(d["joined"])
    g._bout_limit = int(d["limit"])
    g._shown_mask = _mask(d["shown"], "shown")
    g._bout_number = int(d["bout"])
    g._out_order = list(d["out_order"])
    g._out_mask = sum(1 << s for s in g._out_order)
    g._empty_mask = sum(1 << s for s in range(n) if not g._hands[s])
    g._known_cards = [_mask(k, "known") for k in d["known"]]
    g._discard_mask = _mask(d["discard"], "discard")
    g._trump_six = _mask(d["six"], "six")
    g._trump_six_holder = _seat_or_none(d["six_owner"], n, "six_owner")
    g._trump_drawer = _seat_or_none(d["trump_drawer"], n, "trump_drawer")
    g._last_play_sixes = [int(x) for x in d["sixes"]]
    actions = [Action.parse(t) for t in d["actions"]]
    g._history = _history_chain(actions)
    deck = d["deck"]
    g._deal = (
        tuple(deck) if deck is not None else None,
        _seat_or_none(d["dealer"], n, "dealer"),
        _seat_or_none(d["first_attacker"], n, "first_attacker"),
        d["first_attacker_by"],
    )
    r = d["result"]
    g._result = None if r is None else {**r, "out_order": tuple(r["out_order"])}
    g._deal_events = ()
    # Every card of the deck must be in exactly one place.
    places = [
        *g._hands,
        _mask([CODES[i] for i in g._talon], "talon"),
        g._table_mask,
        g._discard_mask,
    ]
    total = 0
    for m in places:
        if total & m:
            raise ValueError(f"snapshot puts {' '.join(mask_to_codes(total & m))} in two places")
        total |= m
    if total != c.deck_mask:
        raise ValueError("snapshot cards do not add up to the deck")
    return g
