"""Moves and cards in words for templates: ``{% load move_words %}{{ action|advice }}``."""

from __future__ import annotations

from django import template

from durak.engine import Action
from games import move_words

register = template.Library()


@register.filter
def advice(action: Action | str) -> str:
    """A suggested move as advice to its player: "Beat 7♦ with Q♦."."""
    return move_words.suggest_action(action if isinstance(action, Action) else Action.parse(action))


@register.filter
def card_words(code: str) -> str:
    """A card as printed on its face: "Q♦"."""
    return move_words.card_in_words(code)
