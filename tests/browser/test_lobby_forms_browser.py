"""The lobby's forms in a real browser: what a variant's house rule bounds forbid is
greyed out, on load and when the variant (or the game's table size) changes."""

from __future__ import annotations

import pytest

from games.models import RuleVariant

from .test_play_now_browser import DESKTOP, person

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fresh_process_state"),
]

CREATE = "form.create-table"
SEEK = "#play-panel .seek-form"


def test_forbidden_choices_are_greyed_out_on_load_and_when_the_variant_changes(
    browser, live_server_url
):
    classic = RuleVariant.objects.get(slug="classic")
    # A variant with no house rule bounds, first in the form: it is chosen on load,
    # and lets a creator change only the turn time (15 to 60 s).
    fixed = RuleVariant.objects.get(slug="classic")
    fixed.pk = None
    fixed.slug, fixed.name, fixed.ordering = "fixed-rules", "A variant of fixed rules", 0
    fixed.save()
    page, _user = person(browser, live_server_url, "Irina", "en", DESKTOP)

    def option(name: str, value: str):
        return page.locator(f'{CREATE} select[name="{name}"] option[value="{value}"]')

    assert page.locator(f'{CREATE} select[name="variant"]').input_value() == str(fixed.pk)
    assert option("deck_size", "52").is_disabled() and option("deck_size", "24").is_disabled()
    assert option("deck_size", "36").is_enabled() and option("deck_size", "").is_enabled()
    assert option("transfer", "on").is_disabled()
    # No variant allows 90 s: it is not offered at all, rather than always greyed out.
    assert option("turn_seconds", "90").count() == 0
    assert option("turn_seconds", "60").is_enabled()

    page.select_option(f'{CREATE} select[name="variant"]', str(classic.pk))
    assert option("deck_size", "52").is_enabled() and option("transfer", "on").is_enabled()
    page.select_option(f'{CREATE} select[name="variant"]', str(fixed.pk))
    assert option("transfer", "on").is_disabled()

    # "Play now": six hands of six cards need more than 24.
    short_deck = page.locator(f'{SEEK} input[name="deck_size"][value="24"]')
    page.select_option(f'{SEEK} select[name="players"]', "2")
    assert short_deck.is_enabled()
    page.select_option(f'{SEEK} select[name="players"]', "6")
    assert short_deck.is_disabled()
    page.select_option(f'{SEEK} select[name="players"]', "3")
    assert short_deck.is_enabled()
