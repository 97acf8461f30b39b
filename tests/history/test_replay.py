import json
import re

import pytest
from django.urls import reverse
from django.utils.html import escape

from durak.engine import Game
from games.models import Deal
from history.replay import deal_record, moves_in_words, timeline_for
from history.seeding import get_user

from .helpers import card_codes, play_match, read_zones

pytestmark = pytest.mark.django_db


def _record_prefix(record, step):
    return Game.from_record(dict(record, actions=record["actions"][:step], result=None))


def _states(record):
    """The engine after 0, 1, 2, ... moves of the record, rebuilt independently."""
    game = _record_prefix(record, 0)
    states = [game.snapshot()]
    for text in record["actions"]:
        game.apply(text)
        states.append(game.snapshot())
    return states


def test_every_step_shows_the_engine_state_rebuilt_from_the_record(client):
    match = play_match(["anna", "boris", "vera"], "transfer", seed=7)
    deal = match.deals.get()
    record = deal_record(deal)
    url = reverse("analysis:replay", args=[match.pk])
    assert len(record["actions"]) == deal.move_count > 10
    states = _states(record)
    assert _record_prefix(record, len(record["actions"])).snapshot() == states[-1]
    for step in range(len(record["actions"]) + 1):
        response = client.get(url, {"step": step}, HTTP_HX_REQUEST="true")
        assert response.status_code == 200
        html = response.content.decode()
        assert "<html" not in html, "a step must be a fragment, not a page"
        zones = read_zones(html).zones
        snap = states[step]
        for seat, hand in enumerate(snap["hands"]):
            assert zones[f"hand-{seat}"] == hand, (step, seat)
        assert zones["talon"] == snap["talon"], step
        assert zones["trump"] == [snap["trump"]]
        assert zones["table"] == [c for pair in snap["table"] for c in pair if c], step
        assert zones["discard"] == snap["discard"], step
        assert f'data-step="{step}"' in html
    # Bout marks follow the engine: each move is labelled with the bout it was made in.
    timeline = timeline_for(deal)
    for move in timeline.moves:
        assert move.bout == states[move.step - 1]["bout"]
    ends = sum(1 for m in timeline.moves if m.bout_end)
    assert ends in (timeline.moves[-1].bout, timeline.moves[-1].bout + 1)


def test_the_page_opens_at_the_linked_step_and_marks_bouts(client):
    match = play_match(["anna", "boris"], "classic", seed=3)
    deal = match.deals.get()
    record = deal_record(deal)
    response = client.get(reverse("analysis:replay", args=[match.pk]), {"step": 5})
    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" in html
    assert f"Step 5 of {len(record['actions'])}" in html
    # The move list names who played each move, and marks where bouts begin.
    assert html.count('class="bout-mark"') >= 2
    assert "anna" in html and "boris" in html
    fifth = moves_in_words(timeline_for(deal), ["anna", "boris"])[4]
    assert escape(fifth) in html
    # Without ?step the replay opens at the deal.
    start = client.get(reverse("analysis:replay", args=[match.pk])).content.decode()
    assert f"Step 0 of {len(record['actions'])}" in start


@pytest.mark.parametrize("variant,players", [("classic", 2), ("transfer", 4), ("teams-2x2", 4)])
def test_a_seat_view_never_shows_cards_that_seat_could_not_know(client, variant, players):
    names = [f"p{variant[:3]}{i}" for i in range(players)]
    match = play_match(names, variant, seed=11)
    record = deal_record(match.deals.get())
    url = reverse("analysis:replay", args=[match.pk])
    checked = 0
    total = len(record["actions"])
    for step in sorted({*range(0, total + 1, max(1, total // 12)), total}):
        game = _record_prefix(record, step)
        for seat in range(players):
            view = game.view(seat)
            allowed = set(view["hand"]) | {c for pair in view["table"] for c in pair if c}
            allowed.add(view["trump"])
            response = client.get(url, {"step": step, "seat": seat}, HTTP_HX_REQUEST="true")
            html = response.content.decode()
            board = html[html.index('data-zone="board"') : html.index('id="move-list"')]
            assert card_codes(board) <= allowed, (step, seat)
            # Past moves were played face up, so the whole fragment may also name those;
            # a future move or the talon order never appears.
            public = set()
            for text in record["actions"][:step]:
                public.update(part for part in text.split()[2:])
            assert card_codes(html) <= allowed | public, (step, seat)
            assert set(read_zones(html).zones[f"hand-{seat}"]) == set(view["hand"])
            listed = [int(n) for n in re.findall(r'data-step="(\d+)"', html)]
            assert max(listed) == step, "no later move is listed"
            checked += 1
    assert checked >= players * 12
    # The full page in a seat view hides the other hands and the talon too.
    page = client.get(url, {"step": 0, "seat": 0}).content.decode()
    view = _record_prefix(record, 0).view(0)
    assert card_codes(page) <= set(view["hand"]) | {view["trump"]}


def test_unfinished_deals_and_private_matches_are_not_replayed(client, django_user_model):
    match = play_match(["anna", "boris"], "classic", seed=5, is_private=True)
    url = reverse("analysis:replay", args=[match.pk])
    assert client.get(url).status_code == 404
    client.force_login(get_user("carl"))
    assert client.get(url).status_code == 404
    assert client.get(reverse("history:record", args=[match.pk])).status_code == 404
    client.force_login(django_user_model.objects.get(username="anna"))
    assert client.get(url).status_code == 200
    # A deal still being played is not replayable.
    Deal.objects.filter(match=match).update(status=Deal.Status.PLAYING)
    assert client.get(url).status_code == 404


def test_the_record_download_is_the_engine_record(client):
    match = play_match(["anna", "boris"], "classic", deals=2, seed=9)
    second = match.deals.get(number=2)
    response = client.get(reverse("history:record", args=[match.pk]), {"deal": 2})
    assert response.status_code == 200
    assert "attachment" in response["Content-Disposition"]
    data = json.loads(response.content)
    assert data["format"] == "durak-record/1"
    assert data["first_attacker_by"] == "given"
    game = Game.from_record(data)
    assert game.result == second.result
    assert data == deal_record(second)
    first = json.loads(client.get(reverse("history:record", args=[match.pk]), {"deal": 1}).content)
    assert first["first_attacker_by"] in ("lowest_trump", "draw")


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_bouts_end_reads_apart_from_the_move(client, lang):
    match = play_match(["anna", "boris"], "classic", seed=3)
    client.cookies["django_language"] = lang
    html = client.get(reverse("analysis:replay", args=[match.pk])).content.decode()
    ends = re.findall(
        r'<span class="move-text">([^<]*)</span> <span class="move-end">([^<]*)<', html
    )
    assert ends
    for move, end in ends:
        assert end.startswith("— "), end
        assert not move.endswith(end[2:]), (move, end)
        assert end[2:] not in {"beaten", "taken", "бито", "взял"}, end
