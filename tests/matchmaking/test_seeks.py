"""Play now: seeks are seated by their wishes and ratings, bots after the wait, cancel."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Match, Seat
from games.services import Refused
from history.models import Rating, RatingClass
from matchmaking import services
from matchmaking.models import Seek
from matchmaking.pairing import groups_of

from .conftest import make_user, wishes

pytestmark = pytest.mark.django_db


def age(seek: Seek, seconds: float) -> None:
    """Let ``seek`` have waited ``seconds`` (the clock is the seek's own start; its bots
    come as long after it as they did)."""
    seek.refresh_from_db()
    created = timezone.now() - timedelta(seconds=seconds)
    bots_at = seek.bots_at and seek.bots_at + (created - seek.created_at)
    Seek.objects.filter(pk=seek.pk).update(created_at=created, bots_at=bots_at)


def test_two_matching_seeks_sit_at_one_table_that_starts_at_once():
    alla, boris = make_user(), make_user()
    first = services.create_seek(alla, **wishes(deck_size=24, speed="fast"))
    assert first.status == Seek.Status.WAITING and first.match is None
    second = services.create_seek(boris, **wishes(deck_size=24, speed="fast"))
    assert second.status == Seek.Status.SEATED
    first.refresh_from_db()
    assert first.match_id == second.match_id
    match = Match.objects.get(pk=second.match_id)
    assert match.status == Match.Status.PLAYING
    assert match.is_rated and not match.is_private
    assert match.turn_seconds == 15
    assert match.engine_rules.deck_size == 24 and match.engine_rules.mode == "podkidnoy"
    users = set(Seat.objects.filter(match=match).values_list("user_id", flat=True))
    assert users == {alla.pk, boris.pk}


def test_a_seek_with_other_wishes_stays_waiting():
    services.create_seek(make_user(), **wishes())
    other_deck = services.create_seek(make_user(), **wishes(deck_size=52))
    other_game = services.create_seek(make_user(), **wishes(mode="perevodnoy"))
    unrated = services.create_seek(make_user(), **wishes(is_rated=False))
    for seek in (other_deck, other_game, unrated):
        assert seek.status == Seek.Status.WAITING
    assert services.pair_all() == []
    assert not Match.objects.exists()


def test_three_players_wait_for_the_third_then_sit_together():
    seeks = [services.create_seek(make_user(), **wishes(players=3)) for _ in range(2)]
    assert all(s.status == Seek.Status.WAITING for s in seeks)
    third = services.create_seek(make_user(), **wishes(players=3))
    assert third.status == Seek.Status.SEATED
    match = Match.objects.get(pk=third.match_id)
    assert match.players == 3 and match.status == Match.Status.PLAYING
    assert Seat.objects.filter(match=match, user__isnull=False).count() == 3


def test_ratings_far_apart_wait_until_the_windows_have_widened():
    strong, weak = make_user(), make_user()
    Rating.objects.create(user=strong, rating_class=RatingClass.TWO_PLAYER, rating=1900)
    Rating.objects.create(user=weak, rating_class=RatingClass.TWO_PLAYER, rating=1500)
    first = services.create_seek(strong, **wishes())
    second = services.create_seek(weak, **wishes())
    assert first.rating == 1900 and second.status == Seek.Status.WAITING
    # A 400-point gap needs (400 - 150) / 15 = 17 seconds of waiting from both.
    age(first, 30)
    age(second, 10)
    assert services.pair_all() == []
    age(second, 20)
    [made] = services.pair_all()
    first.refresh_from_db()
    assert first.match_id == made


def test_a_seek_made_while_others_look_gets_bots_after_the_announced_wait():
    far = make_user()
    Rating.objects.create(user=far, rating_class=RatingClass.TWO_PLAYER, rating=2600)
    services.create_seek(far, **wishes(allow_bots=False))
    alone = services.create_seek(make_user(), **wishes(allow_bots=True))
    people_only = services.create_seek(make_user(), **wishes(allow_bots=False, deck_size=52))
    assert services.pair_all() == []
    age(alone, 19)
    age(people_only, 600)
    assert services.pair_all() == []
    age(alone, 21)
    [made] = services.pair_all()
    match = Match.objects.get(pk=made)
    assert match.status == Match.Status.PLAYING
    seats = list(Seat.objects.filter(match=match).order_by("number"))
    assert seats[0].user_id == alone.user_id and seats[1].bot_level == "medium"
    assert not Seat.objects.filter(match=match, user=far).exists()
    people_only.refresh_from_db()
    assert people_only.status == Seek.Status.WAITING


def test_bots_fill_only_the_seats_nobody_took():
    seeks = [
        services.create_seek(make_user(), **wishes(players=4, allow_bots=True)) for _ in range(2)
    ]
    for seek in seeks:
        age(seek, 25)
    [made] = services.pair_all()
    seats = Seat.objects.filter(match_id=made)
    assert seats.filter(user__isnull=False).count() == 2
    assert seats.exclude(bot_level="").count() == 2


def test_a_cancelled_seek_is_never_seated():
    user = make_user()
    seek = services.create_seek(user, **wishes(allow_bots=True))
    services.cancel_seek(user)
    age(seek, 600)
    services.create_seek(make_user(), **wishes())
    assert services.pair_all() == []
    seek.refresh_from_db()
    assert seek.status == Seek.Status.CANCELLED and seek.match is None
    with pytest.raises(Refused) as refused:
        services.cancel_seek(user)
    assert refused.value.code == "not_seeking"


def test_one_waiting_seek_per_player():
    user = make_user()
    services.create_seek(user, **wishes())
    with pytest.raises(Refused) as refused:
        services.create_seek(user, **wishes(deck_size=52))
    assert refused.value.code == "seeking"
    assert Seek.objects.filter(user=user).count() == 1


def test_a_seek_flood_is_refused_and_changes_nothing(settings):
    settings.MATCHMAKING_SEEK_RATE = (3, 60)
    user = make_user()
    for _ in range(3):
        services.create_seek(user, **wishes())
        services.cancel_seek(user)
    with pytest.raises(Refused) as refused:
        services.create_seek(user, **wishes())
    assert refused.value.code == "rate_limited"
    assert not Seek.objects.filter(user=user, status=Seek.Status.WAITING).exists()


def test_a_table_that_cannot_be_dealt_is_refused():
    user = make_user()
    with pytest.raises(Refused) as refused:
        services.create_seek(user, **wishes(players=5, deck_size=24))
    assert "24" in refused.value.message and refused.value.code == "rules"
    assert not Seek.objects.exists()


def test_a_suspended_player_cannot_seek():
    user = make_user(suspended_forever=True)
    with pytest.raises(Refused) as refused:
        services.create_seek(user, **wishes())
    assert refused.value.code == "suspended"
    assert not Seek.objects.exists()


def test_a_seeker_suspended_while_waiting_is_not_seated():
    waiting = make_user()
    seek = services.create_seek(waiting, **wishes())
    waiting.suspended_forever = True
    waiting.save()
    other = services.create_seek(make_user(), **wishes())
    assert other.status == Seek.Status.WAITING
    seek.refresh_from_db()
    assert seek.status == Seek.Status.CANCELLED


def test_the_last_choice_is_remembered():
    user = make_user()
    chosen = wishes(mode="perevodnoy", players=3, speed="slow", min_reliability=70)
    services.create_seek(user, **chosen)
    services.cancel_seek(user)
    assert services.last_choice(user) == chosen


def test_lobby_counts_who_looks_for_which_game_and_tables_playing():
    services.create_seek(make_user(), **wishes())
    services.create_seek(make_user(), **wishes(mode="perevodnoy", players=3))
    services.create_seek(make_user(), **wishes(mode="perevodnoy", players=3, speed="fast"))
    services.create_seek(make_user(), **wishes(mode="perevodnoy", deck_size=52))
    counts = services.lobby_counts()
    assert counts["seeks"] == [
        ("Podkidnoy", 2, 36, 1),
        ("Perevodnoy", 2, 52, 1),
        ("Perevodnoy", 3, 36, 2),
    ]
    assert counts["online"] == 4 and counts["playing"] == 0
    services.create_seek(make_user(), **wishes())
    counts = services.lobby_counts()
    assert ("Podkidnoy", 2, 36, 1) not in counts["seeks"] and counts["playing"] == 1


class Wish:
    def __init__(self, name: str, rating: float) -> None:
        self.name, self.rating = name, rating


def test_groups_are_disjoint_full_and_mutually_compatible():
    seeks = [
        Wish(n, r) for n, r in [("a", 1500), ("b", 2000), ("c", 1550), ("d", 1990), ("e", 1510)]
    ]

    def fits(x, y):
        return abs(x.rating - y.rating) <= 100

    groups = groups_of(seeks, fits, size=2)
    assert [[s.name for s in g] for g in groups] == [["a", "c"], ["b", "d"]]
    triples = groups_of(seeks, fits, size=3)
    assert [[s.name for s in g] for g in triples] == [["a", "c", "e"]]
    partial = groups_of(seeks, fits, size=3, partial=True)
    assert [[s.name for s in g] for g in partial] == [["a", "c", "e"], ["b", "d"]]


def test_players_with_a_socket_open_count_as_online():
    from games.socket_guard import SocketQuota

    browsing, seeking = make_user(), make_user()
    quota = SocketQuota(browsing.pk, None, "test-lobby-socket")
    assert quota.admit()
    services.create_seek(seeking, **wishes())
    assert services.lobby_counts()["online"] == 2
    quota.release()
    assert services.lobby_counts()["online"] == 1


@pytest.mark.django_db(transaction=True)
def test_a_tick_of_the_ticker_seats_the_seeks_that_now_pair():
    from asgiref.sync import async_to_sync

    from games import ticker

    strong, weak = make_user(), make_user()
    Rating.objects.create(user=strong, rating_class=RatingClass.TWO_PLAYER, rating=1900)
    Rating.objects.create(user=weak, rating_class=RatingClass.TWO_PLAYER, rating=1500)
    first = services.create_seek(strong, **wishes())
    second = services.create_seek(weak, **wishes())
    assert second.status == Seek.Status.WAITING
    age(first, 30)
    age(second, 30)
    async_to_sync(ticker.tick)()
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.status == second.status == Seek.Status.SEATED
    assert first.match_id == second.match_id is not None
