"""The review's deeper facts: every move of a decision with its chance, the chance at the
current step, the better move in the move list, bots judged, and the table's result panel."""

import re
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from analysis.review import build_review, game_accuracy
from durak.engine import Game
from games.models import Match, Seat
from games.move_words import option_in_words
from history.replay import deal_record, timeline_for
from history.seeding import get_user
from table.rendering import Viewer, render_state

from .helpers import analysed_match

pytestmark = pytest.mark.django_db

NAMES = ["anna", "boris"]


def _replay(client, match, **params):
    return client.get(reverse("analysis:replay", args=[match.pk]), params).content.decode()


def _texts(html: str, testid: str) -> list[str]:
    found = re.findall(rf'data-testid="{testid}"[^>]*>(.*?)</li>', html, re.S)
    return [" ".join(unescape(re.sub(r"<[^>]+>", "", f)).split()) for f in found]


@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_judged_step_lists_its_best_moves_in_words_with_their_chances(language):
    match, deal, row = analysed_match()
    review = build_review(row.result, NAMES)
    timeline = timeline_for(deal)
    decision = review.judged[0]
    html = _replay(Client(HTTP_ACCEPT_LANGUAGE=language), match, step=decision.step)
    options = _texts(html, "step-option")
    ranked = decision.ranked()
    view = timeline.game_at(decision.step).view(decision.seat)
    with translation.override(language):
        words = [option_in_words(action, view) for action, _v in ranked]
    # The best three, best first, then the move played (a judged move is never the best).
    shown = (
        ranked[:3]
        if decision.action in [a for a, _v in ranked[:3]]
        else ranked[:3] + [next(m for m in ranked if m[0] == decision.action)]
    )
    assert len(options) == len(shown)
    for text, (action, value) in zip(options, shown, strict=True):
        assert text.startswith(f"{words[ranked.index((action, value))]}: {value:.0f}%")
    played = "сыграно" if language == "ru" else "played"
    assert [played in t for t in options] == [a == decision.action for a, _v in shown]
    # Moves in words, never the engine's notation.
    assert not re.search(r"\b\d (attack|defend|take|done|transfer)\b", " ".join(options))
    if language == "ru":
        assert "шанс не остаться дураком" in html


def test_the_chance_at_the_current_step_sits_beside_the_controls():
    match, deal, row = analysed_match()
    chances = row.result["chances"]
    client = Client()
    for step in (0, 7, deal.move_count):
        html = _replay(client, match, step=step)
        shown = re.search(r'data-testid="replay-chance"[^>]*>(.*?)</span></span>', html, re.S)
        text = " ".join(re.sub(r"<[^>]+>", " ", shown.group(1)).split())
        assert text == " ".join(f"{n} {chances[step][s]:.0f}%" for s, n in enumerate(NAMES))
    # The step fragment htmx swaps carries it too.
    fragment = client.get(
        reverse("analysis:replay", args=[match.pk]), {"step": 7}, HTTP_HX_REQUEST="true"
    ).content.decode()
    assert 'data-testid="replay-chance"' in fragment and "<html" not in fragment
    # A seat's view shows that seat's chance only.
    html = _replay(client, match, step=7, seat=1)
    shown = re.search(r'data-testid="replay-chance"[^>]*>(.*?)</span></span>', html, re.S)
    assert "boris" in shown.group(1) and "anna" not in shown.group(1)
    # The graph names every chance of each step for its readout.
    assert "data-graph-readout" in _replay(client, match)


def test_the_move_list_names_the_better_move_and_a_seat_view_only_its_own():
    match, deal, row = analysed_match()
    review = build_review(row.result, NAMES)
    timeline = timeline_for(deal)
    html = _replay(Client(), match)
    better = dict(
        re.findall(
            r'<li class="move[^"]*judged[^"]*" data-step="(\d+)">.*?'
            r'<span class="move-better">better: ([^<]*)</span>',
            html,
        )
    )
    assert sorted(map(int, better)) == sorted(d.move + 1 for d in review.judged)
    for d in review.judged:
        view = timeline.game_at(d.step).view(d.seat)
        assert unescape(better[str(d.move + 1)]) == option_in_words(d.best, view)
    # What anna knew: boris's better moves would name his cards, so they are left out.
    last = deal.move_count
    seat_html = _replay(Client(), match, seat=0, step=last)
    items = re.findall(r'<li class="move[^"]*" data-step="(\d+)">(.*?)</li>', seat_html)
    steps = {step for step, item in items if 'class="move-better"' in item}
    assert steps == {str(d.move + 1) for d in review.judged if d.seat == 0}


def test_a_bot_seat_is_judged_like_a_person():
    match, deal, row = analysed_match(players=("anna", "hard"))
    assert row.result["seats"] == [0, 1]
    assert {d["seat"] for d in row.result["decisions"]} == {0, 1}
    review = build_review(row.result, ["anna", "Bot"])
    assert [p.decisions > 0 for p in review.players] == [True, True]
    html = _replay(Client(), match)
    assert re.search(r'<tr data-seat="1">.*?class="accuracy-value">\d+%', html, re.S)


def test_the_result_panel_shows_the_players_accuracy_and_a_review_button():
    match, deal, row = analysed_match()
    seat = Seat.objects.select_related("user").get(match=match, number=0)
    # The table as it stands once the deal is over (the seeded game has no live table).
    final = Game.from_record(deal_record(deal)).snapshot()
    Match.objects.filter(pk=match.pk).update(live_deal=deal, state=final)
    with translation.override("ru"):
        _version, html = render_state(match.pk, Viewer(user_id=seat.user_id, seat=0), full=True)
    assert re.search(r'data-testid="result-review">Разбор<', html)
    assert f"?deal={deal.number}#review" in html
    # The accuracy comes from the review, loaded into the panel once it is shown.
    url = reverse("analysis:result_accuracy", args=[match.pk, deal.number])
    assert f'hx-get="{url}"' in html
    expected = game_accuracy([d["loss"] for d in row.result["decisions"] if d["seat"] == 0])
    anna = Client(HTTP_ACCEPT_LANGUAGE="ru")
    anna.force_login(seat.user)
    answer = anna.get(url, HTTP_HX_REQUEST="true")
    assert answer.status_code == 200
    assert f"Ваша точность: {expected:.0f}%" in answer.content.decode()
    # Someone without a seat there has no accuracy of their own; nor has a deal not analysed.
    carl = Client()
    carl.force_login(get_user("carl"))
    assert carl.get(url).status_code == 204
    row.delete()
    assert anna.get(url).status_code == 204
    assert Client().get(url).status_code == 302  # to the login page
