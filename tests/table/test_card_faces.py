"""The one card renderer: every card of every deck has a face, a name a person reads,
and the same markup on the table and in the replay."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.template import Context, Template
from django.test import Client
from django.utils import translation

from cards.faces import back_html, card_html, card_label, face_url
from durak.engine.cards import CODES

STATIC_CARDS = Path(settings.BASE_DIR) / "static" / "cards"


def test_every_card_of_the_52_card_deck_has_its_own_face_file() -> None:
    assert len(CODES) == 52
    files = {face_url(code).rsplit("/", 1)[1] for code in CODES}
    assert len(files) == 52
    for name in files:
        assert (STATIC_CARDS / name).read_text().lstrip().startswith(("<svg", "<?xml"))
    assert finders.find("cards/back.svg")


def test_the_deck_ships_with_its_licence() -> None:
    licence = (STATIC_CARDS / "LICENSE").read_text()
    assert "GNU LESSER GENERAL PUBLIC LICENSE" in licence and "Version 3" in licence
    assert "Lesser General Public License" in (STATIC_CARDS / "README.md").read_text()


def test_a_card_is_named_in_the_viewers_language_and_carries_its_code() -> None:
    with translation.override("en"):
        english = card_html("QS")
        assert card_label("QS") == "queen of spades"
    with translation.override("ru"):
        russian = card_html("QS")
        assert card_label("QS") == "дама пик"
    assert 'aria-label="queen of spades"' in english
    assert 'aria-label="дама пик"' in russian
    for html in (english, russian):
        assert 'data-card="QS"' in html and 'role="img"' in html
        assert re.search(r'<img src="[^"]*/cards/12s\.svg" alt=""', html)


def test_a_back_tells_nothing() -> None:
    html = back_html()
    assert "data-card" not in html and 'aria-hidden="true"' in html
    assert "back" in html.split('class="', 1)[1].split('"', 1)[0].split()


def test_the_template_tags_render_the_same_markup_as_the_table() -> None:
    template = Template("{% load cards %}{{ code|card }}|{% card_back %}|{{ none|card }}")
    face, back, empty = template.render(Context({"code": "TD", "none": None})).split("|")
    assert face == card_html("TD")
    assert back == back_html()
    assert empty == ""


@pytest.mark.django_db
def test_favicon_ico_leads_to_the_icon() -> None:
    response = Client().get("/favicon.ico")
    assert response.status_code == 301
    assert response["Location"].endswith("favicon.svg")
    assert finders.find("favicon.svg")
