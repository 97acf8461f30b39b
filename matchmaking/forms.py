from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

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

    def __init__(self, *args: Any, last: dict[str, Any] | None = None, **kwargs: Any) -> None:
        # The lobby's new-table form has fields of the same names (players, deck,
        # reliability): this form's ids are its own, so no id is on the page twice.
        kwargs.setdefault("auto_id", "seek_%s")
        super().__init__(*args, **kwargs)
        for name, value in (last or {}).items():
            if name in self.fields:
                self.fields[name].initial = value


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
