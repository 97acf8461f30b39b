"""Pause and withdraw by the site: a player who leaves the arena's page is away (not
paired) until they come back, and one who abandons two arena games is withdrawn and
told why."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from arena import presence, services
from arena.abandons import abandoned
from arena.models import ArenaPresence, WithdrawnFor
from games import presence as processes
from games.models import Deal, Match, Move, OpenSocket, Seat
from games.services import clock
from games.services.common import load_game
from games.services.play import apply_action
from games.services.timers import expire_deadlines

from .conftest import end_with_fool, entry, person, running_arena, table_of

pytestmark = pytest.mark.django_db


def open_page(arena, user, channel: str) -> None:
    """An arena socket of ``user`` opened (its socket-cap row, then the page's)."""
    OpenSocket.objects.create(
        channel_name=channel, user=user, server=processes.server_name(), renewed_at=timezone.now()
    )
    presence.page_opened(arena.pk, user.pk, channel)


def close_page(arena, user, channel: str) -> None:
    OpenSocket.objects.filter(channel_name=channel).delete()
    presence.page_closed(arena.pk, user.pk, channel)


def test_a_player_who_leaves_the_page_is_not_paired_until_they_come_back():
    arena = running_arena()
    stays, leaves = person(), person()
    for user in (stays, leaves):
        services.join(user, arena)
        open_page(arena, user, f"ch-{user.pk}")
    close_page(arena, leaves, f"ch-{leaves.pk}")
    assert entry(arena, leaves).away_since is not None
    assert services.pair_waiting(arena) == []
    open_page(arena, leaves, f"ch-{leaves.pk}-again")
    assert entry(arena, leaves).away_since is None
    (match_id,) = services.pair_waiting(arena)
    assert table_of(match_id) == {stays.pk, leaves.pk}


def test_closing_one_of_two_open_pages_keeps_the_player_in():
    arena = running_arena()
    user = person()
    services.join(user, arena)
    open_page(arena, user, "tab-1")
    open_page(arena, user, "tab-2")
    close_page(arena, user, "tab-1")
    assert entry(arena, user).away_since is None


def test_a_player_paused_by_hand_stays_paused_when_the_page_opens():
    arena = running_arena()
    user = person()
    services.join(user, arena)
    services.set_paused(user, arena, True)
    open_page(arena, user, "tab")
    assert entry(arena, user).paused is True


def test_the_pages_of_a_dead_process_stop_counting_on_the_tick():
    arena = running_arena()
    user = person()
    services.join(user, arena)
    open_page(arena, user, "dead-tab")
    long_ago = timezone.now() - timedelta(seconds=processes.timeout_seconds() * 3)
    OpenSocket.objects.filter(channel_name="dead-tab").update(renewed_at=long_ago)
    ArenaPresence.objects.update(opened_at=long_ago)
    assert presence.release_closed_pages() == 1
    assert entry(arena, user).away_since is not None
    assert not ArenaPresence.objects.exists()
    # A live page is left alone.
    open_page(arena, user, "live-tab")
    assert presence.release_closed_pages() == 0
    assert entry(arena, user).away_since is None


def play_out_by_the_clock(match_id: int, connected: set[int], playing: set[int] = frozenset()):
    """Let the turn timer (and the reconnect budget of the seats not ``connected``)
    end the game at ``match_id``; only the users in ``playing`` move, each their first
    legal move whenever the game waits for them."""
    Seat.objects.filter(match_id=match_id, user_id__in=connected).update(disconnected_since=None)
    movers = dict(
        Seat.objects.filter(match_id=match_id, user_id__in=playing).values_list("number", "user")
    )
    now = timezone.now()
    for _ in range(400):
        match = Match.objects.get(pk=match_id)
        if match.status != Match.Status.PLAYING:
            return
        game = load_game(match)
        mover = next((n for n in clock.required_seats(game) if n in movers), None)
        if mover is not None:
            action = next(a for a in game.legal_actions(mover) if a.kind != "swap")
            apply_action(match_id, mover, str(action), version=match.version, now=now)
            continue
        now += timedelta(minutes=10)
        expire_deadlines(now)
    raise AssertionError("the game did not end on the clock")


def test_leaving_the_table_for_good_twice_withdraws_the_player_and_says_why():
    arena = running_arena()
    quits, stays = person(), person()
    for user in (quits, stays):
        services.join(user, arena)
    for _ in range(2):
        (match_id,) = services.pair_waiting(arena)
        play_out_by_the_clock(match_id, connected={stays.pk}, playing={stays.pk})
        deal = Deal.objects.get(match_id=match_id)
        assert deal.end_reason == Deal.EndReason.FORFEIT
        assert entry(arena, stays).withdrawn is False
    gone = entry(arena, quits)
    assert (gone.abandons, gone.withdrawn, gone.withdrawn_for) == (2, True, WithdrawnFor.ABANDONED)
    assert gone.games == 2  # the games still count
    assert services.pair_waiting(arena) == []
    for language, why in (("en", "you abandoned two games"), ("ru", "вы бросили две партии")):
        client = Client(HTTP_ACCEPT_LANGUAGE=language)
        client.force_login(quits)
        page = client.get(reverse("arena:detail", args=[arena.pk])).content.decode()
        assert why in page
    # Joining again is a fresh start: the message goes, the count starts anew.
    services.join(quits, arena)
    back = entry(arena, quits)
    assert (back.withdrawn, back.withdrawn_for, back.abandons) == (False, "", 0)


def test_a_game_played_out_by_the_turn_timer_is_abandoned_by_both():
    arena = running_arena()
    a, b = person(), person()
    for user in (a, b):
        services.join(user, arena)
    (match_id,) = services.pair_waiting(arena)
    play_out_by_the_clock(match_id, connected={a.pk, b.pk})
    deal = Deal.objects.get(match_id=match_id)
    assert deal.end_reason != Deal.EndReason.FORFEIT
    assert Move.objects.filter(deal=deal, source=Move.Source.TIMEOUT).exists()
    assert (entry(arena, a).abandons, entry(arena, b).abandons) == (1, 1)
    assert not entry(arena, a).withdrawn  # once is not enough


def test_resigning_is_no_abandon():
    arena = running_arena()
    a, b = person(), person()
    for user in (a, b):
        services.join(user, arena)
    (match_id,) = services.pair_waiting(arena)
    end_with_fool(match_id, a)
    deal = Deal.objects.get(match_id=match_id)
    assert not any(abandoned(deal, number) for number in (0, 1))
    assert (entry(arena, a).abandons, entry(arena, b).abandons) == (0, 0)


@pytest.mark.parametrize(
    ("language", "mark"), [("en", "left the page"), ("ru", "ушёл со страницы")]
)
def test_the_standings_mark_a_player_who_left_the_page(language, mark):
    arena = running_arena()
    user = person()
    services.join(user, arena)
    open_page(arena, user, "tab")
    close_page(arena, user, "tab")
    page = Client(HTTP_ACCEPT_LANGUAGE=language).get(reverse("arena:detail", args=[arena.pk]))
    assert mark in page.content.decode()
