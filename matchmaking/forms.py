from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from matchmaking.models import TURN_SECONDS, Game, Speed

# Turn timers a table's creator picks from, in seconds (a variant's bounds narrow them).
HOUSE_TURNS = (15, 30, 45, 60, 90)


def reliability_choices() -> list[tuple[int, str]]:
    """The least reliability one may ask of other players."""
    return [
        (0, _("Anyone")),
        *((n, _("%(score)d or more") % {"score": n}) for n in (50, 70, 90)),
    ]


def speed_choices() -> list[tuple[str, str]]:
    """Each speed with its turn time: "Fast (15 s a move)"."""
    return [
        (
            value,
            _("%(speed)s (%(seconds)d s a move)")
            % {"speed": label, "seconds": TURN_SECONDS[value]},
        )
        for value, label in Speed.choices
    ]


class SeekForm(forms.Form):
    """What a "Play now" player wants: game, players, deck, speed, rated, bots."""

    mode = forms.ChoiceField(
        label=_("Game"),
        choices=Game.choices,
        initial=Game.PODKIDNOY,
        widget=forms.RadioSelect,
    )
    players = forms.TypedChoiceField(
        label=_("Players"),
        choices=[(n, str(n)) for n in range(2, 7)],
        coerce=int,
        initial=2,
    )
    deck_size = forms.TypedChoiceField(
        label=_("Deck"),
        choices=[(24, "24"), (36, "36"), (52, "52")],
        coerce=int,
        initial=36,
        widget=forms.RadioSelect,
    )
    speed = forms.ChoiceField(label=_("Speed"), choices=speed_choices, initial=Speed.NORMAL)
    is_rated = forms.BooleanField(label=_("Rated"), required=False, initial=True)
    allow_bots = forms.BooleanField(
        label=_("A bot may take a seat if nobody comes"), required=False, initial=True
    )
    min_reliability = forms.TypedChoiceField(
        label=_("Opponents' reliability"),
        choices=reliability_choices,
        coerce=int,
        initial=0,
        required=False,
        empty_value=0,
    )

    def __init__(
        self, *args: Any, last: dict[str, Any] | None = None, guest: bool = False, **kwargs: Any
    ) -> None:
        # The lobby's new-table form has fields of the same names (players, deck,
        # reliability): this form's ids are its own, so no id is on the page twice.
        kwargs.setdefault("auto_id", "seek_%s")
        super().__init__(*args, **kwargs)
        for name, value in (last or {}).items():
            if name in self.fields:
                self.fields[name].initial = value
        if guest:  # unrated, whatever is posted (a disabled field keeps its initial)
            rated = self.fields["is_rated"]
            rated.initial, rated.disabled = False, True
            rated.label = _("Rated (sign up to play rated games)")


def _keep(*choices: tuple[str, Any]) -> list[tuple[str, Any]]:
    return [("", _("As in the variant")), *choices]


def turn_choices() -> list[tuple[str, Any]]:
    """The turn timers, formatted when a form is made, in the language of its request."""
    return _keep(*((str(s), _("%(seconds)d s") % {"seconds": s}) for s in HOUSE_TURNS))


class HouseRulesForm(forms.Form):
    """The house rules of a new table; each left blank keeps the variant's rule.

    Which changes a variant allows is checked by ``house_rules.table_rules``.
    """

    deck_size = forms.ChoiceField(
        label=_("Deck"), required=False, choices=_keep(("24", "24"), ("36", "36"), ("52", "52"))
    )
    throw_in = forms.ChoiceField(
        label=_("Who may throw in"),
        required=False,
        choices=_keep(("all", _("Everyone")), ("neighbours", _("Neighbours only"))),
    )
    transfer = forms.ChoiceField(
        label=_("Transfer rule"),
        required=False,
        choices=_keep(
            ("off", _("No transfer")),
            ("on", _("With transfer")),
            ("trump_show", _("Transfer, also by showing a trump")),
        ),
    )
    first_bout_limit = forms.ChoiceField(
        label=_("First bout"),
        required=False,
        choices=_keep(("none", _("Up to six cards")), ("5", _("Up to five cards"))),
    )
    trump_six_swap = forms.ChoiceField(
        label=_("Trump six swap"),
        required=False,
        choices=_keep(("on", _("Yes")), ("off", _("No"))),
    )
    min_reliability = forms.TypedChoiceField(
        label=_("Players' reliability"),
        choices=reliability_choices,
        coerce=int,
        initial=0,
        required=False,
        empty_value=0,
    )
    turn_seconds = forms.ChoiceField(
        label=_("Turn time"),
        required=False,
        choices=turn_choices,
    )

    def __init__(
        self,
        *args: Any,
        variant: Any = None,
        offered: dict[str, dict[str, list[str]]] | None = None,
        **kwargs: Any,
    ) -> None:
        """``variant``: the one the page shows chosen, whose rule each "As in the
        variant" names; ``offered``: the choices each variant allows (by variant id),
        so a choice no variant allows is not on the form at all."""
        super().__init__(*args, **kwargs)
        for name in HOUSE_RULES:
            field = self.fields[name]
            if offered is not None:
                anywhere = {value for allowed in offered.values() for value in allowed[name]}
                field.choices = [(v, label) for v, label in field.choices if v in anywhere or not v]
            if variant is not None:
                field.choices = [("", self.kept_labels(variant)[name]), *field.choices[1:]]

    def kept_labels(self, variant: Any) -> dict[str, str]:
        """Each house rule's "As in the variant (everyone)": the variant's own rule."""
        words = {}
        for name, value in kept_values(variant).items():
            known = dict(self.base_fields[name].choices)
            if name == "turn_seconds":
                known = dict(turn_choices())
            said = str(known.get(value) or value)
            said = said if name == "turn_seconds" else said[:1].lower() + said[1:]
            words[name] = _("As in the variant (%(rule)s)") % {"rule": said}
        return words


# The house rules a variant's bounds govern (the least reliability is the creator's own).
HOUSE_RULES = (
    "deck_size",
    "throw_in",
    "transfer",
    "first_bout_limit",
    "trump_six_swap",
    "turn_seconds",
)


def kept_values(variant: Any) -> dict[str, str]:
    """The variant's own value of each house rule, as the form's choices name them
    (words where no choice does: "auto" who throws in, an unusual first bout limit)."""
    if variant.mode == "podkidnoy":
        transfer = "off"
    else:
        transfer = "trump_show" if variant.trump_show_transfer else "on"
    throw_in = variant.throw_in
    if throw_in == "auto":
        # The engine's default: everyone up to four players, the neighbours from five.
        if variant.max_players <= 4:
            throw_in = "all"
        elif variant.min_players >= 5:
            throw_in = "neighbours"
        else:
            throw_in = str(_("everyone; 5+ players: neighbours"))
    elif throw_in == "attacker":
        throw_in = str(_("the attacker only"))
    limit = variant.first_bout_limit
    if limit is None:
        first_bout = "none"
    elif limit == 5:
        first_bout = "5"
    else:
        first_bout = ngettext("up to %(cards)d card", "up to %(cards)d cards", limit) % {
            "cards": limit
        }
    return {
        "deck_size": str(variant.deck_size),
        "throw_in": throw_in,
        "transfer": transfer,
        "first_bout_limit": first_bout,
        "trump_six_swap": "on" if variant.trump_six_swap else "off",
        "turn_seconds": str(variant.turn_seconds),
    }
