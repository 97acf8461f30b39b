"""The post-game review: graph, accuracy, judged moves and their steps, shareable links."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from analysis.graph import HEIGHT, PAD_Y, x_of
from analysis.review import build_review, judgement, move_accuracy
from durak.bots import ANALYSIS_FORMAT
from durak.engine import Game
from history.replay import deal_record
from history.seeding import get_user
from tests.history.helpers import read_zones

from .helpers import analysed_match

pytestmark = pytest.mark.django_db

# A move named in a tooltip (a judgement such as "Mistake" is no move).
MOVE_WORDS = re.compile(r"\b(attacks?|defends?|beats?|takes?|throws?|passes)\b", re.IGNORECASE)


def _replay(client, match, **params):
    return client.get(reverse("analysis:replay", args=[match.pk]), params).content.decode()


def _chance_of_y(y: float) -> float:
    return 100.0 - (y - PAD_Y) * 100.0 / (HEIGHT - 2 * PAD_Y)


def test_the_graph_draws_exactly_the_stored_chances(client):
    match, deal, row = analysed_match()
    chances = row.result["chances"]
    assert len(chances) == deal.move_count + 1
    html = _replay(client, match)
    lines = dict(
        re.findall(
            r'<polyline class="eval-line eval-seat-\d" data-seat="(\d)" points="([^"]+)"', html
        )
    )
    # Two players' chances add up to 100 at every step: one line, seat 0's.
    assert sorted(lines) == ["0"]
    assert all(sum(point) == 100.0 for point in chances)
    last = len(chances) - 1
    for seat, points in lines.items():
        pairs = [tuple(map(float, p.split(","))) for p in points.split()]
        assert [x for x, _ in pairs] == [x_of(k, last) for k in range(last + 1)]
        drawn = [_chance_of_y(y) for _, y in pairs]
        stored = [c[int(seat)] for c in chances]
        assert drawn == pytest.approx(stored, abs=0.02)
    # The finished game is certain: the fool's line ends at 0, the other's at 100.
    fool = deal.result["fool"]
    assert chances[-1][fool] == 0.0 and chances[-1][1 - fool] == 100.0
    # Each column's tooltip names the same chances, rounded.
    titles = re.findall(r'<rect class="eval-hit"[^>]*><title>([^<]*)</title>', html)
    assert len(titles) == last + 1
    for k in (0, last // 2, last):
        for seat, name in enumerate(("anna", "boris")):
            assert f"{name} {chances[k][seat]:.0f}%" in titles[k]
    # A dot sits on the line after each judged move.
    review = build_review(row.result, ["anna", "boris"])
    dots = re.findall(r'class="eval-dot judged-(\w+)" data-step="(\d+)"', html)
    assert [(d.judgement, str(d.move + 1)) for d in review.judged] == dots


def test_accuracy_follows_the_documented_formula_on_a_hand_made_example():
    # Seat 0 decides four times, losing 0, 10, 30 and 100 points; seat 1 once, losing 5.
    result = {
        "format": ANALYSIS_FORMAT,
        "seats": [0, 1],
        "chances": [[50.0, 50.0], [50.0, 50.0]],
        "decisions": [
            {
                "move": m,
                "seat": s,
                "action": a,
                "best": b,
                "before": 80.0,
                "after": 80.0 - loss,
                "loss": loss,
            }
            for m, s, a, b, loss in [
                (0, 0, "0 attack 6H", "0 attack 7H", 0.0),
                (2, 0, "0 attack 6C", "0 attack 7H", 10.0),
                (4, 0, "0 attack 6D", "0 attack 7H", 30.0),
                (6, 0, "0 take", "0 defend 6S 7S", 100.0),
                (7, 1, "1 done", "1 attack 9H", 5.0),
            ]
        ],
    }
    review = build_review(result, ["anna", "boris"])
    anna, boris = review.players
    # Per decision: 103.1668 * exp(-0.04354 * loss) - 3.1669, kept within 0..100.
    assert move_accuracy(0) == pytest.approx(100.0, abs=1e-3)
    assert move_accuracy(10) == pytest.approx(63.58, abs=0.01)
    assert move_accuracy(30) == pytest.approx(24.78, abs=0.01)
    assert move_accuracy(100) == 0.0
    assert anna.accuracy == pytest.approx((100.0 + 63.58 + 24.78 + 0.0) / 4, abs=0.01)
    assert boris.accuracy == pytest.approx(103.1668 * 0.804_33 - 3.1669, abs=0.01)
    assert anna.counts == {"blunder": 2, "mistake": 0, "inaccuracy": 1}
    assert boris.counts == {"blunder": 0, "mistake": 0, "inaccuracy": 0}
    assert [judgement(x) for x in (9.9, 10, 19.9, 20, 29.9, 30)] == [
        None,
        "inaccuracy",
        "inaccuracy",
        "mistake",
        "mistake",
        "blunder",
    ]


def test_every_judged_move_links_to_exactly_the_engine_state_of_its_decision(client):
    match, deal, row = analysed_match()
    record = deal_record(deal)
    page = _replay(client, match)
    links = re.findall(
        r'<li class="judged-\w+" data-testid="judged" data-step="(\d+)">\s*<a href="([^"]+)"', page
    )
    review = build_review(row.result, ["anna", "boris"])
    assert [int(step) for step, _ in links] == [d.move for d in review.judged]
    assert links
    for (step, url), decision in zip(links, review.judged, strict=True):
        html = client.get(url.replace("&amp;", "&"), HTTP_HX_REQUEST="true").content.decode()
        game = Game.from_record(dict(record, actions=record["actions"][: int(step)], result=None))
        snap = game.snapshot()
        zones = read_zones(html).zones
        for seat, hand in enumerate(snap["hands"]):
            assert zones[f"hand-{seat}"] == hand
        assert zones["talon"] == snap["talon"]
        assert zones["table"] == [c for pair in snap["table"] for c in pair if c]
        assert zones["discard"] == snap["discard"]
        assert f'data-step="{step}"' in html
        # The note names the decision and the cards to outline, all in the seat's hand.
        note = re.search(
            r'data-note-seat="(\d)" data-played-cards="([^"]*)" data-better-cards="([^"]*)"', html
        )
        assert note is not None and int(note.group(1)) == decision.seat
        in_hand = set(snap["hands"][decision.seat])
        assert set(note.group(2).split()) <= in_hand and set(note.group(3).split()) <= in_hand
        assert decision.move in {d.move for d in review.judged}


def test_the_move_list_marks_judged_moves():
    match, deal, row = analysed_match()
    review = build_review(row.result, ["anna", "boris"])
    html = _replay(Client(), match)
    marked = re.findall(r'<li class="move[^"]* judged judged-(\w+)" data-step="(\d+)"', html)
    assert marked == [(d.judgement, str(d.move + 1)) for d in review.judged]


def test_a_seat_view_explains_only_that_seats_decisions_and_names_no_move_in_the_graph():
    match, deal, row = analysed_match()
    review = build_review(row.result, ["anna", "boris"])
    for seat in (0, 1):
        html = _replay(Client(), match, seat=seat, step=0)
        steps = re.findall(r'data-testid="judged" data-step="(\d+)"', html)
        assert [int(s) for s in steps] == [d.move for d in review.judged if d.seat == seat]
        titles = re.findall(r'<rect class="eval-hit"[^>]*><title>([^<]*)</title>', html)
        assert titles and not any(MOVE_WORDS.search(t) for t in titles)
        for d in review.judged:
            page = _replay(Client(), match, seat=seat, step=d.move)
            assert set(re.findall(r'data-note-seat="(\d)"', page)) <= {str(seat)}
            assert ("data-played-cards" in page) == (d.seat == seat)


def test_public_games_share_a_step_and_private_ones_stay_private(client):
    match, deal, row = analysed_match()
    html = _replay(client, match, step=7, seat=1)
    assert "data-share" in html and "Step 7 of" in html and 'value="1" selected' in html
    private, _, _ = analysed_match(seed=22, players=("vera", "gleb"), is_private=True)
    url = reverse("analysis:replay", args=[private.pk])
    assert client.get(url, {"step": 3}).status_code == 404
    panel = reverse("analysis:deal_analysis", args=[private.pk, 1])
    assert client.get(panel).status_code == 404
    vera = Client()
    vera.force_login(get_user("vera"))
    page = vera.get(url, {"step": 3}).content.decode()
    assert "Step 3 of" in page and "data-share" not in page
