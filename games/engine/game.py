"""The game: its state, seat arithmetic, ``apply`` and ``copy``.

Phases of a bout (``view()["phase"]``):

* ``attack``  - the table is empty; the principal attacker must lead.
* ``defend``  - cards are on the table; the defender beats, transfers, shows or takes,
  eligible attackers throw in, and once every card is beaten they may say done.
* ``taking``  - the defender has given up; attackers may add cards, then say done,
  and the defender picks everything up.
* ``over``    - the game has ended; ``result`` is set.

A bout ends on its own (no action needed) when nobody is left who could act: every
eligible attacker holding cards has said done, or the bout's card limit is reached, or
the defender has no cards left. Then the players draw, players with no cards left are
out (only once the talon is empty) and the next bout starts.

The behaviour lives in mixins, one module each: ``legal`` (legal actions), ``handlers``
(one per action kind), ``refusals`` (why an action is refused), ``settlement`` (bouts
starting and ending, going out, the result), ``deal`` (constructors) and ``present``
(read-only views). State is kept in ints (card and seat bit masks) and small lists so
that ``copy()`` and the hot path stay cheap.
"""

from __future__ import annotations

from typing import Any

from .actions import Action, IllegalAction
from .cards import BIT, rank_closure
from .config import PHASES, _new
from .deal import DealMixin
from .handlers import HANDLERS, HandlersMixin
from .legal import LegalMovesMixin
from .present import PresentMixin
from .refusals import RefusalsMixin
from .rules import MAX_ATTACK
from .settlement import BoutSettlementMixin

__all__ = ["PHASES", "Game"]


class Game(
    DealMixin,
    PresentMixin,
    LegalMovesMixin,
    HandlersMixin,
    RefusalsMixin,
    BoutSettlementMixin,
):
    """One game of Durak. See the module docstring for the phases.

    Cards are indices ``rank * 4 + suit`` and sets of cards are bit masks over them
    (``cards``); sets of seats are bit masks too (bit s for seat s). -1 means "no seat"
    or "no card".
    """

    __slots__ = (
        "_config",  # the variant's constants (config.Config), shared by all its games
        "_hands",  # a card mask per seat
        "_talon",  # card indices: the face-up trump at [0], the next card drawn at [-1]
        "_trump_card",  # the face-up trump (after a swap under the talon: the six)
        "_trump_suit",
        "_beaters",  # per card: the mask of cards that beat it under this trump
        "_attack_cards",  # the bout's attack cards, in the order played
        "_defence_cards",  # per attack card: the card that beat it, or -1
        "_table_mask",  # every card on the table
        "_table_ranks_mask",  # every card of a rank on the table (throw-ins match it)
        "_unbeaten_mask",  # the attack cards not yet beaten
        "_attack_count",  # len(_attack_cards)
        "_beaten_count",  # defence cards on the table
        "_phase",  # LEAD, DEFEND, TAKING or OVER (config)
        "_is_over",  # _phase == OVER, read by the C getter of ``is_over``
        "_attacker",  # the principal attacker (after a transfer: who passed it on)
        "_defender",
        "_attackers_mask",  # seats that may throw in during this bout
        "_done_mask",  # seats that said done since cards last reached the table
        "_joined_order",  # attackers in the order they joined the bout (drawing order)
        "_bout_limit",  # the most attack cards this bout may hold
        "_shown_mask",  # trumps shown (trump-show transfer) in this bout
        "_bout_number",  # 0 for the first bout of the game
        "_out_mask",  # seats out of the game
        "_out_order",  # the same seats, in the order they went out
        "_empty_mask",  # seats holding no cards (while the talon lasts they still play)
        "_known_cards",  # per seat: the cards publicly known to be in its hand
        "_discard_mask",
        "_trump_six",  # the swappable trump six as a mask, 0 once it cannot be swapped
        "_trump_six_holder",  # the seat that may swap it, or -1
        "_trump_drawer",  # who drew the face-up trump last, while a swap with it is open
        "_last_play_sixes",  # per seat: sixes in the play that emptied its hand (epaulettes)
        "_history",  # the actions as a linked chain (previous chain, action), None at first
        "_deal",  # (deck codes or None, dealer, first attacker, how it was chosen)
        "_result",
        "_deal_events",
    )

    # ----------------------------------------------------------- seat logic

    def _rebuild_table_masks(self) -> None:
        """Derive the table's bit masks from its attack and defence lists.

        Used where a state is rebuilt from outside data (a snapshot, a knowledge),
        not on the play path, which keeps the masks up to date incrementally.
        """
        table = unbeaten = 0
        for attack, defence in zip(self._attack_cards, self._defence_cards, strict=True):
            table |= BIT[attack]
            if defence >= 0:
                table |= BIT[defence]
            else:
                unbeaten |= BIT[attack]
        self._table_mask = table
        self._table_ranks_mask = rank_closure(table)
        self._unbeaten_mask = unbeaten
        self._attack_count = len(self._attack_cards)

    def _attack_limit(self) -> int:
        """The bout's card limit before the defender's hand size caps it."""
        fbl = self._config.first_bout_limit
        return fbl if fbl and self._bout_number == 0 else MAX_ATTACK

    def _next_opponent(self, s: int) -> int:
        """Next seat after ``s`` that holds cards and (in teams) is not a partner; -1 if none."""
        c = self._config
        n = c.players
        team = c.team_of
        gone = self._out_mask | self._empty_mask
        t = s
        for _ in range(n - 1):
            t += 1
            if t == n:
                t = 0
            if not gone >> t & 1 and (team is None or team[t] != team[s]):
                return t
        return -1

    def _next_in_game(self, s: int) -> int:
        """Next seat after ``s`` that is not out of the game; -1 if none."""
        n = self._config.players
        out = self._out_mask
        t = s
        for _ in range(n - 1):
            t += 1
            if t == n:
                t = 0
            if not out >> t & 1:
                return t
        return -1

    def _eligible_attackers(self, att: int, d: int) -> int:
        """The seats that may throw in against ``d`` with ``att`` attacking, as a mask."""
        c = self._config
        key = (self._out_mask << 6) | (att << 3) | d
        m = c.attackers_cache.get(key)
        if m is not None:
            return m
        n = c.players
        team = c.team_of
        out = self._out_mask
        if c.throw_in == "attacker":
            m = 1 << att
        elif c.throw_in == "all":
            m = 1 << att
            for s in range(n):
                if s != d and not out >> s & 1 and (team is None or team[s] != team[d]):
                    m |= 1 << s
        else:
            m = 1 << att
            for step in (1, -1):
                s = d
                for _ in range(n - 1):
                    s = (s + step) % n
                    if s != d and not out >> s & 1 and (team is None or team[s] != team[d]):
                        m |= 1 << s
                        break
        c.attackers_cache[key] = m
        return m

    # ---------------------------------------------------------------- apply

    def apply(self, action: Action | str) -> list[Any]:
        """Apply one action (an Action or its text) and return the events it caused.

        An illegal action raises IllegalAction and leaves the game unchanged.
        """
        if action.__class__ is not Action:
            action = _coerce(action)
        # One handler per kind (indexed by the kind code). The four frequent ones fold the
        # "game over" and "no such seat" checks into their one combined legality test
        # (neither can pass it) and raise those reasons first when refusing (_refuse_any);
        # the rare ones call _refuse_any up front.
        ev = HANDLERS[action._kind_code](self, action.seat, action)
        self._history = (self._history, action)
        return ev

    # ------------------------------------------------------------- copying

    def copy(self) -> Game:
        g = _new(Game)
        g._config = self._config
        g._hands = self._hands[:]
        g._talon = self._talon[:]
        g._trump_card = self._trump_card
        g._trump_suit = self._trump_suit
        g._beaters = self._beaters
        g._attack_cards = self._attack_cards[:]
        g._defence_cards = self._defence_cards[:]
        g._table_mask = self._table_mask
        g._table_ranks_mask = self._table_ranks_mask
        g._unbeaten_mask = self._unbeaten_mask
        g._attack_count = self._attack_count
        g._beaten_count = self._beaten_count
        g._phase = self._phase
        g._is_over = self._is_over
        g._attacker = self._attacker
        g._defender = self._defender
        g._attackers_mask = self._attackers_mask
        g._done_mask = self._done_mask
        g._joined_order = self._joined_order[:]
        g._bout_limit = self._bout_limit
        g._shown_mask = self._shown_mask
        g._bout_number = self._bout_number
        g._out_mask = self._out_mask
        g._out_order = self._out_order[:]
        g._empty_mask = self._empty_mask
        g._known_cards = self._known_cards[:]
        g._discard_mask = self._discard_mask
        g._trump_six = self._trump_six
        g._trump_six_holder = self._trump_six_holder
        g._trump_drawer = self._trump_drawer
        g._last_play_sixes = self._last_play_sixes[:]
        g._history = self._history
        g._deal = self._deal
        g._result = self._result
        g._deal_events = self._deal_events
        return g

    __copy__ = copy


def _coerce(action: Any) -> Action:
    """An Action from its text; anything else that is not an Action is refused."""
    if isinstance(action, str):
        return Action.parse(action)
    if not isinstance(action, Action):
        raise IllegalAction(f"not an action: {action!r}", code="malformed")
    return action
