"""Refusal reasons: why an action is not legal now, as an ``IllegalAction``.

The frequent kinds test legality in one combined condition in their handlers and
come here only to explain a refusal; the rare kinds are checked here in full.
"""

from __future__ import annotations

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


class RefusalsMixin:
    """Why an action is refused: each method raises IllegalAction with the reason."""

    __slots__ = ()

    def _refuse_any(self, action: Action) -> None:
        """Raise the reasons that apply to every kind: the game is over, no such seat."""
        if self._phase == OVER:
            raise IllegalAction(f"{action}: the game is over", code="game_over")
        if action.seat >= self._config.players:
            raise IllegalAction(
                f"{action}: there is no seat {action.seat} in a {self._config.players}-player game",
                code="no_such_seat",
            )

    def _not_held(self, action: Action, seat: int, missing: int) -> IllegalAction:
        return IllegalAction(
            f"{action}: seat {seat} does not hold {' '.join(mask_to_codes(missing))}",
            code="not_held",
        )

    def _check_attacker(self, action: Action, seat: int) -> None:
        """Why ``seat`` may not add attack cards now (raises), for throw-ins and done."""
        if seat == self._defender:
            raise IllegalAction(f"{action}: seat {seat} is the defender", code="is_defender")
        if not self._attackers_mask >> seat & 1:
            team = self._config.team_of
            if self._out_mask >> seat & 1:
                why, code = f"seat {seat} is out of the game", "out_of_game"
            elif team is not None and team[seat] == team[self._defender]:
                why, code = f"seat {seat} is the defender's partner", "defenders_partner"
            elif self._config.throw_in == "attacker":
                why = f"only the principal attacker (seat {self._attacker}) may attack in this variant"
                code = "principal_attacker_only"
            else:
                why = f"only the defender's neighbours may throw in, and seat {seat} is not one"
                code = "not_a_neighbour"
            raise IllegalAction(f"{action}: {why}", code=code)
        if self._done_mask >> seat & 1:
            raise IllegalAction(
                f"{action}: seat {seat} has said done; it may act again once new cards reach the table",
                code="said_done",
            )
        if self._empty_mask >> seat & 1:
            raise IllegalAction(f"{action}: seat {seat} has no cards", code="no_cards")

    def _refuse_attack(self, seat: int, action: Action) -> None:
        self._refuse_any(action)
        m = action.card_mask
        h = self._hands[seat]
        if self._phase == LEAD:
            if seat != self._attacker:
                raise IllegalAction(
                    f"{action}: seat {self._attacker} leads this bout, not seat {seat}",
                    code="not_your_lead",
                )
            if m & ~h:
                raise self._not_held(action, seat, m & ~h)
            if not self._config.multi_card_lead:
                raise IllegalAction(
                    f"{action}: this variant allows one card on the lead", code="one_card_lead"
                )
            if not is_one_rank(m):
                raise IllegalAction(
                    f"{action}: cards played together must be of one rank", code="mixed_ranks"
                )
            raise IllegalAction(
                f"{action}: this bout allows at most {self._bout_limit} attack cards"
                f" (defender seat {self._defender} holds {self._hands[self._defender].bit_count()})",
                code="too_many_cards",
            )
        self._check_attacker(action, seat)
        if m & ~h:
            raise self._not_held(action, seat, m & ~h)
        if not is_one_rank(m):
            raise IllegalAction(
                f"{action}: cards played together must be of one rank", code="mixed_ranks"
            )
        if m & ~rank_closure(self._table_mask):
            raise IllegalAction(
                f"{action}: rank {RANKS[(m.bit_length() - 1) >> 2]} is not on the table;"
                " a throw-in must match the rank of a card played in this bout",
                code="rank_not_on_table",
            )
        left = self._bout_limit - self._attack_count
        raise IllegalAction(
            f"{action}: the bout's limit is {self._bout_limit} attack cards and"
            f" {self._attack_count} are played, so {max(left, 0)} more may be added",
            code="too_many_cards",
        )

    def _refuse_defence(self, seat: int, action: Action) -> None:
        self._refuse_any(action)
        if self._phase != DEFEND:
            raise self._no_defence(action)
        if seat != self._defender:
            raise IllegalAction(
                f"{action}: only the defender (seat {self._defender}) defends", code="not_defender"
            )
        a, b = action.card_indices
        if not self._unbeaten_mask >> a & 1:
            if self._table_mask >> a & 1 and a in self._attack_cards:
                raise IllegalAction(
                    f"{action}: {CODES[a]} is already beaten", code="already_beaten"
                )
            raise IllegalAction(
                f"{action}: {CODES[a]} is not an attack card on the table", code="not_on_table"
            )
        if not self._hands[seat] >> b & 1:
            raise self._not_held(action, seat, BIT[b])
        raise IllegalAction(
            f"{action}: {CODES[b]} does not beat {CODES[a]} (trumps are {SUITS[self._trump_suit]};"
            " beat with a higher card of the same suit, or a trump against a non-trump)",
            code="does_not_beat",
        )

    def _no_defence(self, action: Action) -> IllegalAction:
        """The refusal of a defender's action while there is nothing to defend."""
        if self._phase == LEAD:
            return IllegalAction(
                f"{action}: the table is empty; nothing to defend yet", code="nothing_to_defend"
            )
        return IllegalAction(
            f"{action}: the defender (seat {self._defender}) has already chosen to take",
            code="already_taking",
        )

    def _check_passing(self, action: Action, seat: int, what: str) -> int:
        """The seat a transfer or a show would pass the attack to (raises if none may)."""
        if self._phase != DEFEND:
            raise self._no_defence(action)
        if seat != self._defender:
            raise IllegalAction(
                f"{action}: only the defender (seat {self._defender}) may {what}",
                code="not_defender",
            )
        if self._beaten_count:
            raise IllegalAction(
                f"{action}: a card of this bout is already beaten, too late to {what}",
                code="too_late_to_transfer",
            )
        nd = self._next_opponent(seat)
        if nd < 0:
            raise IllegalAction(
                f"{action}: there is no next player with cards to pass the attack to",
                code="no_one_to_transfer_to",
            )
        return nd

    def _refuse_take(self, seat: int, action: Action) -> None:
        if self._phase != DEFEND:
            self._refuse_any(action)
            raise self._no_defence(action)
        if seat != self._defender:
            self._refuse_any(action)
            raise IllegalAction(
                f"{action}: only the defender (seat {self._defender}) may take", code="not_defender"
            )
        raise IllegalAction(
            f"{action}: every attack card is beaten; there is nothing to take",
            code="nothing_to_take",
        )

    def _refuse_done(self, seat: int, action: Action) -> None:
        self._refuse_any(action)
        if self._phase == LEAD:
            raise IllegalAction(
                f"{action}: the bout has not started; seat {self._attacker} must lead",
                code="bout_not_started",
            )
        self._check_attacker(action, seat)
        raise IllegalAction(f"{action}: attack cards are still unbeaten", code="unbeaten_cards")

    def _check_transfer(self, seat: int, action: Action) -> int:
        """The seat the transfer passes the attack to (raises if it is not legal)."""
        self._refuse_any(action)
        if not self._config.transfers:
            raise IllegalAction(f"{action}: transfers need mode perevodnoy", code="no_transfers")
        nd = self._check_passing(action, seat, "transfer")
        m = action.card_mask
        h = self._hands[seat]
        if m & ~h:
            raise self._not_held(action, seat, m & ~h)
        r = self._attack_cards[0] >> 2
        if m & ~RANK_MASK[r]:
            raise IllegalAction(
                f"{action}: a transfer needs cards of the attack's rank {RANKS[r]}",
                code="wrong_transfer_rank",
            )
        total = self._attack_count + len(action.card_indices)
        limit = self._attack_limit()
        if total > limit:
            raise IllegalAction(
                f"{action}: a bout holds at most {limit} attack cards, this makes {total}",
                code="too_many_cards",
            )
        nh = self._hands[nd].bit_count()
        if nh < total:
            raise IllegalAction(
                f"{action}: seat {nd} holds {nh} card(s), fewer than the {total} attack cards"
                " the transfer would put on the table",
                code="next_has_too_few_cards",
            )
        return nd

    def _check_show(self, seat: int, action: Action) -> int:
        """The seat a trump show passes the attack to (raises if it is not legal)."""
        self._refuse_any(action)
        if not self._config.trump_show:
            raise IllegalAction(
                f"{action}: this variant has no trump-show transfer", code="no_trump_show"
            )
        nd = self._check_passing(action, seat, "show a trump")
        card = action.card_indices[0]
        if not self._hands[seat] >> card & 1:
            raise self._not_held(action, seat, BIT[card])
        r = self._attack_cards[0] >> 2
        trump = RANKS[r] + SUITS[self._trump_suit]
        if card != r * 4 + self._trump_suit:
            raise IllegalAction(
                f"{action}: only the trump of the attack's rank ({trump}) can be shown",
                code="wrong_trump_shown",
            )
        if self._shown_mask >> card & 1:
            raise IllegalAction(
                f"{action}: {CODES[card]} was already shown in this bout", code="already_shown"
            )
        nh = self._hands[nd].bit_count()
        if nh < self._attack_count:
            raise IllegalAction(
                f"{action}: seat {nd} holds {nh} card(s), fewer than the"
                f" {self._attack_count} attack cards on the table",
                code="next_has_too_few_cards",
            )
        return nd

    def _check_swap(self, seat: int, action: Action) -> int:
        """Where the six goes: -1 under the talon, else a seat (raises if no swap is legal)."""
        self._refuse_any(action)
        if not self._config.trump_six_swap:
            raise IllegalAction(f"{action}: this variant has no trump-six swap", code="no_swap")
        if not self._trump_six:
            raise IllegalAction(
                f"{action}: the trump six can no longer be swapped", code="six_gone"
            )
        if self._trump_six_holder != seat:
            raise IllegalAction(
                f"{action}: only the original holder of the trump six may swap it",
                code="not_six_holder",
            )
        target = self._swap_target()
        if target is None:
            if self._trump_drawer == seat:
                raise IllegalAction(
                    f"{action}: seat {seat} drew the face-up trump itself", code="drew_the_trump"
                )
            raise IllegalAction(
                f"{action}: too late, the talon has run out and a new bout has begun",
                code="swap_too_late",
            )
        return target

    def _check_resign(self, seat: int, action: Action) -> None:
        self._refuse_any(action)
        if self._out_mask >> seat & 1:
            raise IllegalAction(
                f"{action}: seat {seat} is already out of the game", code="out_of_game"
            )
