"""Bout settlement: a bout starts, ends when nobody can act, players draw and go out,
and the game ends.
"""

from __future__ import annotations

from typing import Any

from .actions import (
    K_DEFEND,
    Action,
)
from .cards import (
    BIT,
    CODES,
    SIX_RANK,
)
from .config import LEAD, OVER, TAKING
from .events import (
    BoutBeaten,
    BoutStarted,
    CardsTaken,
    Drew,
    Event,
    GameOver,
    WentOut,
)
from .seats import (
    bout_is_over,
    bout_limit,
    drawing_order,
    eligible_attackers,
    next_in_game,
    next_opponent,
)
from .state import GameState

# Events that are plain values of a few small ints, shared instead of rebuilt every time.
_BOUT_STARTED: dict[int, BoutStarted] = {}
_DREW: dict[int, Drew] = {}


def _bout_started(att: int, d: int, cap: int) -> BoutStarted:
    e = _BOUT_STARTED[att << 3 | d | cap << 6] = BoutStarted(att, d, cap)
    return e


def _drew(s: int, k: int) -> Drew:
    e = _DREW[k << 3 | s] = Drew(s, k, None)
    return e


def start_bout(st: GameState, att: int) -> BoutStarted:
    """Start a bout led by ``att``: the defender, the limit and who may throw in."""
    c = st.config
    gone = st.out_mask | st.empty_mask
    # Nobody out: the next seat is always the defender (in teams seats alternate).
    d = c.next_seat[att] if not gone else next_opponent(c, gone, att)
    cap = bout_limit(c, st.bout_number, st.hands[d].bit_count())
    st.attacker = att
    st.defender = d
    st.bout_limit = cap
    st.attackers_mask = eligible_attackers(c, st.out_mask, att, d)
    st.phase = LEAD
    st.done_mask = 0
    st.joined_order = ()
    st.shown_mask = 0
    st.beaten_count = 0
    return _BOUT_STARTED.get(att << 3 | d | cap << 6) or _bout_started(att, d, cap)


def emptied(st: GameState, seat: int, action: Action, ev: list[Event]) -> None:
    """``seat`` just played its last card."""
    st.empty_mask |= 1 << seat
    # The cards this play put down: a defence names the attack card it beat first,
    # and that card was the other side's.
    played = action.card_indices[1:] if action._kind_code == K_DEFEND else action.card_indices
    six = 0
    for i in played:
        if i >> 2 == SIX_RANK:
            six += 1
    sixes = st.last_play_sixes
    st.last_play_sixes = (*sixes[:seat], six, *sixes[seat + 1 :])
    if not st.talon:
        go_out(st, seat, ev)


def go_out(st: GameState, seat: int, ev: list[Event]) -> None:
    st.out_mask |= 1 << seat
    st.went_out = (*st.went_out, seat)
    ev.append(WentOut(seat))
    if st.config.rules.one_winner:
        finish(st, ev, None, None, False, seat, None)


def settle(st: GameState, ev: list[Event]) -> None:
    """End the bout if nobody is left who could still act in it. Called once every attack
    card is beaten, and while the defender is taking.
    """
    taking = st.phase == TAKING
    if bout_is_over(
        taking,
        st.unbeaten_mask,
        st.attack_count,
        st.bout_limit,
        st.hands[st.defender],
        st.attackers_mask & ~st.done_mask & ~st.empty_mask,
    ):
        end_bout(st, ev, not taking)


def end_bout(st: GameState, ev: list[Event], beaten: bool) -> None:
    """The bout's cards go to the discard pile or the defender, players draw and go out,
    and the next bout starts (or the game ends).
    """
    d = st.defender
    cards = st.table_mask
    hands = st.hands
    # The event names the attack cards, then the defence cards in the same order (-1 is
    # an attack card left unbeaten). A loop, not a comprehension: a bout holds a few
    # cards, and a comprehension's own function call costs more than naming them.
    names = []
    for i in st.attack_cards + st.defence_cards:
        if i >= 0:
            names.append(CODES[i])
    if beaten:
        st.discard_mask |= cards
        ev.append(BoutBeaten(d, tuple(names)))
    else:
        hands[d] |= cards
        st.known_cards[d] |= cards
        st.empty_mask &= ~(1 << d)
        ev.append(CardsTaken(d, tuple(names)))
    st.attack_cards = []
    st.defence_cards = []
    st.table_mask = st.table_ranks_mask = st.unbeaten_mask = 0
    st.attack_count = st.beaten_count = 0
    talon = st.talon
    order = drawing_order(st.attacker, st.joined_order, d)
    if talon:
        hs = st.config.hand_size
        six = st.trump_six
        for s in order:
            h = hands[s]
            need = hs - h.bit_count()
            if need <= 0:
                continue
            k = need if need < len(talon) else len(talon)
            m = 0
            for _ in range(k):
                m |= BIT[talon.pop()]
            if not h:
                st.empty_mask &= ~(1 << s)
            hands[s] = h | m
            if six and m & six:
                st.trump_six_holder = s
            if talon:
                ev.append(_DREW.get(k << 3 | s) or _drew(s, k))
                continue
            # The face-up trump was the last card: drawn, so publicly in this hand.
            st.known_cards[s] |= BIT[st.trump_card]
            if six:
                st.trump_drawer = s
            ev.append(Drew(s, k, CODES[st.trump_card]))
            break
    if not talon:
        out = st.out_mask
        for s in order:
            if not hands[s] and not out >> s & 1:
                go_out(st, s, ev)
                if st.phase == OVER:
                    return
    if st.out_mask:
        if check_over(st, ev):
            return
        att = d if beaten and not st.out_mask >> d & 1 else next_in_game(st.config, st.out_mask, d)
    else:
        att = d if beaten else st.config.next_seat[d]
    st.bout_number += 1
    ev.append(start_bout(st, att))


def check_over(st: GameState, ev: list[Event]) -> bool:
    """End the game if one player (or one team) is left holding cards, or nobody is."""
    c = st.config
    alive = c.all_seats & ~st.out_mask
    team = c.team_of
    if team is None:
        if alive & (alive - 1):
            return False
        fool = alive.bit_length() - 1 if alive else None
        finish(st, ev, fool, None, fool is None, None, None)
        return True
    alive_teams = {team[s] for s in range(c.players) if alive >> s & 1}
    if len(alive_teams) > 1:
        return False
    if not alive_teams:
        finish(st, ev, None, None, True, None, None)
        return True
    losing = alive_teams.pop()
    holders = [s for s in range(c.players) if alive >> s & 1]
    fool = holders[0] if len(holders) == 1 else None
    finish(st, ev, fool, losing, False, None, None)
    return True


def finish(
    st: GameState,
    ev: list[Event],
    fool: int | None,
    fool_team: int | None,
    draw: bool,
    winner: int | None,
    resigned: int | None,
) -> None:
    """Record the result and end the game."""
    ep = 0
    if (
        st.config.rules.epaulettes
        and resigned is None
        and not draw
        and (fool is not None or fool_team is not None)
        and st.went_out
    ):
        ep = min(2, st.last_play_sixes[st.went_out[-1]])
    st.outcome = {
        "fool": fool,
        "fool_team": fool_team,
        "draw": draw,
        "winner": winner,
        "out_order": st.went_out,
        "epaulettes": ep,
        "resigned": resigned,
    }
    st.phase = OVER
    st.is_over = True
    st.trump_drawer = -1
    ev.append(GameOver(public_result(st.outcome)))


def result_of(st: GameState) -> dict[str, Any] | None:
    """The result as the public API gives it, or None while the game goes on."""
    return None if st.outcome is None else public_result(st.outcome)


def public_result(outcome: dict[str, Any]) -> dict[str, Any]:
    """A fresh copy of a result, its ``out_order`` a list."""
    r = dict(outcome)
    r["out_order"] = list(r["out_order"])
    return r
