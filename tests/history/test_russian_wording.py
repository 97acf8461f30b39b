"""English words with two meanings get two Russian translations, one per meaning."""

import re

import pytest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from analysis.models import DealAnalysis
from games.models import RuleVariant
from games.variant_words import variant_name
from moderation.games_admin import RuleVariantAdmin

from .helpers import play_match

pytestmark = pytest.mark.django_db


def _controls_html() -> str:
    controls = {
        "simple": [{"action": "done", "kind": "done"}],
        "multi": [{"action": "lead 6C 6D", "cards": []}],
        "transfers": [{"action": "transfer 6C", "cards": []}],
        "shows": [],
    }
    return render_to_string("table/partials.html#controls", {"controls": controls, "me": 0})


def _button(html: str, css_class: str) -> str:
    found = re.search(rf'class="[^"]*\b{css_class}\b[^"]*"[^>]*>([^<]*)<', html)
    assert found, css_class
    return found.group(1).strip()


def test_table_buttons_in_russian():
    with translation.override("ru"):
        html = _controls_html()
    assert _button(html, "control-done") == "Бито"
    assert _button(html, "control-multi") == "Сыграть"
    assert _button(html, "control-transfer") == "Перевести"


def test_table_buttons_in_english():
    html = _controls_html()
    assert _button(html, "control-done") == "Done"
    assert _button(html, "control-multi") == "Play"
    assert _button(html, "control-transfer") == "Transfer"


def test_the_other_meanings_in_russian():
    transfer = RuleVariant.objects.get(slug="transfer")
    assert transfer.name == "Perevodnoy"
    with translation.override("ru"):
        assert variant_name(transfer) == "Переводной"
        assert str(DealAnalysis.Status.DONE.label) == "Готово"
        # The admin groups the rules of play under a heading, not a "play" button.
        assert str(RuleVariantAdmin.fieldsets[2][0]) == "Правила игры"
    assert str(DealAnalysis.Status.DONE.label) == "Done"


def test_replay_page_names_the_variant_and_autoplay_in_russian(client):
    match = play_match(["anna", "boris"], "transfer", seed=3)
    client.post(reverse("set_language"), {"language": "ru", "next": "/"})
    html = client.get(reverse("analysis:replay", args=[match.pk])).content.decode()
    assert "Переводной" in html
    autoplay = re.search(r"<button[^>]*data-autoplay[^>]*>([^<]*)<", html)
    assert autoplay and autoplay.group(1) == "Воспроизвести"
    assert "Сыграть" not in html
