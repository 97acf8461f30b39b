"""Refusal reasons: why an action is not legal now, as an ``IllegalAction``.

The frequent kinds test legality in one combined condition in their handlers and
come here only to explain a refusal; the rare kinds are checked here in full.
"""

from __future__ import annotations

from typing import NoReturn

from .actions import (
    Action,
    IllegalAction,
)
from .cards import (
    BIT,
    CODES,
    RANK_MASK,
    RANKS,
    SUITS,
    is_one_rank,
    mask_to_codes,
    rank_closure,
)
from .config import DEFEND, LEAD, OVER
from .legal import swap_target
from .seats import attack_limit, next_opponent
from .state import GameState


def refuse_any(st: GameState, action: Action) -> None:
    """Raise the reasons that apply to every kind: the game is over, no such seat."""
    if st.phase == OVER:
        raise IllegalAction(f"{action}: the game is over", code="game_over")
    if action.seat >= st.config.players:
        raise IllegalAction(
            f"{action}: there is no seat {action.seat} in a {st.config.players}-player game",
            code="no_such_seat",
        )


def not_held(st: GameState, action: Action, seat: int, missing: int) -> IllegalAction:
    return IllegalAction(
        f"{action}: seat {seat} does not hold {' '.join(mask_to_codes(missing))}",
        code="not_held",
    )


def check_attacker(st: GameState, action: Action, seat: int) -> None:
    """Why ``seat`` may not add attack cards now (raises), for throw-ins and done."""
    if seat == st.defender:
        raise IllegalAction(f"{action}: seat {seat} is the defender", code="is_defender")
    if not st.attackers_mask >> seat & 1:
        team = st.config.team_of
        if st.out_mask >> seat & 1:
            why, code = f"seat {seat} is out of the game", "out_of_game"
        elif team is not None and team[seat] == team[st.defender]:
            why, code = f"seat {seat} is the defender's partner", "defenders_partner"
        elif st.config.throw_in == "attacker":
            why = f"only the principal attacker (seat {st.attacker}) may attack in this variant"
            code = "principal_attacker_only"
        else:
            why = f"only the defender's neighbours may throw in, and seat {seat} is not one"
            code = "not_a_neighbour"
        raise IllegalAction(f"{action}: {why}", code=code)
    if st.done_mask >> seat & 1:
        raise IllegalAction(
            f"{action}: seat {seat} has said done; it may act again once new cards reach the table",
            code="said_done",
        )
    if st.empty_mask >> seat & 1:
        raise IllegalAction(f"{action}: seat {seat} has no cards", code="no_cards")


def refuse_attack(st: GameState, seat: int, action: Action) -> NoReturn:
    refuse_any(st, action)
    m = action.card_mask
    h = st.hands[seat]
    if st.phase == LEAD:
        if seat != st.attacker:
            raise IllegalAction(
                f"{action}: seat {st.attacker} leads this bout, not seat {seat}",
                code="not_your_lead",
            )
        if m & ~h:
            raise not_held(st, action, seat, m & ~h)
        if not st.config.multi_card_lead:
            raise IllegalAction(
                f"{action}: this variant allows one card on the lead", code="one_card_lead"
            )
        if not is_one_rank(m):
            raise IllegalAction(
                f"{action}: cards played together must be of one rank", code="mixed_ranks"
            )
        raise IllegalAction(
            f"{action}: this bout allows at most {st.bout_limit} attack cards"
            f" (defender seat {st.defender} holds {st.hands[st.defender].bit_count()})",
            code="too_many_cards",
        )
    check_attacker(st, action, seat)
    if m & ~h:
        raise not_held(st, action, seat, m & ~h)
    if not is_one_rank(m):
        raise IllegalAction(
            f"{action}: cards played together must be of one rank", code="mixed_ranks"
        )
    if m & ~rank_closure(st.table_mask):
        raise IllegalAction(
            f"{action}: rank {RANKS[(m.bit_length() - 1) >> 2]} is not on the table;"
            " a throw-in must match the rank of a card played in this bout",
            code="rank_not_on_table",
        )
    left = st.bout_limit - st.attack_count
    raise IllegalAction(
        f"{action}: the bout's limit is {st.bout_limit} attack cards and"
        f" {st.attack_count} are played, so {max(left, 0)} more may be added",
        code="too_many_cards",
    )


def refuse_defence(st: GameState, seat: int, action: Action) -> NoReturn:
    refuse_any(st, action)
    if st.phase != DEFEND:
        raise no_defence(st, action)
    if seat != st.defender:
        raise IllegalAction(
            f"{action}: only the defender (seat {st.defender}) defends", code="not_defender"
        )
    a, b = action.card_indices
    if not st.unbeaten_mask >> a & 1:
        if st.table_mask >> a & 1 and a in st.attack_cards:
            raise IllegalAction(f"{action}: {CODES[a]} is already beaten", code="already_beaten")
        raise IllegalAction(
            f"{action}: {CODES[a]} is not an attack card on the table", code="not_on_table"
        )
    if not st.hands[seat] >> b & 1:
        raise not_held(st, action, seat, BIT[b])
    raise IllegalAction(
        f"{action}: {CODES[b]} does not beat {CODES[a]} (trumps are {SUITS[st.trump_suit_index]};"
        " beat with a higher card of the same suit, or a trump against a non-trump)",
        code="does_not_beat",
    )


def no_defence(st: GameState, action: Action) -> IllegalAction:
    """The refusal of a defender's action while there is nothing to defend."""
    if st.phase == LEAD:
        return IllegalAction(
            f"{action}: the table is empty; nothing to defend yet", code="nothing_to_defend"
        )
    return IllegalAction(
        f"{action}: the defender (seat {st.defender}) has already chosen to take",
        code="already_taking",
    )


def check_passing(st: GameState, action: Action, seat: int, what: str) -> int:
    """The seat a transfer or a show would pass the attack to (raises if none may)."""
    if st.phase != DEFEND:
        raise no_defence(st, action)
    if seat != st.defender:
        raise IllegalAction(
            f"{action}: only the defender (seat {st.defender}) may {what}",
            code="not_defender",
        )
    if st.beaten_count:
        raise IllegalAction(
            f"{action}: a card of this bout is already beaten, too late to {what}",
            code="too_late_to_transfer",
        )
    nd = next_opponent(st.config, st.out_mask | st.empty_mask, seat)
    if nd < 0:
        raise IllegalAction(
            f"{action}: there is no next player with cards to pass the attack to",
            code="no_one_to_transfer_to",
        )
    return nd


def refuse_take(st: GameState, seat: int, action: Action) -> NoReturn:
    if st.phase != DEFEND:
        refuse_any(st, action)
        raise no_defence(st, action)
    if seat != st.defender:
        refuse_any(st, action)
        raise IllegalAction(
            f"{action}: only the defender (seat {st.defender}) may take", code="not_defender"
        )
    raise IllegalAction(
        f"{action}: every attack card is beaten; there is nothing to take",
        code="nothing_to_take",
    )


def refuse_done(st: GameState, seat: int, action: Action) -> NoReturn:
    refuse_any(st, action)
    if st.phase == LEAD:
        raise IllegalAction(
            f"{action}: the bout has not started; seat {st.attacker} must lead",
            code="bout_not_started",
        )
    check_attacker(st, action, seat)
    raise IllegalAction(f"{action}: attack cards are still unbeaten", code="unbeaten_cards")


def check_transfer(st: GameState, seat: int, action: Action) -> int:
    """The seat the transfer passes the attack to (raises if it is not legal)."""
    refuse_any(st, action)
    if not st.config.transfers:
        raise IllegalAction(f"{action}: transfers need mode perevodnoy", code="no_transfers")
    nd = check_passing(st, action, seat, "transfer")
    m = action.card_mask
    h = st.hands[seat]
    if m & ~h:
        raise not_held(st, action, seat, m & ~h)
    r = st.attack_cards[0] >> 2
    if m & ~RANK_MASK[r]:
        raise IllegalAction(
            f"{action}: a transfer needs cards of the attack's rank {RANKS[r]}",
            code="wrong_transfer_rank",
        )
    total = st.attack_count + len(action.card_indices)
    limit = attack_limit(st.config, st.bout_number)
    if total > limit:
        raise IllegalAction(
            f"{action}: a bout holds at most {limit} attack cards, this makes {total}",
            code="too_many_cards",
        )
    nh = st.hands[nd].bit_count()
    if nh < total:
        raise IllegalAction(
            f"{action}: seat {nd} holds {nh} card(s), fewer than the {total} attack cards"
            " the transfer would put on the table",
            code="next_has_too_few_cards",
        )
    return nd


def check_show(st: GameState, seat: int, action: Action) -> int:
    """The seat a trump show passes the attack to (raises if it is not legal)."""
    refuse_any(st, action)
    if not st.config.trump_show:
        raise IllegalAction(
            f"{action}: this variant has no trump-show transfer", code="no_trump_show"
        )
    nd = check_passing(st, action, seat, "show a trump")
    card = action.card_indices[0]
    if not st.hands[seat] >> card & 1:
        raise not_held(st, action, seat, BIT[card])
    r = st.attack_cards[0] >> 2
    trump = RANKS[r] + SUITS[st.trump_suit_index]
    if card != r * 4 + st.trump_suit_index:
        raise IllegalAction(
            f"{action}: only the trump of the attack's rank ({trump}) can be shown",
            code="wrong_trump_shown",
        )
    if st.shown_mask >> card & 1:
        raise IllegalAction(
            f"{action}: {CODES[card]} was already shown in this bout", code="already_shown"
        )
    nh = st.hands[nd].bit_count()
    if nh < st.attack_count:
        raise IllegalAction(
            f"{action}: seat {nd} holds {nh} card(s), fewer than the"
            f" {st.attack_count} attack cards on the table",
            code="next_has_too_few_cards",
        )
    return nd


def check_swap(st: GameState, seat: int, action: Action) -> int:
    """Where the six goes: -1 under the talon, else a seat (raises if no swap is legal)."""
    refuse_any(st, action)
    if not st.config.trump_six_swap:
        raise IllegalAction(f"{action}: this variant has no trump-six swap", code="no_swap")
    if not st.trump_six:
        raise IllegalAction(f"{action}: the trump six can no longer be swapped", code="six_gone")
    if st.trump_six_holder != seat:
        raise IllegalAction(
            f"{action}: only the original holder of the trump six may swap it",
            code="not_six_holder",
        )
    target = swap_target(st)
    if target is None:
        if st.trump_drawer == seat:
            raise IllegalAction(
                f"{action}: seat {seat} drew the face-up trump itself", code="drew_the_trump"
            )
        raise IllegalAction(
            f"{action}: too late, the talon has run out and a new bout has begun",
            code="swap_too_late",
        )
    return target


def check_resign(st: GameState, seat: int, action: Action) -> None:
    refuse_any(st, action)
    if st.out_mask >> seat & 1:
        raise IllegalAction(f"{action}: seat {seat} is already out of the game", code="out_of_game")
