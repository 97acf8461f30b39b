"""The result panel names how a game ended only when it was not played to its end."""

from __future__ import annotations

import pytest

from games import services
from games.models import Match, RuleVariant
from tests.history.test_deal_ratings import play_live_to_the_end

from .conftest import make_user

pytestmark = pytest.mark.django_db


def test_a_game_played_to_its_end_shows_its_outcome_without_an_ending_line(client):
    match, users = play_live_to_the_end(is_rated=False)
    client.force_login(users[0])
    for language, outcome, ending in (
        ("en", "Game over", "Played out"),
        ("ru", "Партия окончена", "Доиграно"),
    ):
        page = client.get(f"/games/{match.pk}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert outcome in page
        assert ending not in page


def test_a_resigned_game_says_a_player_resigned(client):
    people = [make_user("mila"), make_user("oleg")]
    match = services.create_match(people[0], RuleVariant.objects.get(slug="classic"), 2)
    services.join_match(match, people[1])
    services.resign(match.pk, people[1])
    assert Match.objects.get(pk=match.pk).status == Match.Status.FINISHED
    client.force_login(people[0])
    for language, ending in (("en", "Resigned"), ("ru", "Игрок сдался")):
        page = client.get(f"/games/{match.pk}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert ending in page
