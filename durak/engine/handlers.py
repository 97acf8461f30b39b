"""Action handlers: one per kind, each checking the action and then changing the state.

Every check comes before the first change, so a refused action leaves the game as it
was.
"""

from __future__ import annotations

from collections.abc import Callable

from .actions import (
    K_ATTACK,
    K_DEFEND,
    K_DONE,
    K_RESIGN,
    K_SHOW,
    K_SWAP,
    K_TAKE,
    K_TRANSFER,
    Action,
    coerce,
)
from .cards import (
    BIT,
    CODES,
    RANK_MASK,
)
from .config import DEFEND, LEAD, OVER, TAKING
from .events import (
    Event,
    Resigned,
    Shown,
    Swapped,
    Transferred,
)
from .refusals import (
    check_resign,
    check_show,
    check_swap,
    check_transfer,
    refuse_attack,
    refuse_defence,
    refuse_done,
    refuse_take,
)
from .seats import bout_limit, eligible_attackers
from .settlement import emptied, end_bout, finish, settle
from .state import GameState

# A handler's ``trusted`` says the action was taken from ``legal_actions()`` of this very
# state (``apply_legal``): the frequent kinds then skip the checks it is known to pass.
Handler = Callable[[GameState, int, Action, bool], list[Event]]


def do_attack(st: GameState, seat: int, action: Action, trusted: bool) -> list[Event]:
    m = action.card_mask
    hands = st.hands
    ph = st.phase
    idx = action.card_indices
    n = len(idx)
    # One combined test for the common legal case; the refusal path explains why.
    # (``hands[seat]`` is read only once the seat is known to be a real one; ``x & m != m``
    # says "m is not a subset of x" with one mask operation where ``m & ~x`` takes two.)
    if not trusted:
        if ph == LEAD:
            if (
                seat != st.attacker
                or hands[seat] & m != m
                or (
                    n > 1
                    and (
                        not st.config.multi_card_lead
                        or m & ~RANK_MASK[idx[0] >> 2]
                        or n > st.bout_limit
                    )
                )
            ):
                refuse_attack(st, seat, action)
        else:
            if (
                ph == OVER
                or seat == st.defender
                or not (st.attackers_mask & ~st.done_mask & ~st.empty_mask) >> seat & 1
                or hands[seat] & m != m
                or st.table_ranks_mask & m != m
                or (n > 1 and m & ~RANK_MASK[idx[0] >> 2])
                or st.attack_count + n > st.bout_limit
            ):
                refuse_attack(st, seat, action)
    # Mutations start here: everything above only reads.
    h = hands[seat] ^ m
    hands[seat] = h
    if st.trump_six and m & st.trump_six:
        st.trump_six = 0
    if n == 1:  # most attacks are one card
        st.attack_cards.append(idx[0])
        st.defence_cards.append(-1)
    else:
        st.attack_cards.extend(idx)
        st.defence_cards.extend([-1] * n)
    st.table_mask |= m
    st.table_ranks_mask |= action._rank_mask
    st.unbeaten_mask |= m
    st.attack_count += n
    st.done_mask = 0
    joined = st.joined_order
    if seat not in joined:
        st.joined_order = (*joined, seat)
    if ph == LEAD:
        ev: list[Event] = [action._lead_event]
        st.phase = DEFEND
        st.trump_drawer = -1  # the swap window after the talon ran out closes here
    else:
        ev = [action._event]
    if not h:
        emptied(st, seat, action, ev)
        if st.phase == OVER:
            return ev
    if ph == TAKING:
        settle(st, ev)
    return ev


def do_defend(st: GameState, seat: int, action: Action, trusted: bool) -> list[Event]:
    a, b = action.card_indices
    hands = st.hands
    if not trusted and (
        st.phase != DEFEND
        or seat != st.defender
        or not st.unbeaten_mask >> a & 1
        or not hands[seat] >> b & 1
        or not st.beaters[a] >> b & 1
    ):
        refuse_defence(st, seat, action)
    bb = BIT[b]
    h = hands[seat] ^ bb
    hands[seat] = h
    if st.trump_six and bb & st.trump_six:
        st.trump_six = 0
    st.defence_cards[st.attack_cards.index(a)] = b
    st.table_mask |= bb
    st.table_ranks_mask |= action._rank_mask
    st.unbeaten_mask ^= BIT[a]
    st.beaten_count += 1
    ev: list[Event] = [action._event]
    if not h:
        emptied(st, seat, action, ev)
        if st.phase == OVER:
            return ev
    if not st.unbeaten_mask:  # else the defender is still to act
        settle(st, ev)
    return ev


def do_take(st: GameState, seat: int, action: Action, trusted: bool) -> list[Event]:
    if not trusted and (st.phase != DEFEND or seat != st.defender or not st.unbeaten_mask):
        refuse_take(st, seat, action)
    st.phase = TAKING
    st.done_mask = 0
    ev: list[Event] = [action._event]
    settle(st, ev)  # the bout ends at once if no attacker can add a card
    return ev


def do_done(st: GameState, seat: int, action: Action, trusted: bool) -> list[Event]:
    ph = st.phase
    bit = 1 << seat
    pend = st.attackers_mask & ~st.done_mask & ~st.empty_mask
    if not trusted and (
        ph == LEAD  # noqa: SIM109  (two compares beat building a tuple here)
        or ph == OVER
        or seat == st.defender
        or not pend & bit
        or (ph == DEFEND and st.unbeaten_mask)
    ):
        refuse_done(st, seat, action)
    st.done_mask |= bit
    ev: list[Event] = [action._event]
    if pend == bit:  # nobody else is still to say done
        end_bout(st, ev, ph == DEFEND)
    return ev


def do_transfer(st: GameState, seat: int, action: Action, trusted: bool) -> list[Event]:
    nd = check_transfer(st, seat, action)
    m = action.card_mask
    hands = st.hands
    h = hands[seat]
    r = st.attack_cards[0] >> 2
    total = st.attack_count + len(action.card_indices)
    h ^= m
    hands[seat] = h
    if m & st.trump_six:
        st.trump_six = 0
    st.attack_cards.extend(action.card_indices)
    st.defence_cards.extend([-1] * len(action.card_indices))
    st.table_mask |= m
    st.table_ranks_mask |= RANK_MASK[r]
    st.unbeaten_mask |= m
    st.attack_count = total
    ev: list[Event] = [Transferred(seat, action.cards, nd)]
    pass_attack(st, seat, nd)
    if not h:
        emptied(st, seat, action, ev)
    return ev


def do_show(st: GameState, seat: int, action: Action, trusted: bool) -> list[Event]:
    nd = check_show(st, seat, action)
    card = action.card_indices[0]
    st.shown_mask |= BIT[card]
    st.known_cards[seat] |= BIT[card]
    ev: list[Event] = [Shown(seat, CODES[card], nd)]
    pass_attack(st, seat, nd)
    return ev


def pass_attack(st: GameState, seat: int, nd: int) -> None:
    """A transfer or a show: ``seat`` attacks now and ``nd`` defends; the limit follows
    the new defender's hand.
    """
    if seat not in st.joined_order:
        st.joined_order = (*st.joined_order, seat)
    c = st.config
    st.attacker = seat
    st.defender = nd
    st.bout_limit = bout_limit(c, st.bout_number, st.hands[nd].bit_count())
    st.attackers_mask = eligible_attackers(c, st.out_mask, seat, nd)
    st.done_mask = 0


def do_swap(st: GameState, seat: int, action: Action, trusted: bool) -> list[Event]:
    target = check_swap(st, seat, action)
    six = st.trump_six
    six_card = six.bit_length() - 1
    face = st.talon[0] if target < 0 else st.trump_card
    fb = BIT[face]
    hands = st.hands
    known = st.known_cards
    hands[seat] ^= six | fb
    known[seat] = (known[seat] & ~six) | fb
    if target < 0:
        st.talon[0] = six_card
        st.trump_card = six_card
        other = None
    else:
        hands[target] ^= six | fb
        known[target] = (known[target] & ~fb) | six
        other = target
    st.trump_six = 0
    st.trump_six_holder = -1
    return [Swapped(seat, CODES[six_card], CODES[face], other)]


def do_resign(st: GameState, seat: int, action: Action, trusted: bool) -> list[Event]:
    check_resign(st, seat, action)
    team = st.config.team_of
    ev: list[Event] = [Resigned(seat)]
    winner = None
    if st.config.rules.one_winner:
        rest = [s for s in range(st.config.players) if s != seat and not st.out_mask >> s & 1]
        if len(rest) == 1:
            winner = rest[0]
    finish(st, ev, seat, None if team is None else team[seat], False, winner, seat)
    return ev


# Game.apply's handlers, indexed by the kind codes K_ATTACK ... K_RESIGN.
HANDLERS: tuple[Handler, ...] = (
    do_attack,
    do_defend,
    do_transfer,
    do_show,
    do_take,
    do_done,
    do_swap,
    do_resign,
)
assert tuple(range(8)) == (K_ATTACK, K_DEFEND, K_TRANSFER, K_SHOW, K_TAKE, K_DONE, K_SWAP, K_RESIGN)


def apply(st: GameState, action: Action | str) -> list[Event]:
    """Apply one action (an Action or its text) and return the events it caused.

    An illegal action raises IllegalAction and leaves the game unchanged.
    """
    if type(action) is not Action:
        action = coerce(action)
    # One handler per kind (indexed by the kind code). The four frequent ones fold the
    # "game over" and "no such seat" checks into their one combined legality test
    # (neither can pass it) and raise those reasons first when refusing; the rare ones
    # check everything up front.
    ev = HANDLERS[action._kind_code](st, action.seat, action, False)
    st.action_chain = (st.action_chain, action)
    return ev


def apply_legal(st: GameState, action: Action) -> list[Event]:
    """Apply an action taken from ``legal_actions()`` of this very state, unchecked.

    The fast path of playouts and searches, which only ever pick among the legal
    actions: the checks ``apply`` makes would all pass. Any other action may leave the
    game in a state the rules cannot reach, so input from outside goes through ``apply``.
    """
    ev = HANDLERS[action._kind_code](st, action.seat, action, True)
    st.action_chain = (st.action_chain, action)
    return ev
