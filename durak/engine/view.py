"""What a seat may see: the view dict, the table, the position key."""

from __future__ import annotations

from typing import Any

from .cards import CODES, SUITS, mask_to_codes
from .config import OVER
from .legal import legal_actions
from .settlement import result_of
from .state import GameState
from .turns import to_act


def table_of(st: GameState) -> list[list[str | None]]:
    """The table as [attack card, defence card or None] pairs, in the order played."""
    return [
        [CODES[a], CODES[d] if d >= 0 else None]
        for a, d in zip(st.attack_cards, st.defence_cards, strict=True)
    ]


def seats_in(mask: int, players: int) -> list[int]:
    """The seats of a seat mask, in seat order."""
    return [s for s in range(players) if mask >> s & 1]


def view_of(st: GameState, seat: int | None) -> dict[str, Any]:
    """What ``seat`` may see (None: a spectator). JSON-ready; no hidden card appears."""
    c = st.config
    if seat is not None and not (isinstance(seat, int) and 0 <= seat < c.players):
        raise ValueError(f"no seat {seat!r} in a {c.players}-player game")
    ph = st.phase
    playing = ph != OVER
    v: dict[str, Any] = {
        "seat": seat,
        "hand": mask_to_codes(st.hands[seat]) if seat is not None else None,
        "hand_counts": [h.bit_count() for h in st.hands],
        "table": table_of(st),
        "trump": CODES[st.trump_card],
        "trump_suit": SUITS[st.trump_suit_index],
        "talon": len(st.talon),
        "discard": st.discard_mask.bit_count(),
        "attacker": st.attacker if playing else None,
        "defender": st.defender if playing else None,
        "to_act": [t.seat for t in to_act(st)],
        "phase": ph,
        "bout": st.bout_number,
        "bout_limit": st.bout_limit,
        "cards_allowed": max(0, st.bout_limit - st.attack_count) if playing else 0,
        "done": seats_in(st.done_mask, c.players),
        "attackers": seats_in(st.attackers_mask, c.players) if playing else [],
        "out": seats_in(st.out_mask, c.players),
        "out_order": list(st.went_out),
        "teams": list(c.team_of) if c.team_of is not None else None,
        "dealer": st.deal.dealer,
        "first_attacker": st.deal.first_attacker,
        "is_over": not playing,
        "result": result_of(st),
    }
    if seat is not None:
        v["legal"] = [str(a) for a in legal_actions(st, seat)]
    return v


def position_key(st: GameState) -> tuple[Any, ...]:
    """A hashable value, equal for two games of one variant that play on alike (see
    ``Game.position_key``).
    """
    talon = st.talon
    r = st.outcome
    # The table as masks: which cards lie there, which are unbeaten, how many attack
    # cards were played. The order they were played in changes nothing that follows.
    return (
        tuple(st.hands),
        tuple(talon),
        st.trump_card,
        st.table_mask,
        st.unbeaten_mask,
        st.attack_count,
        st.phase,
        st.attacker,
        st.defender,
        st.attackers_mask,
        st.done_mask,
        st.bout_limit,
        st.shown_mask,
        st.out_mask,
        st.bout_number == 0,
        tuple(st.joined_order) if talon else (),
        st.trump_six,
        st.trump_six_holder,
        st.trump_drawer,
        None if r is None else (r["fool"], r["fool_team"], r["draw"], r["winner"]),
    )
