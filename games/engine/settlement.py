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
from .config import DEFEND, LEAD, OVER, TAKING
from .events import (
    BoutBeaten,
    BoutStarted,
    CardsTaken,
    Drew,
    GameOver,
    WentOut,
)
from .rules import MAX_ATTACK

# Events that are plain values of a few small ints, shared instead of rebuilt every time.
_BOUT_STARTED: dict[int, BoutStarted] = {}
_DREW: dict[int, Drew] = {}


def _bout_started(att: int, d: int, cap: int) -> BoutStarted:
    e = _BOUT_STARTED[att << 3 | d | cap << 6] = BoutStarted(att, d, cap)
    return e


def _drew(s: int, k: int) -> Drew:
    e = _DREW[k << 3 | s] = Drew(s, k, None)
    return e


class BoutSettlementMixin:
    """Starting a bout, ending it, going out and the end of the game."""

    __slots__ = ()

    def _start_bout(self, att: int) -> BoutStarted:
        c = self._config
        gone = self._out_mask | self._empty_mask
        # Nobody out: the next seat is always the defender (in teams seats alternate).
        d = c.next_seat[att] if not gone else self._next_opponent(att)
        fbl = c.first_bout_limit
        cap = fbl if fbl and not self._bout_number else MAX_ATTACK
        hc = self._hands[d].bit_count()
        if hc < cap:
            cap = hc
        self._attacker = att
        self._defender = d
        self._bout_limit = cap
        self._attackers_mask = self._eligible_attackers(att, d)
        self._phase = LEAD
        self._done_mask = 0
        self._joined_order = []
        self._shown_mask = 0
        self._beaten_count = 0
        return _BOUT_STARTED.get(att << 3 | d | cap << 6) or _bout_started(att, d, cap)

    def _emptied(self, seat: int, action: Action, ev: list[Any]) -> None:
        """``seat`` just played its last card."""
        self._empty_mask |= 1 << seat
        # The cards this play put down: a defence names the attack card it beat first,
        # and that card was the other side's.
        played = action.card_indices[1:] if action._kind_code == K_DEFEND else action.card_indices
        six = 0
        for i in played:
            if i >> 2 == SIX_RANK:
                six += 1
        self._last_play_sixes[seat] = six
        if not self._talon:
            self._go_out(seat, ev)

    def _go_out(self, seat: int, ev: list[Any]) -> None:
        self._out_mask |= 1 << seat
        self._out_order.append(seat)
        ev.append(WentOut(seat))
        if self._config.rules.one_winner:
            self._finish(ev, None, None, False, seat, None)

    def _settle(self, ev: list[Any]) -> None:
        """End the bout if nobody is left who could still act in it."""
        ph = self._phase
        if ph == DEFEND:
            if self._unbeaten_mask:
                return
            if (
                self._attack_count >= self._bout_limit
                or not self._hands[self._defender]
                or not self._attackers_mask & ~self._done_mask & ~self._empty_mask
            ):
                self._end_bout(ev, True)
        elif ph == TAKING and (
            self._attack_count >= self._bout_limit
            or not self._attackers_mask & ~self._done_mask & ~self._empty_mask
        ):
            self._end_bout(ev, False)

    def _end_bout(self, ev: list[Any], beaten: bool) -> None:
        d = self._defender
        cards = self._table_mask
        tatt = self._attack_cards
        hands = self._hands
        on_table = tuple([CODES[i] for i in tatt + self._defence_cards if i >= 0])
        if beaten:
            self._discard_mask |= cards
            ev.append(BoutBeaten(d, on_table))
        else:
            hands[d] |= cards
            self._known_cards[d] |= cards
            self._empty_mask &= ~(1 << d)
            ev.append(CardsTaken(d, on_table))
        self._attack_cards = []
        self._defence_cards = []
        self._table_mask = self._table_ranks_mask = self._unbeaten_mask = self._attack_count = (
            self._beaten_count
        ) = 0
        talon = self._talon
        # Drawing order: the principal attacker (after transfers: the last one to pass
        # the attack on), the other attackers in the order they joined, the defender.
        order = self._joined_order
        att = self._attacker
        if order[0] != att:
            order.remove(att)
            order.insert(0, att)
        if d in order:
            order.remove(d)
        order.append(d)
        if talon:
            hs = self._config.hand_size
            six = self._trump_six
            for s in order:
                h = hands[s]
                need = hs - h.bit_count()
                if need <= 0:
                    continue
                k = min(need, len(talon))
                m = 0
                for _ in range(k):
                    m |= BIT[talon.pop()]
                if not h:
                    self._empty_mask &= ~(1 << s)
                hands[s] = h | m
                if six and m & six:
                    self._trump_six_holder = s
                if talon:
                    ev.append(_DREW.get(k << 3 | s) or _drew(s, k))
                    continue
                # The face-up trump was the last card: drawn, so publicly in this hand.
                self._known_cards[s] |= BIT[self._trump_card]
                if six:
                    self._trump_drawer = s
                ev.append(Drew(s, k, CODES[self._trump_card]))
                break
        if not talon:
            out = self._out_mask
            for s in order:
                if not hands[s] and not out >> s & 1:
                    self._go_out(s, ev)
                    if self._phase == OVER:
                        return
        if self._out_mask:
            if self._check_over(ev):
                return
            att = d if beaten and not self._out_mask >> d & 1 else self._next_in_game(d)
        else:
            att = d if beaten else self._config.next_seat[d]
        self._bout_number += 1
        ev.append(self._start_bout(att))

    def _check_over(self, ev: list[Any]) -> bool:
        c = self._config
        alive = c.all_seats & ~self._out_mask
        team = c.team_of
        if team is None:
            if alive & (alive - 1):
                return False
            fool = alive.bit_length() - 1 if alive else None
            self._finish(ev, fool, None, fool is None, None, None)
            return True
        alive_teams = {team[s] for s in range(c.players) if alive >> s & 1}
        if len(alive_teams) > 1:
            return False
        if not alive_teams:
            self._finish(ev, None, None, True, None, None)
            return True
        losing = alive_teams.pop()
        holders = [s for s in range(c.players) if alive >> s & 1]
        fool = holders[0] if len(holders) == 1 else None
        self._finish(ev, fool, losing, False, None, None)
        return True

    def _finish(
        self,
        ev: list[Any],
        fool: int | None,
        fool_team: int | None,
        draw: bool,
        winner: int | None,
        resigned: int | None,
    ) -> None:
        ep = 0
        if (
            self._config.rules.epaulettes
            and resigned is None
            and not draw
            and (fool is not None or fool_team is not None)
            and self._out_order
        ):
            ep = min(2, self._last_play_sixes[self._out_order[-1]])
        self._result = {
            "fool": fool,
            "fool_team": fool_team,
            "draw": draw,
            "winner": winner,
            "out_order": tuple(self._out_order),
            "epaulettes": ep,
            "resigned": resigned,
        }
        self._phase = OVER
        self._is_over = True
        self._trump_drawer = -1
        ev.append(GameOver(self.result))
