"""The post-game review in Chromium: a graph point, a judged move, then a retried mistake."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from playwright.sync_api import expect

from analysis.panel import hand_cards
from analysis.review import build_review
from durak.engine import Action
from tests.analysis.conftest import IMMEDIATE
from tests.analysis.helpers import analysed_match

pytestmark = pytest.mark.browser


@pytest.fixture
def quick_analyses(settings, no_puzzle_search):
    settings.TASKS = IMMEDIATE
    settings.ANALYSIS_SECONDS = 0.002
    settings.ANALYSIS_SAMPLES = 2


def _logged_in(browser, live_server_url, username, **context_options):
    client = Client()
    client.force_login(get_user_model().objects.get(username=username))
    context = browser.new_context(**context_options)
    context.set_default_timeout(15_000)
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server_url}]
    )
    return context, context.new_page()


def _counter(page, text):
    page.wait_for_function(
        "t => document.querySelector('[data-testid=replay-step]').innerText.startsWith(t)", arg=text
    )


def play_in_learning(page, decision, action) -> None:
    """Play ``action`` as a player does: its card, then which way when it goes several."""
    cards = hand_cards(action)
    if not cards:
        page.locator(f'[data-testid=learn-move][value="{action}"]').click()
        return
    page.locator(f'[data-testid=learn-card][value="{cards[0]}"]').click()
    ways = [a for a in decision.values if cards[0] in hand_cards(Action.parse(a))]
    if len(ways) > 1:
        page.locator(f'[data-testid=learn-ways] [value="{action}"]').click()


def test_click_a_graph_point_then_a_mistake_then_retry_it(browser, live_server_url, quick_analyses):
    match, deal, row = analysed_match()
    names = ["anna", "boris"]
    review = build_review(row.result, names)
    seat = next(s for s in (0, 1) if review.mistakes_of(s))
    context, page = _logged_in(
        browser,
        live_server_url,
        names[seat],
        locale="en-US",
        viewport={"width": 1200, "height": 900},
    )
    # Console errors include what the Content-Security-Policy refuses (an inline style).
    errors: list[str] = []
    page.on("console", lambda msg: msg.type == "error" and errors.append(msg.text))
    page.goto(f"{live_server_url}/games/{match.pk}/replay/")
    _counter(page, f"Step 0 of {deal.move_count}")

    # A point of the graph: the board jumps to that step, and the cursor follows.
    graph = page.get_by_test_id("eval-graph")
    graph.locator('[data-graph-step="10"]').click()
    _counter(page, "Step 10 of")
    assert "step=10" in page.url
    x0, dx = float(graph.get_attribute("data-x0")), float(graph.get_attribute("data-dx"))
    # The cursor moves once the new step has settled, a moment after the counter.
    page.wait_for_function(
        "x => Math.abs(Number(document.querySelector('[data-graph-cursor]').getAttribute('x1'))"
        " - x) < 0.01",
        arg=x0 + 10 * dx,
    )

    # A judged move: its decision's position, with the move played and the better one outlined.
    first = review.judged[0]
    page.locator(f'[data-testid=judged][data-step="{first.step}"] a').click()
    _counter(page, f"Step {first.step} of")
    note = page.get_by_test_id("step-note")
    expect(note).to_contain_text(first.label)
    hand = page.locator(f'[data-zone="hand-{first.seat}"]')
    for code, mark in [
        (c, "is-played") for c in first.action.cards if first.action.kind != "defend"
    ]:
        expect(hand.locator(f'[data-card="{code}"]')).to_have_class(re.compile(mark))

    # Learn from a mistake of one's own: a wrong try, a retry, then the best move.
    page.get_by_test_id("learn-link").click()
    mistake = review.mistakes_of(seat)[0]
    play_in_learning(page, mistake, mistake.action)
    expect(page.locator(".learn-bad")).to_contain_text("That is the move you played.")
    page.get_by_test_id("learn-retry").click()
    expect(page.locator(".learn-bad")).to_have_count(0)
    play_in_learning(page, mistake, mistake.best)
    expect(page.locator(".learn-good")).to_be_visible()
    # Only the player's own cards were ever face up on this page.
    faces = page.eval_on_selector_all(
        "[data-zone] [data-card]", "cs => cs.map(c => c.closest('[data-zone]').dataset.zone)"
    )
    assert set(faces) <= {f"hand-{seat}", "table", "trump"}
    assert not errors, errors
    context.close()


def _percentages(text: str) -> dict[str, int]:
    return {name: int(value) for name, value in re.findall(r"(anna|boris)\s+(\d+)%", text)}


@pytest.mark.parametrize(
    ("locale", "viewport"),
    [("ru-RU", {"width": 390, "height": 844}), ("en-US", {"width": 1200, "height": 900})],
)
def test_the_graph_the_chance_by_the_controls_and_the_options_agree(
    browser, live_server_url, quick_analyses, locale, viewport
):
    match, deal, row = analysed_match()
    review = build_review(row.result, ["anna", "boris"])
    decisions = [d for d in review.decisions if d.values][:4]
    forced = next(step for step in range(deal.move_count) if review.decision_at(step) is None)
    context, page = _logged_in(browser, live_server_url, "anna", locale=locale, viewport=viewport)
    explained = page.get_by_test_id("graph-explained")
    for step in [d.step for d in decisions] + [forced]:
        page.goto(f"{live_server_url}/games/{match.pk}/replay/?deal=1&step={step}")
        graph = page.get_by_test_id("eval-graph")
        on_graph = _percentages(graph.locator(f'[data-graph-step="{step}"] title').text_content())
        by_controls = _percentages(page.get_by_test_id("replay-chance").inner_text())
        assert on_graph == by_controls and sum(on_graph.values()) == 100, (step, on_graph)
        # The one line is anna's (seat 0): its point at the step is her chance there.
        points = graph.locator("polyline.eval-line").get_attribute("points").split()
        y = float(points[step].split(",")[1])
        assert round(100 - (y - 8) * 100 / (150 - 16)) == on_graph["anna"]
        decision = review.decision_at(step)
        if decision is not None:
            best = page.locator("[data-testid=step-option].is-best").first.inner_text()
            name = ("anna", "boris")[decision.seat]
            assert int(re.search(r"(\d+)%", best).group(1)) == on_graph[name], (step, best)
    expect(explained).to_be_visible()
    # Nothing of the review pokes out of its card (the accuracy table's last column
    # once did on a phone), and the page is no wider than the screen.
    card = page.locator("#review").bounding_box()
    for cell in page.locator("[data-testid=accuracy] th, [data-testid=accuracy] td").all():
        box = cell.bounding_box()
        assert box["x"] + box["width"] <= card["x"] + card["width"] + 0.5, cell.inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    if locale.startswith("ru"):
        assert re.search("[а-я]", explained.inner_text())
        assert re.search("[а-я]", page.get_by_test_id("judgement-explained").inner_text())
    context.close()
