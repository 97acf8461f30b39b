"""The engine's reason for refusing a move reaches the player in the player's language."""

from __future__ import annotations

import pytest
from django.utils import translation

from durak.engine import Game, IllegalAction
from games import services
from games.models import RuleVariant, Seat
from games.services import play

from .conftest import make_user

pytestmark = pytest.mark.django_db


def _table_and_a_card_the_attacker_lacks():
    users = [make_user("anna"), make_user("boris")]
    match = services.create_match(users[0], RuleVariant.objects.get(slug="classic"), 2)
    services.join_match(match, users[1])
    match.refresh_from_db()
    game = Game.from_snapshot(match.state)
    attacker = game.to_act()[0]
    user = Seat.objects.get(match=match, number=attacker).user
    not_held = game.hand(1 - attacker)[0]
    return match, user, f"{attacker} attack {not_held}"


def _refusal(match, user, text) -> services.Refused:
    with pytest.raises(services.Refused) as refused:
        services.apply_action(match.pk, user, text, version=match.version)
    assert refused.value.code == "illegal"
    return refused.value


def test_a_card_not_held_is_refused_in_russian():
    match, user, text = _table_and_a_card_the_attacker_lacks()
    with translation.override("ru"):
        refused = _refusal(match, user, text)
    assert refused.message == "Так ходить нельзя: у вас нет этой карты"


def test_a_card_not_held_is_refused_in_english():
    match, user, text = _table_and_a_card_the_attacker_lacks()
    refused = _refusal(match, user, text)
    assert refused.message == "That move is not allowed: you do not hold that card"


def test_an_unknown_code_falls_back_to_the_engine_text():
    with translation.override("ru"):
        assert play._reason(IllegalAction("0 take: a new rule", code="new_rule")) == ("a new rule")
        assert play._reason(IllegalAction("0 take: no code at all")) == "no code at all"
        assert play._reason(IllegalAction("x", code="does_not_beat")).startswith(
            "эта карта не бьёт"
        )
