"""The arena's services: joining, pausing and withdrawing, pairing, and the points."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta

import pytest
from django.utils import timezone

from arena import services
from arena.models import Arena, ArenaGame, ArenaPlayer
from arena.scoring import Outcome, score
from friends.models import Block
from games.models import Seat
from games.services import Refused

from .conftest import end_with_fool, entry, person, running_arena, table_of

pytestmark = pytest.mark.django_db


def test_joining_twice_is_refused_and_changes_nothing():
    arena = running_arena()
    user = person()
    services.join(user, arena)
    before = list(ArenaPlayer.objects.values())
    with pytest.raises(Refused) as refused:
        services.join(user, arena)
    assert refused.value.code == "joined"
    assert "already joined" in refused.value.message
    assert list(ArenaPlayer.objects.values()) == before


def test_joining_a_finished_arena_is_refused():
    arena = running_arena(
        starts_at=timezone.now() - timedelta(hours=2), status=Arena.Status.FINISHED
    )
    with pytest.raises(Refused) as refused:
        services.join(person(), arena)
    assert refused.value.code == "finished"
    assert not ArenaPlayer.objects.exists()


def test_a_suspended_user_may_not_join():
    arena = running_arena()
    user = person()
    user.suspended_forever = True
    user.save()
    with pytest.raises(Refused):
        services.join(user, arena)
    assert not ArenaPlayer.objects.exists()


def test_joining_in_russian_says_so_in_russian():
    from django.utils import translation

    arena = running_arena()
    user = person()
    services.join(user, arena)
    with translation.override("ru"), pytest.raises(Refused) as refused:
        services.join(user, arena)
    assert "уже" in refused.value.message


def test_pairing_seats_nearby_ranks_together_and_nobody_twice():
    arena = running_arena()
    users = [person() for _ in range(6)]
    for points, user in zip([10, 9, 8, 7, 6, 5], users, strict=True):
        services.join(user, arena)
        ArenaPlayer.objects.filter(arena=arena, user=user).update(points=points)
    made = services.pair_waiting(arena)
    assert len(made) == 3
    tables = [table_of(match_id) for match_id in made]
    ids = [u.pk for u in users]
    assert tables == [{ids[0], ids[1]}, {ids[2], ids[3]}, {ids[4], ids[5]}]
    # A second round while they play seats nobody again.
    assert services.pair_waiting(arena) == []
    seated = Counter(Seat.objects.values_list("user_id", flat=True))
    assert set(seated.values()) == {1}


def test_paused_and_withdrawn_players_wait_out_the_pairing():
    arena = running_arena()
    a, b, c, d = (person() for _ in range(4))
    for user in (a, b, c, d):
        services.join(user, arena)
    services.set_paused(c, arena, True)
    services.withdraw(d, arena)
    made = services.pair_waiting(arena)
    assert [table_of(m) for m in made] == [{a.pk, b.pk}]


def test_blocked_users_are_never_paired():
    arena = running_arena()
    a, b, c = (person() for _ in range(3))
    for user in (a, b, c):
        services.join(user, arena)
    Block.objects.create(blocker=a, blocked=b)
    made = services.pair_waiting(arena)
    assert [table_of(m) for m in made] == [{a.pk, c.pk}]
    end_with_fool(made[0], c)
    # a and c go back to the pool with b: b may meet either, never a.
    for match_id in services.pair_waiting(arena):
        assert table_of(match_id) != {a.pk, b.pk}


def test_the_same_two_do_not_meet_twice_in_a_row_when_others_wait():
    arena = running_arena()
    a, b, c, d = (person() for _ in range(4))
    for user in (a, b, c, d):
        services.join(user, arena)
    first = services.pair_waiting(arena)
    for match_id in first:
        fool = next(u for u in (a, b, c, d) if u.pk in table_of(match_id))
        end_with_fool(match_id, fool)
    before = {frozenset(table_of(m)) for m in first}
    after = {frozenset(table_of(m)) for m in services.pair_waiting(arena)}
    assert len(after) == 2
    assert not before & after


def test_no_new_game_in_the_last_minute():
    arena = running_arena(starts_at=timezone.now() - timedelta(minutes=29, seconds=30))
    for _ in range(2):
        services.join(person(), arena)
    assert services.pair_waiting(arena) == []


def test_fire_doubles_after_two_good_games_until_the_fool():
    streak = 0
    points = []
    for outcome in "WWWWLWD":
        result = score(
            {"W": Outcome.NOT_FOOL, "L": Outcome.FOOL, "D": Outcome.DRAW}[outcome], streak
        )
        points.append(result.points)
        streak = result.streak
    assert points == [2, 2, 4, 4, 0, 2, 1]


def test_games_score_with_fire_and_standings_equal_the_recomputation():
    arena = running_arena()
    hero, rival = person(), person()
    for user in (hero, rival):
        services.join(user, arena)
    fools = [rival, rival, rival, rival, hero, rival]
    for fool in fools:
        (match_id,) = services.pair_waiting(arena)
        end_with_fool(match_id, fool)
    mine = entry(arena, hero)
    assert (mine.points, mine.games, mine.on_fire) == (2 + 2 + 4 + 4 + 0 + 2, 6, False)
    theirs = entry(arena, rival)
    assert (theirs.points, theirs.games) == (2, 6)
    recomputed = services.recompute(arena)
    for row in ArenaPlayer.objects.filter(arena=arena):
        assert recomputed[row.user_id] == (
            row.points,
            row.games,
            row.on_fire,
            row.performance,
            row.bot_games,
        )
    assert [row.user_id for row in services.standings(arena)] == [hero.pk, rival.pk]
    assert ArenaGame.objects.filter(arena=arena, scored__isnull=False).count() == 6


def test_standings_equal_the_recomputation_with_many_players():
    arena = running_arena()
    users = [person() for _ in range(6)]
    for user in users:
        services.join(user, arena)
    for round_number in range(4):
        for index, match_id in enumerate(services.pair_waiting(arena)):
            seated = [u for u in users if u.pk in table_of(match_id)]
            end_with_fool(match_id, seated[(round_number + index) % 2])
    recomputed = services.recompute(arena)
    rows = list(ArenaPlayer.objects.filter(arena=arena))
    assert sum(row.games for row in rows) == 4 * 6
    for row in rows:
        assert recomputed[row.user_id] == (
            row.points,
            row.games,
            row.on_fire,
            row.performance,
            row.bot_games,
        )


def test_a_game_of_another_arena_scores_only_there():
    first, second = running_arena(), running_arena(name="Other")
    a, b = person(), person()
    for user in (a, b):
        services.join(user, first)
        services.join(user, second)
    (match_id,) = services.pair_waiting(first)
    # Busy in the first arena's game counts only there: the second pairs them too.
    end_with_fool(match_id, b)
    assert entry(first, a).points == 2
    assert entry(second, a).points == 0


def test_the_ticker_starts_and_ends_arenas():
    soon = running_arena(status=Arena.Status.SCHEDULED, starts_at=timezone.now())
    over = running_arena(starts_at=timezone.now() - timedelta(hours=1), minutes=30)
    services.tick()
    soon.refresh_from_db()
    over.refresh_from_db()
    assert soon.status == Arena.Status.RUNNING
    assert over.status == Arena.Status.FINISHED


def test_one_can_only_pause_or_withdraw_oneself():
    arena = running_arena()
    a = person()
    with pytest.raises(Refused):
        services.withdraw(a, arena)
    with pytest.raises(Refused):
        services.set_paused(a, arena, True)
    assert not ArenaPlayer.objects.exists()


def test_a_player_suspended_after_joining_holds_up_nobody():
    arena = running_arena()
    top, b, c = person(), person(), person()
    for user in (top, b, c):
        services.join(user, arena)
    ArenaPlayer.objects.filter(arena=arena, user=top).update(points=10)
    top.suspended_forever = True
    top.save()
    made = services.pair_waiting(arena)
    assert [table_of(m) for m in made] == [{b.pk, c.pk}]


def test_the_games_ticker_pairs_running_arenas_only():
    from games import signals

    running = running_arena()
    later = running_arena(
        status=Arena.Status.SCHEDULED, starts_at=timezone.now() + timedelta(hours=1)
    )
    for arena in (running, later):
        for _ in range(2):
            services.join(person(), arena)
    signals.ticked.send(sender=None)
    assert ArenaGame.objects.filter(arena=running).count() == 1
    assert not ArenaGame.objects.filter(arena=later).exists()


def test_a_withdrawn_player_may_come_back_with_their_points():
    arena = running_arena()
    user = person()
    services.join(user, arena)
    ArenaPlayer.objects.filter(arena=arena, user=user).update(points=6)
    services.withdraw(user, arena)
    services.join(user, arena)
    back = entry(arena, user)
    assert (back.withdrawn, back.points) == (False, 6)
