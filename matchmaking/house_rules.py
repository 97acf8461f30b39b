"""House rules: what a table's creator changes in a variant, within its bounds.

The admin's variant gives the rules; its ``HouseRuleBounds`` say which of them a
creator may change.  ``table_rules`` turns the creator's choices into the table's
engine rules and turn time, or refuses (in words, changing nothing) a choice the
bounds do not allow.  ``rule_tags`` words a table's rules as the short tags players
know tables by ("podkidnoy · 36 · neighbours").
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from durak.engine import Rules
from games.models import RuleVariant
from games.services import Refused
from games.variant_words import variant_name
from matchmaking.forms import HOUSE_TURNS
from matchmaking.models import HouseRuleBounds, TableMinimum

THROW_IN = ("all", "neighbours")
TRANSFER = ("off", "on", "trump_show")
FIRST_BOUT = ("none", "5")
ON_OFF = ("on", "off")


def bounds_of(variant: RuleVariant) -> HouseRuleBounds:
    """The variant's bounds; unsaved defaults (turn time only) when it has none."""
    found = HouseRuleBounds.objects.filter(variant=variant).first()
    return found or HouseRuleBounds(variant=variant)


def _refuse(message: str) -> Refused:
    return Refused(message, code="house_rules")


def _pick(choices: Mapping[str, Any], name: str, allowed: tuple[str, ...]) -> str:
    """The creator's choice of ``name`` ("" keeps the variant's), or a refusal."""
    value = choices.get(name) or ""
    if value and str(value) not in allowed:
        raise _refuse(_("That house rule choice does not exist."))
    return str(value)


def table_rules(
    variant: RuleVariant,
    players: int,
    choices: Mapping[str, Any],
    *,
    bounds: HouseRuleBounds | None = None,
) -> tuple[Rules, int]:
    """The engine rules and turn seconds of a new table with these house rules
    (``bounds``: the variant's, when the caller has read them already)."""
    bounds = bounds if bounds is not None else bounds_of(variant)
    name = str(variant)  # in the reader's language
    try:
        rules = variant.rules_for(players)
    except ValueError:
        raise _refuse(variant.players_rule()) from None
    changes: dict[str, Any] = {}

    deck = _pick(choices, "deck_size", ("24", "36", "52"))
    if deck and int(deck) != rules.deck_size:
        if int(deck) not in bounds.decks():
            raise _refuse(
                _("%(variant)s is not dealt with %(deck)s cards.") % {"variant": name, "deck": deck}
            )
        changes["deck_size"] = int(deck)

    throw_in = _pick(choices, "throw_in", THROW_IN)
    if throw_in and throw_in != rules.effective_throw_in:
        if not bounds.may_choose_throw_in:
            raise _refuse(_("In %(variant)s, who may throw in is fixed.") % {"variant": name})
        changes["throw_in"] = throw_in

    transfer = _pick(choices, "transfer", TRANSFER)
    if transfer:
        mode = "podkidnoy" if transfer == "off" else "perevodnoy"
        show = transfer == "trump_show"
        if (mode, show) != (rules.mode, rules.trump_show_transfer):
            if not bounds.may_choose_transfer:
                raise _refuse(_("In %(variant)s, the transfer is fixed.") % {"variant": name})
            changes.update(mode=mode, trump_show_transfer=show)

    first_bout = _pick(choices, "first_bout_limit", FIRST_BOUT)
    if first_bout:
        limit = None if first_bout == "none" else int(first_bout)
        if limit != rules.first_bout_limit:
            if not bounds.may_choose_first_bout_limit:
                raise _refuse(
                    _("In %(variant)s, the first bout limit is fixed.") % {"variant": name}
                )
            changes["first_bout_limit"] = limit

    swap = _pick(choices, "trump_six_swap", ON_OFF)
    if swap and (swap == "on") != rules.trump_six_swap:
        if not bounds.may_choose_trump_six_swap:
            raise _refuse(_("In %(variant)s, the trump six swap is fixed.") % {"variant": name})
        changes["trump_six_swap"] = swap == "on"

    turn_seconds = variant.turn_seconds
    turn = _pick(choices, "turn_seconds", tuple(str(s) for s in HOUSE_TURNS))
    if turn and int(turn) != turn_seconds:
        if not bounds.min_turn_seconds <= int(turn) <= bounds.max_turn_seconds:
            raise _refuse(
                _("In %(variant)s, a turn lasts %(low)d to %(high)d seconds.")
                % {"variant": name, "low": bounds.min_turn_seconds, "high": bounds.max_turn_seconds}
            )
        turn_seconds = int(turn)

    _refuse_conflicts({**dataclasses.asdict(rules), **changes})
    try:
        return dataclasses.replace(rules, **changes), turn_seconds
    except ValueError as conflict:
        # Every conflict a choice on the form can make is named above; this is one the
        # variant itself makes with these choices, which no house rule words better.
        raise _refuse(
            _("These house rules do not go together in %(variant)s.") % {"variant": name}
        ) from conflict


def _refuse_conflicts(rules: dict[str, Any]) -> None:
    """Refuse, naming the conflict, house rules that the engine cannot deal together."""
    deck, players, hand = rules["deck_size"], rules["players"], rules["hand_size"]
    if rules["trump_six_swap"] and deck == 24:
        raise _refuse(
            _(
                "The trump six swap needs sixes, and a 24-card deck starts at nines: choose 36 or 52 cards, or no swap."
            )
        )
    most = Rules.most_players(deck)
    if players > most or players * hand > deck:
        raise _refuse(
            ngettext(
                "A %(deck)d-card deck is not enough for %(players)d player: each is dealt %(hand)d cards.",
                "A %(deck)d-card deck is not enough for %(players)d players: each is dealt %(hand)d cards.",
                players,
            )
            % {"deck": deck, "players": players, "hand": hand}
        )


# Each house rule's choices on the new-table form, "" (as in the variant) left out.
HOUSE_CHOICES = {
    "deck_size": ("24", "36", "52"),
    "throw_in": THROW_IN,
    "transfer": TRANSFER,
    "first_bout_limit": FIRST_BOUT,
    "trump_six_swap": ON_OFF,
    "turn_seconds": tuple(str(s) for s in HOUSE_TURNS),
}


def _allows(variant: RuleVariant, bounds: HouseRuleBounds, name: str, value: str) -> bool:
    try:
        table_rules(variant, variant.min_players, {name: value}, bounds=bounds)
    except Refused:
        return False
    return True


def allowed_choices() -> dict[str, dict[str, list[str]]]:
    """For each active variant (by id), the house rule choices its bounds allow: what
    the new-table form leaves enabled.  Each choice is probed through ``table_rules``
    itself, so the page greys out exactly what the server refuses; the server still
    checks every form it is sent.  Two queries, whatever the number of variants."""
    variants = list(RuleVariant.objects.filter(is_active=True))
    found = {b.variant_id: b for b in HouseRuleBounds.objects.filter(variant__in=variants)}
    out = {}
    for variant in variants:
        bounds = found.get(variant.pk) or HouseRuleBounds(variant=variant)
        out[str(variant.pk)] = {
            name: [value for value in values if _allows(variant, bounds, name, value)]
            for name, values in HOUSE_CHOICES.items()
        }
    return out


def rule_tags(rules: Rules, turn_seconds: int) -> list[str]:
    """A table's rules as short tags: game, deck, transfer, who throws in, the rest."""
    cards = ngettext("%(cards)d card", "%(cards)d cards", rules.deck_size)
    tags = [
        _("perevodnoy") if rules.mode == "perevodnoy" else _("podkidnoy"),
        cards % {"cards": rules.deck_size},
    ]
    if rules.trump_show_transfer:
        tags.append(_("transfer by a trump"))
    if rules.teams:
        tags.append(rules.teams)
    tags.append(
        {
            "all": _("everyone throws in"),
            "neighbours": _("neighbours"),
            "attacker": _("attacker only"),
        }[rules.effective_throw_in]
    )
    if rules.first_bout_limit is not None:
        tags.append(_("first bout %(cards)d") % {"cards": rules.first_bout_limit})
    if rules.trump_six_swap:
        tags.append(_("trump six swap"))
    if rules.one_winner:
        tags.append(_("one winner"))
    tags.append(_("%(seconds)d s a move") % {"seconds": turn_seconds})
    return tags


def table_name(variant: RuleVariant, rules: Rules) -> str:
    """A table's name in the reader's words: its variant's, unless house rules change
    what that name says (the game, the transfer or the deck), when it is the name of
    the game actually played, so that "Podkidnoy" never heads a transfer table."""
    try:
        own = variant.rules_for(rules.players)
    except ValueError:
        own = None
    keeps = own is not None and (own.mode, own.trump_show_transfer, own.deck_size) == (
        rules.mode,
        rules.trump_show_transfer,
        rules.deck_size,
    )
    if keeps:
        return variant_name(variant)
    if rules.trump_show_transfer:
        return _("Perevodnoy with trump show")
    return _("Perevodnoy") if rules.mode == "perevodnoy" else _("Podkidnoy")


def match_tags(match: Any) -> list[str]:
    """A stored table's tags: its rules as played, and any least reliability it asks."""
    tags = rule_tags(match.engine_rules, match.turn_seconds)
    minimum = TableMinimum.objects.filter(match=match).values_list("minimum", flat=True).first()
    if minimum is not None:
        tags.append(_("reliability %(score)d+") % {"score": minimum})
    return tags
