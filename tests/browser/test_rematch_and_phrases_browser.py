"""Two people at a table in a real browser: quick phrases each read in their own
language, the ratings a rated game gave, and a rematch that starts only once the other
player accepts it.

Russian on a phone and English on a desktop.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from games import services
from games.models import Match, RuleVariant
from history.models import Rating
from tests.browser.people import signed_in_page

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fresh_process_state"),
]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 900}}


def open_table(browser, url: str, user, language: str, device: dict, match_id: int):
    page = signed_in_page(browser, url, user, language, device)
    page.goto(f"{url}/games/{match_id}/")
    page.wait_for_selector("#connection-state[data-state=open]")
    return page


def test_phrases_and_a_rematch_the_other_player_accepts(browser, live_server_url):
    olga, bob = (get_user_model().objects.create(username=n) for n in ("Olga", "Bob"))
    match = services.create_match(olga, RuleVariant.objects.get(slug="classic"), 2)
    services.join_match(match, bob)
    ru = open_table(browser, live_server_url, olga, "ru", PHONE, match.pk)
    en = open_table(browser, live_server_url, bob, "en", DESKTOP, match.pk)

    ru.locator('.chat-phrase[data-phrase="good_luck"]').click()
    en.locator("#table-chat").get_by_text("Olga: Good luck!").wait_for()
    ru.locator("#table-chat").get_by_text("Olga: Удачи!").wait_for()

    header = "Ratings: Olga 1500, Bob 1500"
    assert en.locator("#table-ratings").inner_text() == header
    services.resign(match.pk, bob)
    # The result panel shows what the game did to the ratings, and the header follows.
    olga_now = round(Rating.objects.get(user=olga).rating)
    bob_now = round(Rating.objects.get(user=bob).rating)
    en.locator("[data-testid=result-ratings]").get_by_text(f"{bob_now} \u2212").wait_for()
    expect(en.locator("#table-ratings")).to_have_text(f"Ratings: Olga {olga_now}, Bob {bob_now}")
    expect(ru.locator("#table-ratings")).to_have_text(f"Рейтинг: Olga {olga_now}, Bob {bob_now}")
    en.locator("#table-result .control-rematch").click()
    # Olga is asked; Bob waits for her, and nothing is dealt yet.
    ru.get_by_text("Bob предлагает реванш.").wait_for()
    en.get_by_text("You asked for a rematch; waiting for Olga.").wait_for()
    assert not en.locator("#table-result .control-rematch").count()
    assert Match.objects.get(pk=match.pk).status == Match.Status.FINISHED
    accept = ru.locator("#table-result .control-rematch")
    assert accept.inner_text() == "Принять реванш"
    accept.click()
    for page in (ru, en):
        page.wait_for_selector("#table-result.is-hidden", state="attached")
        page.wait_for_selector("#table-hand .hand-card")
    assert match.deals.count() == 2
    for page in (ru, en):
        page.context.close()
