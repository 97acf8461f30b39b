"""Game records (deal + actions, replayable) and snapshots (the full state, restorable)."""

from __future__ import annotations

from typing import Any, TypeVar

from .actions import Action
from .cards import BEATERS, BIT, CODES, card_index, mask_to_codes, rank_closure
from .config import PHASES, config_for
from .deal import setup
from .handlers import apply
from .rules import Rules
from .settlement import result_of
from .state import Deal, GameState, chain_of

G = TypeVar("G", bound=GameState)

RECORD_FORMAT = "durak-record/1"
SNAPSHOT_FORMAT = "durak-snapshot/1"


def to_record(g: GameState) -> dict[str, Any]:
    deck, dealer, fa, fa_by = g.deal
    if deck is None:
        raise ValueError(
            "this game was not dealt from a deck (a made-up position or a determinized game),"
            " so it has no record; use snapshot()"
        )
    return {
        "format": RECORD_FORMAT,
        "rules": g.config.rules.to_dict(),
        "deck": list(deck),
        "dealer": dealer,
        "first_attacker": fa,
        "first_attacker_by": fa_by,
        "actions": [str(a) for a in g.actions_played()],
        "result": result_of(g),
    }


def _build(cls: type[G], rules: Rules, deck: Any, dealer: Any, fa: Any, fa_by: Any) -> G:
    g = object.__new__(cls)
    if fa_by == "given":
        setup(g, rules, deck, dealer, fa, None, None)
    elif fa_by == "draw":
        if not isinstance(fa, int) or isinstance(fa, bool) or not 0 <= fa < rules.players:
            raise ValueError(f"first_attacker must be a seat 0-{rules.players - 1}, not {fa!r}")
        setup(g, rules, deck, dealer, None, fa, None)
    elif fa_by in ("lowest_trump", None):
        setup(g, rules, deck, dealer, None, None, None)
        if fa is not None and g.deal.first_attacker != fa:
            raise ValueError(
                f"first_attacker {fa!r} does not hold the lowest trump; seat {g.deal.first_attacker} does"
            )
    else:
        raise ValueError(f"first_attacker_by must be lowest_trump, draw or given, not {fa_by!r}")
    return g


def from_record(cls: type[G], record: dict[str, Any]) -> G:
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
            apply(g, text)
        except ValueError as e:
            raise ValueError(f"record action {i} ({text!r}): {e}") from None
    want = record.get("result")
    got = result_of(g)
    if want is not None and want != got:
        raise ValueError(f"record result {want!r} does not match the replayed result {got!r}")
    return g


# ------------------------------------------------------------------ snapshots


def _seats(mask: int, n: int) -> list[int]:
    return [s for s in range(n) if mask >> s & 1]


def snapshot(g: GameState) -> dict[str, Any]:
    n = g.config.players
    deck, dealer, fa, fa_by = g.deal
    r = g.outcome
    return {
        "format": SNAPSHOT_FORMAT,
        "rules": g.config.rules.to_dict(),
        "deck": list(deck) if deck is not None else None,
        "dealer": dealer,
        "first_attacker": fa,
        "first_attacker_by": fa_by,
        "hands": [mask_to_codes(h) for h in g.hands],
        "talon": [CODES[i] for i in reversed(g.talon)],
        "trump": CODES[g.trump_card],
        "table": [
            [CODES[a], CODES[d] if d >= 0 else None]
            for a, d in zip(g.attack_cards, g.defence_cards, strict=True)
        ],
        "discard": mask_to_codes(g.discard_mask),
        "phase": g.phase,
        "attacker": g.attacker,
        "defender": g.defender,
        "attackers": _seats(g.attackers_mask, n),
        "done": _seats(g.done_mask, n),
        "joined": list(g.joined_order),
        "limit": g.bout_limit,
        "shown": mask_to_codes(g.shown_mask),
        "bout": g.bout_number,
        "out_order": list(g.went_out),
        "known": [mask_to_codes(k) for k in g.known_in_hands()],
        "six": mask_to_codes(g.trump_six),
        "six_owner": g.trump_six_holder if g.trump_six_holder >= 0 else None,
        "trump_drawer": g.trump_drawer if g.trump_drawer >= 0 else None,
        "sixes": list(g.last_play_sixes),
        "actions": [str(a) for a in g.actions_played()],
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


def from_snapshot(cls: type[G], data: dict[str, Any]) -> G:
    if not isinstance(data, dict) or data.get("format") != SNAPSHOT_FORMAT:
        raise ValueError(f"snapshot format must be {SNAPSHOT_FORMAT!r}")
    try:
        return _from_snapshot(cls, data)
    except (KeyError, TypeError, IndexError) as e:
        raise ValueError(f"malformed snapshot: {e!r}") from None


def _from_snapshot(cls: type[G], d: dict[str, Any]) -> G:
    rules = Rules.from_dict(d["rules"])
    c = config_for(rules)
    n = c.players
    g = object.__new__(cls)
    g.config = c
    if len(d["hands"]) != n or len(d["known"]) != n or len(d["sixes"]) != n:
        raise ValueError("snapshot hands/known/sixes need one entry per seat")
    g.hands = [_mask(h, "hand") for h in d["hands"]]
    g.talon = [card_index(x) for x in reversed(d["talon"])]
    g.trump_card = card_index(d["trump"])
    g.trump_suit_index = g.trump_card & 3
    g.beaters = BEATERS[g.trump_suit_index]
    g.attack_cards = [card_index(a) for a, _ in d["table"]]
    g.defence_cards = [card_index(x) if x is not None else -1 for _, x in d["table"]]
    _rebuild_table_masks(g)
    g.beaten_count = sum(1 for x in g.defence_cards if x >= 0)
    if d["phase"] not in PHASES:
        raise ValueError(f"snapshot phase {d['phase']!r} is unknown")
    g.phase = PHASES[PHASES.index(d["phase"])]  # the engine's own string object
    g.is_over = d["phase"] == "over"
    g.attacker = _seat_or_none(d["attacker"], n, "attacker")
    g.defender = _seat_or_none(d["defender"], n, "defender")
    g.attackers_mask = sum(1 << s for s in d["attackers"])
    g.done_mask = sum(1 << s for s in d["done"])
    g.joined_order = tuple(d["joined"])
    g.bout_limit = int(d["limit"])
    g.shown_mask = _mask(d["shown"], "shown")
    g.bout_number = int(d["bout"])
    g.went_out = tuple(d["out_order"])
    g.out_mask = sum(1 << s for s in g.went_out)
    g.empty_mask = sum(1 << s for s in range(n) if not g.hands[s])
    g.known_cards = [_mask(k, "known") for k in d["known"]]
    g.discard_mask = _mask(d["discard"], "discard")
    g.trump_six = _mask(d["six"], "six")
    g.trump_six_holder = _seat_or_none(d["six_owner"], n, "six_owner")
    g.trump_drawer = _seat_or_none(d["trump_drawer"], n, "trump_drawer")
    g.last_play_sixes = tuple(int(x) for x in d["sixes"])
    actions = [Action.parse(t) for t in d["actions"]]
    g.action_chain = chain_of(actions)
    deck = d["deck"]
    g.deal = Deal(
        tuple(deck) if deck is not None else None,
        _seat_or_none(d["dealer"], n, "dealer"),
        _seat_or_none(d["first_attacker"], n, "first_attacker"),
        d["first_attacker_by"],
    )
    r = d["result"]
    g.outcome = None if r is None else {**r, "out_order": tuple(r["out_order"])}
    g.opening_events = ()
    # Every card of the deck must be in exactly one place.
    places = [
        *g.hands,
        _mask([CODES[i] for i in g.talon], "talon"),
        g.table_mask,
        g.discard_mask,
    ]
    total = 0
    for m in places:
        if total & m:
            raise ValueError(f"snapshot puts {' '.join(mask_to_codes(total & m))} in two places")
        total |= m
    if total != c.deck_mask:
        raise ValueError("snapshot cards do not add up to the deck")
    return g


def _rebuild_table_masks(g: GameState) -> None:
    """Derive the table's bit masks from its attack and defence lists (play keeps them
    up to date as it goes; a restored state has only the lists).
    """
    table = unbeaten = 0
    for attack, defence in zip(g.attack_cards, g.defence_cards, strict=True):
        table |= BIT[attack]
        if defence >= 0:
            table |= BIT[defence]
        else:
            unbeaten |= BIT[attack]
    g.table_mask = table
    g.table_ranks_mask = rank_closure(table)
    g.unbeaten_mask = unbeaten
    g.attack_count = len(g.attack_cards)
