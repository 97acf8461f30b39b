"""An attacker waits, with no clock, while the defender has unbeaten cards."""

import pytest
from django.contrib.auth import get_user_model
from django.utils import translation

from durak.engine import Game
from games import services
from games.models import Match, RuleVariant
from table import rendering

pytestmark = pytest.mark.django_db


def table_for(match_id: int, user) -> dict:
    match = Match.objects.get(pk=match_id)
    seat = match.seats.get(user=user).number
    return rendering.table_context(match, rendering.Viewer(user.pk, seat))


def play(match_id: int, users, pick) -> None:
    match = Match.objects.get(pk=match_id)
    game = Game.from_snapshot(match.state)
    action = pick(game.legal_actions())
    user = next(u for u in users if match.seats.get(user=u).number == action.seat)
    services.apply_action(match.pk, user, str(action), version=match.version)


@pytest.mark.parametrize("players", [2, 3])
def test_the_attacker_is_told_to_wait_and_runs_no_clock(players):
    User = get_user_model()
    users = [User.objects.create_user(f"p{n}", password="kozyrnaya-42!") for n in range(players)]
    variant = RuleVariant.objects.get(slug="classic")
    match = services.create_match(users[0], variant, players)
    for user in users[1:]:
        services.join_match(match, user)
    match.refresh_from_db()
    game = Game.from_snapshot(match.state)
    attacker = users[game.view(None)["attacker"]]
    defender = users[game.view(None)["defender"]]
    play(match.pk, users, lambda legal: next(a for a in legal if a.kind == "attack"))

    context = table_for(match.pk, attacker)
    assert context["status_text"] != "You may throw in cards or say done."
    assert context["status_text"].startswith(("Wait: ", f"{defender.username} is defending"))
    assert context["my_row"]["deadline"] is None
    rows = {row["name"]: row for row in context["seats"]}
    assert rows[defender.username]["deadline"] is not None
    with translation.override("ru"):
        ru = table_for(match.pk, attacker)["status_text"]
    assert "защищается" in ru or "отбивается" in ru.lower(), ru

    # Once the defender takes, the attacker must finish the bout: prompt and clock.
    play(match.pk, users, lambda legal: next(a for a in legal if a.kind == "take"))
    context = table_for(match.pk, attacker)
    assert context["status_text"] == (
        f"{defender.username} takes: throw in more cards or say done."
    )
    assert context["my_row"]["deadline"] is not None
    taker = table_for(match.pk, defender)["status_text"]
    assert taker.startswith("You take the cards; ") and taker.endswith(" may throw in more.")
