from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.bot_strength import bot_choices
from games.models import BotSpeed, RuleVariant
from games.variant_words import variant_name

MAX_SEATS = 8


class VariantSelect(forms.Select):
    """Each option carries its variant's table sizes, so the page bounds the players field."""

    def create_option(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        option = super().create_option(*args, **kwargs)
        variant = getattr(option["value"], "instance", None)
        if variant is not None:
            option["attrs"]["data-min-players"] = variant.min_players
            option["attrs"]["data-max-players"] = variant.max_players
        return option


class VariantField(forms.ModelChoiceField):
    widget = VariantSelect

    def label_from_instance(self, obj: RuleVariant) -> str:
        return f"{variant_name(obj)} ({obj.min_players}–{obj.max_players})"


class CreateTableForm(forms.Form):
    """A new table: variant, size, privacy, and who fills seats 1.. (a player or a bot)."""

    variant = VariantField(
        queryset=RuleVariant.objects.filter(is_active=True), empty_label=None, label=_("Variant")
    )
    players = forms.IntegerField(label=_("Players"), min_value=2, max_value=MAX_SEATS, initial=2)
    is_private = forms.BooleanField(
        label=_("Private table"),
        required=False,
        help_text=_("Only people with the invite link can join."),
    )
    bot_speed = forms.ChoiceField(
        label=_("Bots' speed"),
        choices=BotSpeed.choices,
        initial=BotSpeed.NORMAL,
        required=False,
        widget=forms.RadioSelect,
        error_messages={"invalid_choice": _("Choose the bots' speed: normal or fast.")},
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        variant = self._chosen_variant()
        if variant is not None:
            self.fields["players"].widget.attrs.update(
                min=variant.min_players, max=variant.max_players
            )
        choices = [("", _("Wait for a player")), *bot_choices()]
        for number in range(1, MAX_SEATS):
            self.fields[f"seat_{number}"] = forms.ChoiceField(
                label=_("Seat %(number)d") % {"number": number + 1},
                choices=choices,
                required=False,
                initial="medium" if number == 1 else "",
            )

    def _chosen_variant(self) -> RuleVariant | None:
        """The variant the form shows selected: the posted one, else the first offered."""
        queryset = self.fields["variant"].queryset
        chosen = self.data.get(self.add_prefix("variant")) if self.is_bound else None
        if chosen and str(chosen).isdigit():
            return queryset.filter(pk=chosen).first()
        return queryset.first()

    def seat_fields(self) -> list[forms.BoundField]:
        return [self[f"seat_{number}"] for number in range(1, MAX_SEATS)]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        variant, players = data.get("variant"), data.get("players")
        if variant is None or players is None:
            return data
        if not variant.min_players <= players <= variant.max_players:
            self.add_error("players", variant.players_rule())
            return data
        for number in range(players, MAX_SEATS):
            if data.get(f"seat_{number}"):
                self.add_error(f"seat_{number}", _("This table has no such seat."))
        data["bots"] = [data.get(f"seat_{number}") or "" for number in range(1, players)]
        data["bot_speed"] = data.get("bot_speed") or BotSpeed.NORMAL
        return data
