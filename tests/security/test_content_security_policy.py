"""The Content-Security-Policy holds in a real browser, and htmx with its socket still works."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tests.browser.moves import LEAD_CARDS

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fresh_process_state"),
]

# Every violation the page reports, whether or not the browser logs it.
COLLECT_VIOLATIONS = """
window.cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.cspViolations.push(event.violatedDirective + " " + event.blockedURI);
});
"""


def browse_as(browser, live_server_url: str, user):
    client = Client()
    client.force_login(user)
    context = browser.new_context(locale="en-US", viewport={"width": 1100, "height": 900})
    context.set_default_timeout(15_000)
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server_url}]
    )
    context.add_init_script(COLLECT_VIOLATIONS)
    page = context.new_page()
    logged: list[str] = []
    page.on(
        "console",
        lambda message: (
            logged.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    return context, page, logged


def violations(page) -> list[str]:
    return page.evaluate("window.cspViolations")


def test_pages_and_sockets_work_under_the_policy(browser, live_server_url) -> None:
    player = get_user_model().objects.create_user(username="Vera", password="pw-vera-12345")
    context, page, logged = browse_as(browser, live_server_url, player)

    response = page.goto(live_server_url + "/")
    policy = response.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "style-src 'self'" in policy
    assert "connect-src 'self'" in policy
    # The lobby's own socket connects through htmx's ws extension.
    page.wait_for_function("() => document.querySelector('[ws-connect]') !== null")
    page.select_option("#id_seat_1", "random")
    page.get_by_role("button", name="Create table").click()
    page.wait_for_url(f"{live_server_url}/games/*/")
    page.wait_for_selector('#connection-state[data-state="open"]')
    # A move goes out and comes back over the socket.
    before = int(page.get_attribute("#table-version", "data-version"))
    page.locator("#table-hand .hand-card").first.wait_for()
    mover = page.locator(LEAD_CARDS)
    if mover.count():
        mover.first.click()
        page.wait_for_function(
            f"() => parseInt(document.getElementById('table-version').dataset.version) > {before}"
        )
    assert violations(page) == []
    page.goto(live_server_url + "/leaderboard/")
    assert violations(page) == []
    assert logged == []
    context.close()


def test_admin_dashboard_needs_no_inline_style(browser, live_server_url) -> None:
    root = get_user_model().objects.create_superuser("root", "root@example.org", "pw-root-12345")
    context, page, logged = browse_as(browser, live_server_url, root)
    page.goto(live_server_url + "/admin/")
    page.locator("#dashboard-link").wait_for()
    assert violations(page) == []
    page.goto(live_server_url + "/admin/dashboard/")
    page.locator('[data-testid="dashboard"]').wait_for()
    grid = page.locator(".stats-grid").evaluate("e => getComputedStyle(e).display")
    assert grid == "grid"  # the dashboard's styles arrived from the stylesheet
    assert violations(page) == []
    assert logged == []
    context.close()
