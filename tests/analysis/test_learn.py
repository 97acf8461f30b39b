"""Learn from your mistakes: the player's own seat only, hidden cards never shown."""

import re
from decimal import ROUND_HALF_UP, Decimal

import pytest
from django.test import Client
from django.urls import reverse

from analysis.panel import hand_cards
from analysis.review import GOOD_ENOUGH, build_review
from durak.engine import CODES, Action, Game
from history.replay import deal_record
from history.seeding import get_user
from tests.history.helpers import card_codes, read_zones

from .helpers import analysed_match

pytestmark = pytest.mark.django_db


def _learn_url(match, n=None):
    url = reverse("analysis:learn", args=[match.pk, 1])
    return url if n is None else f"{url}?n={n}"


def _as(username):
    client = Client()
    client.force_login(get_user(username))
    return client


def test_learning_never_shows_a_card_the_seat_could_not_see():
    match, deal, row = analysed_match()
    record = deal_record(deal)
    review = build_review(row.result, ["anna", "boris"])
    for seat, name in enumerate(("anna", "boris")):
        mistakes = review.mistakes_of(seat)
        if not mistakes:
            assert _as(name).get(_learn_url(match)).status_code == 404
            continue
        client = _as(name)
        for n, decision in enumerate(mistakes):
            game = Game.from_record(
                dict(record, actions=record["actions"][: decision.move], result=None)
            )
            view = game.view(seat)
            seen = (
                set(view["hand"])
                | {c for pair in view["table"] for c in pair if c}
                | {view["trump"]}
            )
            hidden = set(CODES) - seen
            pages = [client.get(_learn_url(match, n)).content.decode()]
            for option in decision.values:
                pages.append(
                    client.post(
                        _learn_url(match), {"n": n, "action": option}, HTTP_HX_REQUEST="true"
                    ).content.decode()
                )
            pages.append(
                client.post(
                    _learn_url(match), {"n": n, "answer": "1"}, HTTP_HX_REQUEST="true"
                ).content.decode()
            )
            for html in pages:
                assert card_codes(html) <= seen, (n, card_codes(html) - seen)
                # Nor in engine notation, as a move's text or a button's value.
                named = set(re.findall(r"\b([2-9TJQKA][CDHS])\b", html))
                assert not named & hidden, (n, named & hidden)
            board = pages[0]
            assert read_hand(board, seat) == view["hand"]


def read_hand(html, seat):
    return read_zones(html).zones[f"hand-{seat}"]


def test_a_tried_move_is_judged_against_the_best_within_the_threshold():
    match, deal, row = analysed_match()
    review = build_review(row.result, ["anna", "boris"])
    seat = next(s for s in (0, 1) if review.mistakes_of(s))
    name = ("anna", "boris")[seat]
    decision = review.mistakes_of(seat)[0]
    client = _as(name)
    for option, value in decision.values.items():
        html = client.post(
            _learn_url(match), {"n": 0, "action": option}, HTTP_HX_REQUEST="true"
        ).content.decode()
        good = decision.before - value < GOOD_ENOUGH
        assert ("learn-good" in html) == good
        assert ('data-testid="learn-retry"' in html) == (not good)
        assert "<html" not in html
    played = client.post(
        _learn_url(match), {"n": 0, "action": str(decision.action)}
    ).content.decode()
    assert "That is the move you played." in played
    answer = client.post(_learn_url(match), {"n": 0, "answer": "1"}).content.decode()
    assert "learn-answer" in answer
    assert (
        f'data-better-cards="{" ".join(decision.best.cards[1:] if decision.best.kind == "defend" else decision.best.cards)}"'
        in answer
    )
    # A move the seat could not play there is refused and changes nothing.
    assert client.post(_learn_url(match), {"n": 0, "action": f"{1 - seat} take"}).status_code == 400
    assert client.post(_learn_url(match), {"n": 0, "action": "nonsense"}).status_code == 400


def test_only_the_players_own_seat_is_offered():
    match, deal, row = analysed_match()
    assert Client().get(_learn_url(match)).status_code == 302  # to the login page
    assert _as("carl").get(_learn_url(match)).status_code == 404
    review = build_review(row.result, ["anna", "boris"])
    for seat, name in enumerate(("anna", "boris")):
        html = _as(name).get(reverse("analysis:replay", args=[match.pk])).content.decode()
        assert ('data-testid="learn-link"' in html) == bool(review.mistakes_of(seat))
        if review.mistakes_of(seat):
            page = _as(name).get(_learn_url(match)).content.decode()
            decision = review.mistakes_of(seat)[0]
            game = Game.from_record(
                dict(deal_record(deal), actions=deal_record(deal)["actions"][: decision.move])
                | {"result": None}
            )
            # The cards to play are the seat's own hand, and every move button is its own.
            cards = re.findall(r'name="card" value="([^"]+)"', page)
            assert sorted(cards) == sorted(game.hand(seat))
            moves = re.findall(r'name="action" value="([^"]+)"', page)
            assert all(m.startswith(f"{seat} ") for m in moves)


def _ways(html):
    return re.findall(r'name="action" value="([^"]+)"[^>]*data-testid="learn-move"', html)


def test_the_player_plays_a_card_and_it_is_judged_or_they_choose_how_it_goes():
    match, deal, row = analysed_match()
    review = build_review(row.result, ["anna", "boris"])
    seat = next(s for s in (0, 1) if review.mistakes_of(s))
    client = _as(("anna", "boris")[seat])
    for n, decision in enumerate(review.mistakes_of(seat)):
        page = client.get(_learn_url(match, n)).content.decode()
        enabled = set(
            re.findall(
                r'name="card" value="([^"]+)" class="learn-card[^"]*"'
                r' data-testid="learn-card">',
                page,
            )
        )
        moves = [Action.parse(text) for text in decision.values]
        usable = {c for a in moves for c in hand_cards(a)}
        assert enabled == usable
        for card in usable:
            html = client.post(
                _learn_url(match), {"n": n, "card": card}, HTTP_HX_REQUEST="true"
            ).content.decode()
            ways = [str(a) for a in moves if card in hand_cards(a)]
            if len(ways) == 1:
                # One way to play it: that move is judged at once.
                good = decision.before - decision.values[ways[0]] < GOOD_ENOUGH
                assert ("learn-good" in html) == good
                assert ("learn-bad" in html) == (not good)
            else:
                # Several: the card is picked up and the player says which way it goes.
                assert 'data-testid="learn-ways"' in html
                offered = re.search(r'data-testid="learn-ways">(.*?)</fieldset>', html, re.S)
                assert _ways(offered.group(1)) == ways
                assert "learn-good" not in html and "learn-bad" not in html
    # A card the player does not hold, or cannot play there, is no move.
    decision = review.mistakes_of(seat)[0]
    held = {c for a in decision.values for c in hand_cards(Action.parse(a))}
    stranger = next(c for c in CODES if c not in held)
    assert client.post(_learn_url(match), {"n": 0, "card": stranger}).status_code == 400


def test_a_wrong_move_offers_a_retry_and_then_the_better_moves_with_their_chances():
    match, deal, row = analysed_match()
    review = build_review(row.result, ["anna", "boris"])
    seat = next(s for s in (0, 1) if review.mistakes_of(s))
    decision = review.mistakes_of(seat)[0]
    client = _as(("anna", "boris")[seat])
    html = client.post(
        _learn_url(match), {"n": 0, "action": str(decision.action)}, HTTP_HX_REQUEST="true"
    ).content.decode()
    assert 'data-testid="learn-retry"' in html and 'data-testid="learn-answer"' in html
    answer = Client(HTTP_ACCEPT_LANGUAGE="ru")
    answer.force_login(get_user(("anna", "boris")[seat]))
    html = answer.post(
        _learn_url(match), {"n": 0, "answer": "1"}, HTTP_HX_REQUEST="true"
    ).content.decode()
    listed = re.search(r'data-testid="learn-alternatives">(.*?)</ol>', html, re.S).group(1)
    values = [float(v) for v in re.findall(r"<strong>(\d+)%</strong>", listed)]
    ranked = decision.ranked()[:3]
    assert values == [int(Decimal(str(v)).quantize(Decimal(1), ROUND_HALF_UP)) for _a, v in ranked]
    assert "Лучший ход" in html
