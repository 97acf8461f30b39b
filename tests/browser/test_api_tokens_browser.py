"""A player makes an API token on their profile, sees it once, and revokes it, on a
Russian phone and an English desktop; the secret works against the API at once."""

from __future__ import annotations

import json
import os
import urllib.request
from pathlib import Path

import pytest

from tests.api.helpers import make_user
from tests.browser.people import signed_in_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 900}}
SHOTS = Path(os.environ.get("API_SHOTS", "/tmp/shots-api"))

WORDS = {
    "ru": {"create": "Создать токен", "once": "больше он показан не будет", "revoke": "Отозвать"},
    "en": {"create": "Create a token", "once": "it is not shown again", "revoke": "Revoke"},
}


@pytest.mark.parametrize(("language", "device"), [("ru", PHONE), ("en", DESKTOP)])
def test_a_token_is_made_shown_once_used_and_revoked(browser, live_server_url, language, device):
    user = make_user("ann")
    words = WORDS[language]
    page = signed_in_page(browser, live_server_url, user, language, device)
    page.goto(f"{live_server_url}/u/ann/")
    section = page.get_by_test_id("api-tokens")
    section.get_by_role("textbox").fill("my bot")
    section.get_by_role("button", name=words["create"]).click()
    secret = page.get_by_test_id("new-token").inner_text()
    assert secret.startswith("durak_") and words["once"] in section.inner_text()
    # The page fits the screen once the swap has settled (a fixed check could read the
    # layout mid-swap); one that never fits fails here.
    page.wait_for_function(
        "width => document.documentElement.scrollWidth <= width",
        arg=device["viewport"]["width"],
        timeout=5_000,
    )
    # A secret with no hyphen has nowhere a browser would break it: it must still fit.
    page.evaluate("""() => {
        document.querySelector('[data-testid=new-token]').textContent = 'durak_' + 'A'.repeat(43);
    }""")
    assert (
        page.evaluate("() => document.documentElement.scrollWidth") <= device["viewport"]["width"]
    )
    SHOTS.mkdir(parents=True, exist_ok=True)
    section.screenshot(path=str(SHOTS / f"api-tokens-{language}.png"))
    request = urllib.request.Request(f"{live_server_url}/api/account")
    request.add_header("Authorization", f"Bearer {secret}")
    with urllib.request.urlopen(request, timeout=10) as response:
        assert json.loads(response.read())["username"] == "ann"
    page.reload()
    assert page.get_by_test_id("new-token").count() == 0  # shown once
    page.get_by_test_id("api-tokens").get_by_role("button", name=words["revoke"]).click()
    assert "my bot" not in page.get_by_test_id("api-tokens").inner_text()
    page.context.close()


def test_the_api_docs_page_shows_every_endpoint_without_a_console_error(browser, live_server_url):
    context = browser.new_context(locale="en-US", **DESKTOP)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{live_server_url}/api/docs")
    page.get_by_text("/api/games/{match_id}/stream").wait_for()
    page.wait_for_load_state("networkidle")
    text = page.inner_text("body")
    for path in ["/api/account", "/api/tables", "/api/games/{match_id}/actions"]:
        assert path in text
    page.screenshot(path=str(SHOTS / "api-docs-en.png"))
    assert errors == []
    context.close()
