"""The rules page: how to play in the reader's language, and the variants dealt here."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.models import RuleVariant

pytestmark = pytest.mark.django_db


def rules_page(language: str) -> str:
    response = Client(headers={"accept-language": language}).get(reverse("table:rules"))
    assert response.status_code == 200
    return response.content.decode()


def variant_rows(html: str) -> dict[str, str]:
    rows = html.split("<tbody>", 1)[1].split("</tbody>", 1)[0].split("<tr ")[1:]
    return {row.split('data-variant="', 1)[1].split('"', 1)[0]: row for row in rows}


@pytest.mark.parametrize(
    ("language", "heading", "words", "not_there"),
    [
        ("en", "How to play Durak", ["trump", "Throwing in", "Perevodnoy"], "Как играть"),
        ("ru", "Как играть в дурака", ["козырь", "Подкидывание", "перевести"], "How to play"),
    ],
)
def test_the_rules_read_in_the_readers_language(language, heading, words, not_there):
    html = rules_page(language)
    assert heading in html and not_there not in html
    for word in words:
        assert word in html


def test_every_active_variant_is_listed_in_words_with_its_sizes():
    hidden = RuleVariant.objects.get(slug="one-winner")
    hidden.is_active = False
    hidden.save()
    active = set(RuleVariant.objects.filter(is_active=True).values_list("slug", flat=True))
    english, russian = variant_rows(rules_page("en")), variant_rows(rules_page("ru"))
    assert set(english) == set(russian) == active and "one-winner" not in english
    assert "Teams 2x2" in english["teams-2x2"] and ">4<" in english["teams-2x2"]
    assert "Команды 2×2" in russian["teams-2x2"] and "партнёры сидят" in russian["teams-2x2"]
    # The full deck seats seven at seven cards each, as the variant says.
    assert "2–7" in english["full-deck-52"] and "52, 7 each" in english["full-deck-52"]
    assert "up to seven players" in english["full-deck-52"]
    assert "до семи игроков" in russian["full-deck-52"] and "52, по 7" in russian["full-deck-52"]


def test_an_admins_own_variant_shows_its_words_as_written():
    RuleVariant.objects.create(
        slug="house", name="Kitchen table", description="Our way.", min_players=3, max_players=5
    )
    row = variant_rows(rules_page("ru"))["house"]
    assert "Kitchen table" in row and "Our way." in row and "3–5" in row


def test_the_navigation_and_the_lobby_lead_to_the_rules():
    lobby = rules_page("en")
    assert f'href="{reverse("table:rules")}"' in lobby
    newcomer = Client(headers={"accept-language": "ru"}).get("/").content.decode()
    assert "Правила за пять минут" in newcomer
