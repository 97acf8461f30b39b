"""Play on from here: a new unrated table from a replay's step, its refusals, its record."""

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from analysis.models import PlayOn
from analysis.play_on import play_on
from analysis.services import Refused
from durak.engine import Game
from games import services
from games.models import Deal, Match, Move, Seat
from history.replay import base_record, deal_actions, deal_record, timeline_for
from history.seeding import get_user, play_match

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def quick_bots(settings):
    settings.GAMES_BOT_PLAYOUTS = 20


def _as(username, language="en"):
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(get_user(username))
    return client


def _url(match, deal=1):
    return reverse("analysis:play_on", args=[match.pk, deal])


def _everything():
    """What a refused request must leave as it was."""
    return (
        list(Match.objects.values_list("pk", "status", "version")),
        Deal.objects.count(),
        Move.objects.count(),
        PlayOn.objects.count(),
    )


def _play_to_the_end(match):
    """The player plays their first legal move whenever it is their turn; the bots move
    as the bot worker moves them."""
    later = timezone.now() + datetime.timedelta(hours=1)
    for _turn in range(400):
        match.refresh_from_db()
        if match.status != Match.Status.PLAYING:
            return
        if match.bot_due_at is not None:
            services.run_bot_turn(match.pk, now=later)
            continue
        game = services.load_game(match)
        person = Seat.objects.get(match=match, user__isnull=False)
        action = game.legal_actions(person.number)[0]
        services.apply_action(match.pk, person.user, str(action), version=match.version)
    raise AssertionError("the game did not end")


def test_a_player_plays_on_from_a_step_of_their_own_private_game_to_the_end():
    match = play_match(["anna", "boris"], seed=5, is_private=True, is_rated=False)
    deal = match.deals.get()
    timeline = timeline_for(deal)
    step = 9
    seat = 1  # boris's seat, since anna views the game as boris knew it
    response = _as("anna").post(_url(match), {"step": str(step), "seat": str(seat)})
    new = Match.objects.exclude(pk=match.pk).get()
    assert response.status_code == 302
    assert response["Location"] == reverse("table:table", args=[new.pk])
    assert (new.is_rated, new.is_private, new.status) == (False, True, Match.Status.PLAYING)
    seats = list(Seat.objects.filter(match=new).order_by("number"))
    assert [(s.user.username if s.user else None, s.bot_level) for s in seats] == [
        (None, "hard"),
        ("anna", ""),
    ]
    # The new deal is the real deal up to the step: same deck, same moves, same position.
    new_deal = new.deals.get()
    assert (new_deal.deck, new_deal.dealer) == (deal.deck, deal.dealer)
    assert deal_actions(new_deal) == deal_actions(deal)[:step]
    assert new.move_count == step
    live = services.load_game(new)
    assert live.view(seat) == timeline.game_at(step).view(seat)
    assert live.snapshot() == timeline.game_at(step).snapshot()
    origin = PlayOn.objects.get(match=new)
    assert (origin.deal_id, origin.step, origin.seat) == (deal.pk, step, seat)
    # The new table names the game and step it goes on from, linked to that replay.
    link = f'href="/games/{match.pk}/replay/?deal=1&amp;step={step}'
    table = _as("anna").get(reverse("table:table", args=[new.pk])).content.decode()
    assert f"Played on from <a {link}" in table and f"game #{match.pk}, step {step}" in table
    table = _as("anna", "ru").get(reverse("table:table", args=[new.pk])).content.decode()
    assert link in table and f"партии №{match.pk}" in table

    _play_to_the_end(new)
    new_deal.refresh_from_db()
    assert new_deal.status == Deal.Status.FINISHED
    # Its record is the whole game, prefix included, and replays to the stored result.
    record = deal_record(new_deal)
    assert record["actions"][:step] == deal_actions(deal)[:step]
    assert Game.from_record(record).result == new_deal.result
    assert Game.from_record(base_record(new_deal, deal_actions(new_deal))).is_over
    page = _as("anna").get(reverse("analysis:replay", args=[new.pk])).content.decode()
    assert 'data-testid="played-on-from"' in page
    assert f"?deal=1&amp;step={step}" in page


def test_anyone_may_play_on_from_a_public_game_in_the_seat_they_pick():
    match = play_match(["anna", "boris"], seed=6, is_rated=False)
    response = _as("carl").post(_url(match), {"step": "4", "seat": "0"})
    assert response.status_code == 302
    new = Match.objects.exclude(pk=match.pk).get()
    assert Seat.objects.get(match=new, number=0).user.username == "carl"
    # The replay offers the form at a step before the end, not at the end.
    page = _as("carl").get(reverse("analysis:replay", args=[match.pk]), {"step": 4})
    assert 'data-testid="play-on"' in page.content.decode()
    last = match.deals.get().move_count
    page = _as("carl").get(reverse("analysis:replay", args=[match.pk]), {"step": last})
    assert 'data-testid="play-on"' not in page.content.decode()


@pytest.mark.parametrize("language", ["en", "ru"])
def test_someone_elses_private_game_is_refused_and_nothing_changes(language):
    match = play_match(["anna", "boris"], seed=7, is_private=True, is_rated=False)
    before = _everything()
    response = _as("carl", language).post(_url(match), {"step": "3", "seat": "0"})
    assert response.status_code == 404
    text = response.content.decode()
    if language == "ru":
        assert "Такой игры нет" in text
    else:
        assert "You can play on from your own games and from public ones." in text
    assert _everything() == before
    # Staff may watch a private replay, but not take a seat in it.
    staff = get_user("sonia", is_staff=True)
    client = Client()
    client.force_login(staff)
    assert client.post(_url(match), {"step": "3"}).status_code == 404
    assert _everything() == before


@pytest.mark.parametrize(
    "step, seat",
    [
        ("-1", "0"),
        ("abc", "0"),
        ("1.5", "0"),
        (" 3", "0"),
        ("", "0"),
        ("LAST", "0"),  # the end of the game: nothing left to play
        ("99999", "0"),
        ("3", "2"),
        ("3", "-1"),
        ("3", "x"),
    ],
)
def test_a_forged_step_or_seat_is_refused_and_nothing_changes(step, seat):
    match = play_match(["anna", "boris"], seed=8, is_rated=False)
    if step == "LAST":
        step = str(match.deals.get().move_count)
    before = _everything()
    response = _as("anna").post(_url(match), {"step": step, "seat": seat})
    assert response.status_code == 400
    assert 'role="alert"' in response.content.decode()
    assert _everything() == before


def test_a_deal_that_does_not_exist_is_refused():
    match = play_match(["anna", "boris"], seed=8, is_rated=False)
    before = _everything()
    assert _as("anna").post(_url(match, deal=2), {"step": "3"}).status_code == 404
    assert _as("anna").get(_url(match), {"step": "3"}).status_code == 405
    assert _everything() == before


def test_a_suspended_player_is_refused_and_nothing_changes():
    match = play_match(["anna", "boris"], seed=9, is_rated=False)
    anna = get_user("anna")
    client = _as("anna")
    # A table played on earlier: a refused new one must not stop it.
    assert client.post(_url(match), {"step": "2"}).status_code == 302
    get_user_model().objects.filter(pk=anna.pk).update(
        suspended_until=timezone.now() + datetime.timedelta(days=1),
        suspension_reason="cheating",
    )
    before = _everything()
    # The site logs a suspended player out: the page sends them to log in.
    assert client.post(_url(match), {"step": "3"}).status_code == 302
    # The service refuses whatever user object its caller holds (one loaded before).
    with pytest.raises(Refused) as refused:
        play_on(anna, match.pk, 1, "3", None)
    assert refused.value.status == 403
    assert "cheating" in str(refused.value)
    assert _everything() == before
    # Logged out: to the login page, nothing made.
    assert Client().post(_url(match), {"step": "3"}).status_code == 302
    assert _everything() == before


def test_a_new_play_on_stops_the_players_unfinished_one():
    match = play_match(["anna", "boris"], seed=10, is_rated=False)
    client = _as("anna")
    client.post(_url(match), {"step": "2"})
    first = PlayOn.objects.get().match
    client.post(_url(match), {"step": "5"})
    first.refresh_from_db()
    assert first.status == Match.Status.ABORTED
    second = PlayOn.objects.exclude(match=first).get().match
    assert second.status == Match.Status.PLAYING


def test_three_players_bots_take_every_other_seat_and_a_seat_already_out_is_refused():
    match = play_match(["anna", "boris", "carl"], seed=11, is_rated=False)
    deal = match.deals.get()
    timeline = timeline_for(deal)
    out_step = next(
        (
            k
            for k in range(timeline.last)
            if timeline.game_at(k).out_order and not timeline.game_at(k).is_over
        ),
        None,
    )
    assert out_step is not None, "this deal has a step with a seat out and the game on"
    client = _as("boris")
    gone = timeline.game_at(out_step).out_order[0]
    before = _everything()
    refused = client.post(_url(match), {"step": str(out_step), "seat": str(gone)})
    assert refused.status_code == 400
    assert "already out" in refused.content.decode()
    assert _everything() == before
    assert client.post(_url(match), {"step": "6"}).status_code == 302
    new = PlayOn.objects.get().match
    seats = Seat.objects.filter(match=new).order_by("number")
    assert [(s.user.username if s.user else s.bot_level) for s in seats] == [
        "hard",
        "boris",
        "hard",
    ]
    assert services.load_game(new).view(1) == timeline.game_at(6).view(1)
