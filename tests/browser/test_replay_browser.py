import pytest
from playwright.sync_api import expect

from history.seeding import play_match

pytestmark = pytest.mark.browser


def _board(page):
    return page.eval_on_selector_all(
        "#replay-step [data-zone] [data-card]",
        "cards => cards.map(c => c.closest('[data-zone]').dataset.zone + ':' + c.dataset.card)",
    )


def test_step_through_a_replay_with_the_keyboard(page, live_server_url):
    match = play_match(["anna", "boris"], "classic", seed=3)
    last = match.deals.get().move_count
    page.goto(f"{live_server_url}/games/{match.pk}/replay/?step=0")
    counter = page.get_by_test_id("replay-step")
    assert counter.inner_text() == f"Step 0 of {last}"
    before = _board(page)
    assert not [c for c in before if c.startswith("table:")]

    page.keyboard.press("ArrowRight")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=replay-step]').innerText.startsWith('Step 1 ')"
    )
    after = _board(page)
    assert after != before
    # The lead went from the attacker's hand onto the table.
    assert [c for c in after if c.startswith("table:")]
    assert "step=1" in page.url
    # replay.js marks the current move after htmx settles the swap: wait for it.
    expect(page.locator("#move-list .move.is-current")).to_have_attribute("data-step", "1")

    page.keyboard.press("End")
    page.wait_for_function(
        f"() => document.querySelector('[data-testid=replay-step]').innerText === 'Step {last} of {last}'"
    )
    page.keyboard.press("ArrowLeft")
    page.wait_for_function(
        f"() => document.querySelector('[data-testid=replay-step]').innerText === 'Step {last - 1} of {last}'"
    )
    page.keyboard.press("Home")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=replay-step]').innerText.startsWith('Step 0 ')"
    )
    assert _board(page) == before

    # A seat's view shows that hand and only card backs for the other.
    page.select_option("#replay-seat", "0")
    page.wait_for_url("**seat=0**")
    assert page.locator("[data-zone=hand-1] [data-card]").count() == 0
    assert page.locator("[data-zone=hand-1] .back").count() == 6
    assert page.locator("[data-zone=hand-0] [data-card]").count() == 6
