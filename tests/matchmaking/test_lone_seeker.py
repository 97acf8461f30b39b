"""A newcomer never waits alone: with nobody else looking for the same game, a bot takes
the free seat within seconds, and says so; a person who comes meanwhile still wins the
seat; "Play with a bot now" ends a longer wait; the lobby counts who looks for what."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.models import Match, Seat
from games.services import Refused
from history.models import Rating, RatingClass
from matchmaking import services
from matchmaking.models import Seek

from .conftest import client_for, make_user, wishes

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def waited(seek: Seek, seconds: float) -> None:
    """Let ``seek`` have waited ``seconds``, its bots' time moving with it."""
    seek.refresh_from_db()
    shift = timedelta(seconds=seconds) - (timezone.now() - seek.created_at)
    Seek.objects.filter(pk=seek.pk).update(
        created_at=seek.created_at - shift, bots_at=seek.bots_at and seek.bots_at - shift
    )


def far_seeker(**changes) -> Seek:
    """Someone looking for the same game whose rating is too far to pair with for now."""
    user = make_user("far")
    Rating.objects.create(user=user, rating_class=RatingClass.TWO_PLAYER, rating=2600)
    return services.create_seek(user, **wishes(**changes))


def test_with_nobody_else_looking_a_bot_comes_after_the_short_wait():
    seek = services.create_seek(make_user(), **wishes(allow_bots=True))
    assert (seek.bots_at - seek.created_at).total_seconds() == pytest.approx(2, abs=0.01)
    # Someone looking for another game does not count.
    other = far_seeker(deck_size=52)
    waited(seek, 1)
    assert services.pair_all() == []
    waited(seek, 2.1)
    [made] = services.pair_all()
    seats = list(Seat.objects.filter(match_id=made).order_by("number"))
    assert [s.user_id for s in seats] == [seek.user_id, None] and seats[1].bot_level
    assert Match.objects.get(pk=made).status == Match.Status.PLAYING
    other.refresh_from_db()
    assert other.status == Seek.Status.WAITING


def test_a_person_who_comes_during_the_short_wait_wins_the_seat():
    first = services.create_seek(make_user(), **wishes(allow_bots=True))
    second = services.create_seek(make_user(), **wishes(allow_bots=True))
    assert second.status == Seek.Status.SEATED
    seats = Seat.objects.filter(match_id=second.match_id)
    assert set(seats.values_list("user_id", flat=True)) == {first.user_id, second.user_id}
    assert not seats.exclude(bot_level="").exists()


def test_at_a_bigger_table_the_people_who_came_sit_together_with_bots():
    first = services.create_seek(make_user(), **wishes(players=3, allow_bots=True))
    second = services.create_seek(make_user(), **wishes(players=3, allow_bots=True))
    assert second.status == Seek.Status.WAITING
    waited(first, 2.1)
    [made] = services.pair_all()
    seats = Seat.objects.filter(match_id=made)
    assert set(seats.exclude(user=None).values_list("user_id", flat=True)) == {
        first.user_id,
        second.user_id,
    }
    assert seats.exclude(bot_level="").count() == 1


def test_with_others_looking_the_wait_is_the_long_one():
    far_seeker()
    seek = services.create_seek(make_user(), **wishes(allow_bots=True))
    assert (seek.bots_at - seek.created_at).total_seconds() == pytest.approx(20, abs=0.01)
    waited(seek, 3)
    assert services.pair_all() == []


def test_play_with_a_bot_now_ends_the_long_wait():
    far = far_seeker()
    user = make_user()
    client = client_for(user)
    panel = client.post(reverse("matchmaking:play"), wishes_form(allow_bots=True), **HTMX)
    assert "Play with a bot now" in panel.content.decode()
    answer = client.post(reverse("matchmaking:bots_now"), **HTMX)
    seek = Seek.objects.get(user=user)
    assert seek.status == Seek.Status.SEATED
    assert answer["HX-Redirect"] == reverse("table:table", args=[seek.match_id])
    assert not Seat.objects.filter(match_id=seek.match_id, user=far.user).exists()


@pytest.mark.parametrize(("language", "words"), [("en", "people only"), ("ru", "только с людьми")])
def test_play_with_a_bot_now_is_refused_for_a_people_only_search(language, words):
    user = make_user()
    services.create_seek(user, **wishes(allow_bots=False))
    text = client_for(user, language).post(reverse("matchmaking:bots_now"), **HTMX)
    assert words in text.content.decode()
    assert Seek.objects.get(user=user).status == Seek.Status.WAITING
    assert not Match.objects.exists()
    Seek.objects.update(status=Seek.Status.CANCELLED)
    with pytest.raises(Refused) as refused:
        services.bots_now(user)
    assert refused.value.code == "not_seeking"


def wishes_form(**changes) -> dict:
    data = {k: v for k, v in wishes(**changes).items() if v is not False}
    return {k: ("on" if v is True else v) for k, v in data.items()}


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "Nobody else is looking for this game right now: a bot takes the free seat in 2"),
        ("ru", "Сейчас эту игру больше никто не ищет: бот сядет за стол через 2 секунды"),
    ],
)
def test_the_panel_says_nobody_else_is_looking_and_counts_down(language, words):
    client = client_for(make_user(), language)
    panel = client.post(reverse("matchmaking:play"), wishes_form(allow_bots=True), **HTMX)
    text = panel.content.decode()
    assert words in text and "data-bot-at" in text and "seek-countdown" in text


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ["Podkidnoy · 2 players · 24 cards: 1", "Perevodnoy · 3 players · 36 cards: 2"]),
        ("ru", ["Подкидной · 2 игрока · 24 карты: 1", "Переводной · 3 игрока · 36 карт: 2"]),
    ],
)
def test_the_lobby_shows_who_is_looking_for_which_game(language, words):
    client = client_for(make_user(), language)
    empty = client.get("/").content.decode()
    assert ("nobody is looking" if language == "en" else "никто не ищет") in empty
    services.create_seek(make_user(), **wishes(deck_size=24))
    for _ in range(2):
        services.create_seek(make_user(), **wishes(mode="perevodnoy", players=3))
    page = client.get("/").content.decode()
    for line in words:
        assert line in page
