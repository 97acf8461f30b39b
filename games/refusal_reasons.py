"""The player's wording of the engine's refusal reasons, by the engine's reason code.

The engine (pure Python) explains an illegal action in English and names the reason
with a stable ``IllegalAction.code``; this module words each code for the player in
the active language. Each text completes "That move is not allowed: ...", and speaks
to the player who tried the move.
"""

from __future__ import annotations

from django.utils.translation import gettext, gettext_noop

REASONS: dict[str, str] = {
    "malformed": gettext_noop("that is not a move"),
    "game_over": gettext_noop("the game is over"),
    "no_such_seat": gettext_noop("there is no such seat at this table"),
    "not_held": gettext_noop("you do not hold that card"),
    "is_defender": gettext_noop("you are defending and cannot add attack cards"),
    "out_of_game": gettext_noop("you are already out of the game"),
    "defenders_partner": gettext_noop("you cannot attack your partner"),
    "principal_attacker_only": gettext_noop(
        "in this variant only the principal attacker may attack"
    ),
    "not_a_neighbour": gettext_noop("only the defender's neighbours may throw in"),
    "said_done": gettext_noop(
        "you have said done; you can play again once new cards reach the table"
    ),
    "no_cards": gettext_noop("you have no cards"),
    "not_your_lead": gettext_noop("another player leads this bout"),
    "one_card_lead": gettext_noop("this variant allows only one card on the lead"),
    "mixed_ranks": gettext_noop("cards played together must be of one rank"),
    "too_many_cards": gettext_noop("this bout cannot take that many attack cards"),
    "rank_not_on_table": gettext_noop("you can only throw in cards of a rank already on the table"),
    "nothing_to_defend": gettext_noop("the table is empty; there is nothing to defend yet"),
    "already_taking": gettext_noop("the defender has already chosen to take"),
    "not_defender": gettext_noop("only the defender can do that"),
    "already_beaten": gettext_noop("that card is already beaten"),
    "not_on_table": gettext_noop("that card is not an attack card on the table"),
    "does_not_beat": gettext_noop(
        "that card does not beat the attack: beat with a higher card of the same suit,"
        " or a trump against a non-trump"
    ),
    "nothing_to_take": gettext_noop("every attack card is beaten; there is nothing to take"),
    "bout_not_started": gettext_noop("the bout has not started yet; the attacker must lead first"),
    "unbeaten_cards": gettext_noop("attack cards are still unbeaten"),
    "too_late_to_transfer": gettext_noop(
        "a card of this bout is already beaten; it is too late to transfer"
    ),
    "no_one_to_transfer_to": gettext_noop(
        "there is no next player with cards to pass the attack to"
    ),
    "no_transfers": gettext_noop("this variant has no transfers"),
    "wrong_transfer_rank": gettext_noop("a transfer needs cards of the attack's rank"),
    "next_has_too_few_cards": gettext_noop("the next player holds too few cards for this transfer"),
    "no_trump_show": gettext_noop("this variant has no transfer by showing a trump"),
    "wrong_trump_shown": gettext_noop("only the trump of the attack's rank can be shown"),
    "already_shown": gettext_noop("that trump was already shown in this bout"),
    "no_swap": gettext_noop("this variant has no trump six swap"),
    "six_gone": gettext_noop("the trump six can no longer be swapped"),
    "not_six_holder": gettext_noop("only the player who got the trump six may swap it"),
    "drew_the_trump": gettext_noop("you drew the face-up trump yourself"),
    "swap_too_late": gettext_noop("too late: the talon has run out and a new bout has begun"),
}


def refusal_reason(code: str | None) -> str | None:
    """The player's wording of the reason ``code`` in the active language; None if unknown."""
    text = REASONS.get(code) if code else None
    return gettext(text) if text is not None else None
