"""A bot's pause shrinks with the bots a person waits for between turns, and the
table's host picks the bots' speed; a forged speed is refused and makes no table."""

from __future__ import annotations

import html

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games import services
from games.bot_speed import bots_between_turns, scaled_delay
from games.models import Match, RuleVariant
from games.services import clock
from games.services.common import load_game, load_seats

FLOOR = 0.4


def test_one_bot_waits_its_whole_pause():
    assert scaled_delay(1.2, bots_between_turns(1, 1), "normal", FLOOR) == pytest.approx(1.2)


def test_the_pause_is_shared_among_the_bots_between_a_persons_turns():
    assert scaled_delay(1.2, bots_between_turns(2, 1), "normal", FLOOR) == pytest.approx(0.6)
    # Two people among four bots: two bots act between one person's turns.
    assert bots_between_turns(4, 2) == 2
    # Three people and one bot: that bot is all a person waits for.
    assert bots_between_turns(1, 3) == 1


def test_many_bots_stop_at_the_floor_the_animations_need():
    assert scaled_delay(1.6, bots_between_turns(6, 1), "normal", FLOOR) == pytest.approx(FLOOR)


def test_fast_halves_the_pause_down_to_the_floor():
    assert scaled_delay(1.2, 1, "fast", FLOOR) == pytest.approx(0.6)
    assert scaled_delay(1.2, 3, "fast", FLOOR) == pytest.approx(FLOOR)


def test_the_floor_never_lengthens_a_shorter_configured_pause():
    assert scaled_delay(0.0, 6, "normal", FLOOR) == 0.0
    assert scaled_delay(0.3, 1, "normal", FLOOR) == pytest.approx(0.3)


def test_an_unknown_speed_is_an_error():
    with pytest.raises(ValueError, match="warp"):
        scaled_delay(1.0, 1, "warp", FLOOR)


# ------------------------------------------------------------------ at a table


def make_user(name: str):
    return get_user_model().objects.create(username=name)


def pause_at(match: Match) -> float:
    match.refresh_from_db()
    return clock.bot_delay(match, load_seats(match.pk), load_game(match)).total_seconds()


@pytest.mark.django_db
def test_a_seven_seat_table_of_six_bots_pauses_at_the_floor(settings):
    settings.GAMES_BOT_DELAY = (1.2, 1.2)
    settings.GAMES_BOT_DELAY_FLOOR = FLOOR
    big = RuleVariant.objects.get(slug="full-deck-52")
    classic = RuleVariant.objects.get(slug="classic")
    seven = services.create_match(make_user("host7"), big, 7, bots=["random"] * 6)
    three = services.create_match(make_user("host3"), classic, 3, bots=["random"] * 2)
    two = services.create_match(make_user("host2"), classic, 2, bots=["random"])
    assert pause_at(seven) == pytest.approx(FLOOR)
    assert pause_at(three) == pytest.approx(0.6)
    assert pause_at(two) == pytest.approx(1.2)


@pytest.mark.django_db
def test_fast_bots_at_a_table_for_two_pause_half_as_long(settings):
    settings.GAMES_BOT_DELAY = (1.2, 1.2)
    classic = RuleVariant.objects.get(slug="classic")
    fast = services.create_match(make_user("quick"), classic, 2, bots=["random"], bot_speed="fast")
    assert fast.bot_speed == "fast"
    assert pause_at(fast) == pytest.approx(0.6)


@pytest.mark.django_db
def test_the_service_refuses_an_unknown_speed_and_makes_no_table():
    classic = RuleVariant.objects.get(slug="classic")
    with pytest.raises(services.Refused) as refused:
        services.create_match(make_user("forger"), classic, 2, bots=["random"], bot_speed="warp")
    assert refused.value.code == "bot_speed"
    assert "normal or fast" in refused.value.message
    assert not Match.objects.exists()


def create(client: Client, **fields: str):
    classic = RuleVariant.objects.get(slug="classic")
    return client.post(
        reverse("table:create"), {"variant": classic.pk, "players": 2, "seat_1": "easy", **fields}
    )


@pytest.mark.django_db
def test_the_host_picks_fast_bots_on_the_new_table_form():
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(make_user("host"))
    page = client.get(reverse("table:lobby"))
    assert b'name="bot_speed"' in page.content and b"Bots&#x27; speed" in page.content
    answer = create(client, bot_speed="fast")
    match = Match.objects.get()
    assert answer.status_code == 302 and answer["Location"].endswith(f"/games/{match.pk}/")
    assert match.bot_speed == "fast"


@pytest.mark.django_db
def test_a_form_without_a_speed_gets_normal_bots():
    client = Client()
    client.force_login(make_user("plain"))
    create(client)
    assert Match.objects.get().bot_speed == "normal"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "Choose the bots' speed: normal or fast."),
        ("ru", "Выберите скорость ботов: обычно или быстро."),
    ],
)
def test_a_forged_speed_is_refused_with_a_clear_error_and_makes_no_table(language, words):
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(make_user(f"forger{language}"))
    answer = create(client, bot_speed="warp")
    assert answer.status_code == 400
    assert words in html.unescape(answer.content.decode())
    assert not Match.objects.exists()
