"""Play as a guest: «Играть» without signing up makes a guest account kept by the
browser's session, which looks for an unrated game at once; guests are limited per
address like sign-ups, kept out of rated pools and tables and off every board; signing
up keeps the guest's games; idle guests are cleaned up."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from daily.leaderboards import puzzle_leaders
from games.models import Match, Seat
from games.services import Refused, join_match
from history import services as history
from history.boards import week_boards
from history.models import PlayerGame, Rating, RatingClass
from matchmaking import services
from matchmaking.guests import GUEST_WISHES, create_guest, remove_idle_guests
from matchmaking.models import Seek
from puzzles.models import PuzzleRating
from tests.live.conftest import Socket
from tests.sockets import db, in_own_loop, session_cookie

from .conftest import client_for, make_user, wishes

pytestmark = pytest.mark.django_db
STRONG = "correct-horse-battery-9"
User = get_user_model()


def play_as_guest(client: Client, **extra):
    return client.post(reverse("matchmaking:play_as_guest"), **extra)


def test_a_visitor_tapping_play_gets_a_guest_account_signed_in_and_a_search():
    client = Client(HTTP_ACCEPT_LANGUAGE="ru")
    response = play_as_guest(client)
    assert response.status_code == 302
    guest = User.objects.get(is_guest=True)
    assert guest.username.startswith("Гость ") and not guest.has_usable_password()
    assert guest.language == "ru"
    # The session keeps the guest: the next page is theirs.
    lobby = client.get(reverse("table:lobby"))
    assert lobby.context["user"] == guest
    assert f"Вы играете как {guest.username}: без рейтинга" in lobby.content.decode()
    seek = Seek.objects.get(user=guest)
    assert seek.status == Seek.Status.WAITING
    assert (seek.is_rated, seek.allow_bots, seek.players) == (False, True, 2)


def test_an_english_visitor_is_a_guest_in_english_and_names_are_unique():
    names = {create_guest("10.0.0.1", "en").username for _ in range(5)}
    assert len(names) == 5 and all(name.startswith("Guest ") for name in names)


def test_a_guest_meets_a_person_already_looking_at_once():
    person = make_user()
    waiting = services.create_seek(person, **wishes(is_rated=False, allow_bots=True))
    response = play_as_guest(Client())
    waiting.refresh_from_db()
    assert waiting.status == Seek.Status.SEATED
    assert response["Location"] == reverse("table:table", args=[waiting.match_id])


def test_guests_are_limited_per_address_with_sign_ups(settings):
    settings.SIGNUP_RATE_LIMIT_ACCOUNTS = 2
    for _ in range(2):
        assert play_as_guest(Client(), REMOTE_ADDR="10.1.1.1").status_code == 302
    refused = Client(HTTP_ACCEPT_LANGUAGE="ru")
    response = play_as_guest(refused, REMOTE_ADDR="10.1.1.1", follow=True)
    assert "слишком много аккаунтов" in response.content.decode()
    assert User.objects.filter(is_guest=True).count() == 2
    assert not response.context["user"].is_authenticated
    # A sign-up from the same address is counted with them: also refused.
    signup = Client().post(
        reverse("accounts:signup"),
        {"username": "ivan", "password1": STRONG, "password2": STRONG},
        REMOTE_ADDR="10.1.1.1",
    )
    assert signup.status_code == 200 and not User.objects.filter(username="ivan").exists()
    # Another address is not.
    assert play_as_guest(Client(), REMOTE_ADDR="10.2.2.2").status_code == 302


def test_the_guest_service_refuses_past_the_limit_and_makes_nothing(settings):
    settings.SIGNUP_RATE_LIMIT_ACCOUNTS = 1
    create_guest("10.3.3.3", "en")
    with pytest.raises(Refused, match="Too many accounts"):
        create_guest("10.3.3.3", "en")
    assert User.objects.filter(is_guest=True).count() == 1


def test_a_guest_never_enters_a_rated_pool_or_sits_at_a_rated_table():
    guest = create_guest("10.4.4.4", "en")
    with pytest.raises(Refused, match="Guests play unrated games only") as refused:
        services.create_seek(guest, **wishes(is_rated=True))
    assert refused.value.code == "guest"
    assert not Seek.objects.filter(user=guest).exists()
    with pytest.raises(Refused, match="Guests play unrated"):
        services.practice_table(guest, wishes(is_rated=True), "easy")
    rated = services.table_as_wished(make_user(), wishes(is_rated=True), 2)
    assert rated.is_rated
    with pytest.raises(Refused, match="Guests play unrated"):
        join_match(rated, guest)
    assert not Seat.objects.filter(user=guest).exists()
    # Where nothing asks, a guest's table is simply unrated: a lobby table.
    table = services.create_table(guest, rated.variant, 2)
    assert not table.is_rated


def test_a_guest_posting_rated_from_the_panel_still_gets_an_unrated_search():
    guest = create_guest("10.5.5.5", "en")
    client = client_for(guest)
    form = {**wishes(is_rated=True), "is_rated": "on"}
    client.post(reverse("matchmaking:play"), form, HTTP_HX_REQUEST="true")
    assert Seek.objects.get(user=guest).is_rated is False


def test_guests_are_on_no_leaderboard_and_not_found_by_search(settings):
    settings.LEADERBOARD_MIN_GAMES = 1
    guest = create_guest("10.6.6.6", "en")
    player = make_user("player")
    for user in (guest, player):
        Rating.objects.create(user=user, rating_class=RatingClass.TWO_PLAYER, games=5)
        PuzzleRating.objects.create(user=user, attempts=3)
    for user in (guest, player):  # a game against bots this week, for the bots' board
        match = Match.objects.get(
            pk=services.practice_table(user, wishes(is_rated=False), "easy").pk
        )
        PlayerGame.objects.create(
            user=user,
            deal=match.live_deal,
            match=match,
            variant=match.variant,
            players=2,
            seat=0,
            result=PlayerGame.Result.SAFE,
            move_count=10,
            finished_at=timezone.now(),
            rating_class=RatingClass.TWO_PLAYER,
        )
    board = [r.user for r in history.leaderboard(RatingClass.TWO_PLAYER)]
    assert board == [player]
    assert [r.user for r in puzzle_leaders()] == [player]
    week = week_boards()
    names = {row["user__username"] for rows in vars(week).values() for row in rows}
    assert guest.username not in names
    found = client_for(player).get(reverse("accounts:players"), {"q": guest.username[:5]})
    assert guest not in list(found.context["players"])


def test_signing_up_as_a_guest_keeps_the_same_account_and_its_games():
    client = Client()
    play_as_guest(client)
    guest = User.objects.get(is_guest=True)
    client.post(reverse("matchmaking:cancel"))
    match = services.practice_table(guest, wishes(is_rated=False), "easy")
    page = client.get(reverse("accounts:signup"), HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 200 and not page.context["form"]["username"].value()
    assert f"You play as {guest.username}: your account keeps its games" in page.content.decode()
    response = client.post(
        reverse("accounts:signup"),
        {"username": "ivan", "password1": STRONG, "password2": STRONG, "email": ""},
    )
    assert response.status_code == 302
    assert User.objects.count() == 1
    ivan = User.objects.get(pk=guest.pk)
    assert ivan.username == "ivan" and not ivan.is_guest and ivan.check_password(STRONG)
    assert Seat.objects.get(match=match, number=0).user == ivan
    assert client.get(reverse("table:lobby")).context["user"] == ivan
    # Now a player: a rated search is theirs to make.
    assert services.create_seek(ivan, **wishes(is_rated=True)).is_rated


def test_a_signed_in_player_is_not_sent_to_sign_up_again():
    client = client_for(make_user())
    assert client.get(reverse("accounts:signup")).status_code == 302


def _old(user, days: int = 30) -> None:
    long_ago = timezone.now() - timedelta(days=days)
    User.objects.filter(pk=user.pk).update(date_joined=long_ago, last_login=long_ago)


def _finished_long_ago(match: Match, days: int = 30) -> None:
    long_ago = timezone.now() - timedelta(days=days)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED, finished_at=long_ago)
    Seat.objects.filter(match=match).update(joined_at=long_ago, last_seen=long_ago)


def test_idle_guests_are_cleaned_up_and_active_ones_kept():
    idle_alone = create_guest("10.7.7.1", "en")
    bots_only = services.practice_table(idle_alone, wishes(is_rated=False), "easy")
    _finished_long_ago(bots_only)
    _old(idle_alone)

    idle_shared = create_guest("10.7.7.2", "en")
    person = make_user("person")
    with_person = services.table_as_wished(person, wishes(is_rated=False), 2)
    join_match(with_person, idle_shared)
    _finished_long_ago(with_person)
    _old(idle_shared)

    idle_nothing = create_guest("10.7.7.3", "en")
    _old(idle_nothing)

    active = create_guest("10.7.7.4", "en")
    _old(active)
    services.practice_table(active, wishes(is_rated=False), "easy")  # playing now

    recently_played = create_guest("10.7.7.5", "en")
    _old(recently_played)
    recent = services.practice_table(recently_played, wishes(is_rated=False), "easy")
    _finished_long_ago(recent, days=1)

    new = create_guest("10.7.7.6", "en")

    assert remove_idle_guests() == (2, 1)
    assert not User.objects.filter(pk__in=[idle_alone.pk, idle_nothing.pk]).exists()
    assert not Match.objects.filter(pk=bots_only.pk).exists()
    # The person's game stays whole; the guest in it is deactivated.
    idle_shared.refresh_from_db()
    assert not idle_shared.is_active
    assert set(Seat.objects.filter(match=with_person).values_list("user_id", flat=True)) == {
        person.pk,
        idle_shared.pk,
    }
    assert User.objects.filter(pk__in=[active.pk, recently_played.pk, new.pk]).count() == 3
    # Nothing left to do the next time.
    assert remove_idle_guests() == (0, 0)


def test_a_new_guest_queues_the_clean_up_at_most_once_an_hour(
    settings, django_capture_on_commit_callbacks
):
    from django_tasks_db.models import DBTaskResult

    settings.MATCHMAKING_GUEST_SWEEP_SECONDS = 3600
    for ip in ("10.8.8.1", "10.8.8.2"):
        with django_capture_on_commit_callbacks(execute=True):
            play_as_guest(Client(), REMOTE_ADDR=ip)
    queued = DBTaskResult.objects.filter(task_path__endswith="sweep_idle_guests")
    assert queued.count() == 1


@pytest.mark.django_db(transaction=True)
@in_own_loop
async def test_a_seek_seated_before_the_lobby_socket_opened_still_sends_the_page_on():
    """A guest's bot may come between the lobby's render and its socket's joining:
    the socket, once open, names the table all the same."""
    guest = await db(create_guest, "10.9.9.1", "en")
    await db(services.create_seek, guest, **GUEST_WISHES)
    await db(lambda: Seek.objects.update(bots_at=timezone.now()))
    [made] = await db(services.pair_all)
    lobby = Socket("/ws/lobby/", await db(session_cookie, guest))
    assert (await lobby.open())[0]
    frame = await lobby.until(lambda f: "data-go" in f)
    assert f'data-go="/games/{made}/"' in frame
    await lobby.close()
