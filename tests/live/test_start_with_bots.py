"""A host starts a table before every seat is taken: bots take the free seats."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Match, RuleVariant, Seat

from .conftest import Socket, db, in_own_loop, make_user, session_cookie

pytestmark = pytest.mark.django_db


def four_seat_table(rated: bool = True, guest_language: str = "en"):
    """A 4-seat classic table: the host, one guest, two free seats."""
    host, guest = make_user("host"), make_user("guest", language=guest_language)
    variant = RuleVariant.objects.get(slug="classic")
    match = services.create_match(host, variant, 4, is_rated=rated)
    services.join_match(match, guest)
    return match, host, guest


def client_of(user, language: str = "en") -> Client:
    client = Client(headers={"accept-language": language})
    client.force_login(user)
    return client


def seats_of(match: Match) -> list[tuple[int | None, str]]:
    return list(
        Seat.objects.filter(match=match).order_by("number").values_list("user_id", "bot_level")
    )


@pytest.mark.parametrize(
    ("language", "button", "unrated"),
    [
        ("en", "Start with bots in the free seats", "A game with a bot is not rated."),
        ("ru", "Начать с ботами на свободных местах", "Партия с ботом идёт без рейтинга."),
    ],
)
def test_the_host_is_offered_bots_for_the_free_seats(language, button, unrated):
    match, host, guest = four_seat_table()
    page = client_of(host, language).get(reverse("table:table", args=[match.pk]))
    text = page.content.decode()
    assert button in text and unrated in text
    assert 'name="bots"' in text
    # A guest sees no such form: only the host starts the table.
    guest_page = client_of(guest, language).get(reverse("table:table", args=[match.pk]))
    assert button not in guest_page.content.decode()


def test_bots_take_the_free_seats_and_the_game_starts_unrated():
    match, host, guest = four_seat_table(rated=True)
    response = client_of(host).post(reverse("table:start", args=[match.pk]), {"bots": "easy"})
    assert response.status_code == 302
    assert response["Location"] == reverse("table:table", args=[match.pk])
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING and match.live_deal is not None
    # Nobody is moved: the people keep their seats, the bots sit where nobody sat.
    assert seats_of(match) == [(host.pk, ""), (guest.pk, ""), (None, "easy"), (None, "easy")]
    assert not match.is_rated


def test_a_variant_rated_with_bots_stays_rated():
    match, host, _ = four_seat_table(rated=True)
    match.variant.rated_with_bots = True
    match.variant.save()
    page = client_of(host).get(reverse("table:table", args=[match.pk])).content.decode()
    assert "A game with a bot is not rated." not in page
    services.start_match(match, host, bots="hard")
    match.refresh_from_db()
    assert match.is_rated and match.status == Match.Status.PLAYING


@pytest.mark.parametrize(
    ("who", "data", "message"),
    [
        ("guest", {"bots": "easy"}, "Only the creator can start the table."),
        ("host", {"bots": "grandmaster"}, "Unknown bot level."),
        ("host", {}, "Wait until every seat is taken."),
    ],
)
def test_a_refused_start_changes_nothing_and_the_table_says_why(who, data, message):
    match, host, guest = four_seat_table()
    before = seats_of(match)
    client = client_of(host if who == "host" else guest)
    response = client.post(reverse("table:start", args=[match.pk]), data, follow=True)
    # The player stays at the table, where the refusal is read.
    assert response.redirect_chain[-1][0] == reverse("table:table", args=[match.pk])
    assert message in response.content.decode()
    match.refresh_from_db()
    assert match.status == Match.Status.WAITING and match.is_rated
    assert seats_of(match) == before


def test_a_started_table_is_not_started_again():
    match, host, _ = four_seat_table()
    services.start_match(match, host, bots="medium")
    match.refresh_from_db()
    version = match.version
    with pytest.raises(services.Refused, match="already started"):
        services.start_match(match, host, bots="hard")
    match.refresh_from_db()
    assert match.version == version
    assert [level for _, level in seats_of(match)] == ["", "", "medium", "medium"]


def test_a_refused_leave_keeps_the_player_at_the_table():
    match, host, guest = four_seat_table()
    services.start_match(match, host, bots="easy")
    response = client_of(guest).post(reverse("table:leave", args=[match.pk]), follow=True)
    assert response.redirect_chain[-1][0] == reverse("table:table", args=[match.pk])
    assert "resign instead of leaving" in response.content.decode()


@pytest.mark.django_db(transaction=True)
@in_own_loop
async def test_the_guest_reads_that_the_game_started_unrated():
    match, host, guest = await db(four_seat_table, guest_language="ru")
    sock = Socket(f"/ws/games/{match.pk}/", await db(session_cookie, guest))
    assert (await sock.open())[0]
    await sock.drain()
    assert "Рейтинговая партия" in "".join(sock.frames)
    await db(services.start_match, match, host, bots="medium")
    frame = await sock.until(lambda f: 'id="table-rated"' in f)
    assert "Партия без рейтинга" in frame
    await sock.close()
