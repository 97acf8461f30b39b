"""The arena's services: join, pause, withdraw, pairing, scoring and the standings.

Every change goes through here; views and receivers stay thin.  Pairing runs on the
ticker of every web process: the arena's row is locked with ``skip_locked``, so one
process pairs an arena while the others pass it by, and a player is free only when
no table of this arena still holds them, so nobody is ever seated twice.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import F, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.ratelimit import count_one
from friends.blocks import blocks_among
from games.models import Deal, Match, Seat
from games.services import Refused, create_match, join_match, refuse_bot_account, send_push
from games.services.common import refuse_suspended
from matchmaking.guests import refuse_guest_rated

from .abandons import ABANDONS_TO_WITHDRAW, abandoned
from .bot_fill import bot_count, groups_with_bots
from .entry import ratings_of, refuse_entry
from .models import Arena, ArenaGame, ArenaPlayer, WithdrawnFor
from .scoring import FIRE_AFTER, game_performance, opponent_ratings, outcome_of, score
from .standings_version import bump_standings_version

# No new game starts in the arena's last minute: it could not finish in time.
LAST_PAIRING_SECONDS = 60
# Ties are broken by the performance over the arena, then by who reached the score first.
STANDING_ORDER = (
    "-points",
    F("performance").desc(nulls_last=True),
    F("score_reached_at").asc(nulls_last=True),
    "joined_at",
    "pk",
)
OPEN_TABLE = (Match.Status.WAITING, Match.Status.PLAYING)


def arena_group(arena_id: int) -> str:
    """The channel group of the sockets of ``arena_id``'s page."""
    return f"arena-{arena_id}"


def notify_arena_changed(arena_id: int, users: Iterable[int] | None = None) -> None:
    """Once the change commits, move the standings' version on (no kept render of the
    old standings is served again) and tell the arena's pages.

    ``users`` are the players whose own part of the page changed (their row's figures,
    their controls, their table): their pages fetch the whole part again, while every
    other page is sent the shared standings, rendered once (``arena.socket``).  None
    means the change is everyone's (the arena started or ended, an admin's edit)."""
    named = None if users is None else sorted(set(users))

    def changed() -> None:
        version = bump_standings_version(arena_id)
        send_push(
            arena_group(arena_id), {"type": "arena.changed", "users": named, "version": version}
        )

    transaction.on_commit(changed)


def standings(arena: Arena) -> QuerySet[ArenaPlayer]:
    """The arena's players, best first: points, then who reached them first."""
    return ArenaPlayer.objects.filter(arena=arena).select_related("user").order_by(*STANDING_ORDER)


def entry_of(arena: Arena | int, user: Any) -> ArenaPlayer | None:
    """``user``'s entry in ``arena`` (the arena or its id), or None (not joined)."""
    if not getattr(user, "is_authenticated", False):
        return None
    # One entry a player (unique): no need to sort the arena by the standings to find it.
    return (
        ArenaPlayer.objects.filter(arena=arena, user=user)
        .select_related("user")
        .order_by("pk")
        .first()
    )


# ------------------------------------------------------------------ the player's own

# Each of a player's own changes (join, pause, come back, withdraw) tells every page of
# the arena; past this many in a minute they are refused, and a flood changes nothing.
OWN_CHANGES_PER_MINUTE = getattr(settings, "ARENA_OWN_CHANGES_PER_MINUTE", 12)


def refuse_flood(user: Any) -> None:
    """Count one of ``user``'s own changes; refuse it past the minute's limit."""
    if count_one(f"arena-own-changes:{user.pk}", 60) > OWN_CHANGES_PER_MINUTE:
        raise Refused(
            _("You are joining, pausing or withdrawing too often; wait a minute."),
            status=429,
            code="too_often",
        )


def join(user: Any, arena: Arena, password: str = "", invite_token: str = "") -> ArenaPlayer:
    """Enter ``user`` in ``arena`` before or during it; a withdrawn player may come back.

    Refused, with nothing written, for a suspended user, a guest at a rated arena,
    a finished arena, a second join (the unique constraint refuses one that races),
    and a player who does not meet the arena's entry conditions or, at a private
    arena, gives a wrong ``password`` or a wrong or old ``invite_token`` (``arena.entry``).
    """
    user = refuse_suspended(user)
    refuse_bot_account(user)  # an arena pairs people
    refuse_flood(user)
    already = Refused(_("You have already joined this arena."), code="joined")
    with transaction.atomic():
        locked = Arena.objects.select_related("variant").get(pk=arena.pk)
        if locked.status == Arena.Status.FINISHED or locked.ends_at <= timezone.now():
            raise Refused(_("This arena is over."), code="finished")
        refuse_guest_rated(user, locked.is_rated)
        entry = ArenaPlayer.objects.filter(arena=locked, user=user).first()
        if entry is not None and not entry.withdrawn:
            raise already
        refuse_entry(user, locked, password, invite_token)
        if entry is not None:
            # Back from a withdrawal, whoever made it: a fresh count of abandons.
            entry.withdrawn = False
            entry.withdrawn_for = ""
            entry.abandons = 0
            entry.paused = False
            entry.away_since = None
            entry.waiting_since = None
            entry.save(
                update_fields=[
                    "withdrawn",
                    "withdrawn_for",
                    "abandons",
                    "paused",
                    "away_since",
                    "waiting_since",
                ]
            )
        else:
            try:
                with transaction.atomic():
                    entry = ArenaPlayer.objects.create(arena=locked, user=user)
            except IntegrityError:
                raise already from None
        notify_arena_changed(locked.pk, [user.pk])
    return entry


def _own_entry(user: Any, arena: Arena) -> ArenaPlayer:
    entry = entry_of(arena, user)
    if entry is None or entry.withdrawn:
        raise Refused(_("You are not playing in this arena."), code="not_joined")
    return entry


def set_paused(user: Any, arena: Arena, paused: bool) -> ArenaPlayer:
    """Pause ``user``'s own entry (no new game until they come back) or resume it."""
    refuse_flood(user)
    entry = _own_entry(user, arena)
    if arena.status == Arena.Status.FINISHED:
        raise Refused(_("This arena is over."), code="finished")
    if entry.paused == paused:
        raise Refused(
            _("You are paused already.") if paused else _("You are not paused."), code="repeated"
        )
    # A wait for a bot starts again after the pause.
    # Pressed on the arena's page: the player is on it.
    ArenaPlayer.objects.filter(pk=entry.pk).update(
        paused=paused, waiting_since=None, away_since=None
    )
    entry.paused = paused
    notify_arena_changed(arena.pk, [user.pk])
    return entry


def withdraw(user: Any, arena: Arena) -> ArenaPlayer:
    """Take ``user``'s own entry out of the pairing; their points and games stay."""
    refuse_flood(user)
    entry = _own_entry(user, arena)
    ArenaPlayer.objects.filter(pk=entry.pk).update(withdrawn=True, waiting_since=None)
    entry.withdrawn = True
    notify_arena_changed(arena.pk, [user.pk])
    return entry


# ------------------------------------------------------------------ the ticker


def tick(now: Any = None) -> list[int]:
    """Start and end the arenas whose time came, and pair the running ones; the ids of
    the tables made."""
    now = now or timezone.now()
    starting = Arena.objects.filter(status=Arena.Status.SCHEDULED, starts_at__lte=now)
    for arena_id in list(starting.values_list("pk", flat=True)):
        if Arena.objects.filter(pk=arena_id, status=Arena.Status.SCHEDULED).update(
            status=Arena.Status.RUNNING
        ):
            notify_arena_changed(arena_id)
    made = []
    for arena in Arena.objects.filter(status=Arena.Status.RUNNING):
        if arena.ends_at <= now:
            if Arena.objects.filter(pk=arena.pk, status=Arena.Status.RUNNING).update(
                status=Arena.Status.FINISHED
            ):
                notify_arena_changed(arena.pk)
            continue
        made += pair_waiting(arena, now)
    return made


def busy_user_ids(arena: Arena) -> set[int]:
    """The players of ``arena`` at one of its tables that is not over."""
    return set(
        Seat.objects.filter(
            match__arena_game__arena=arena, match__status__in=OPEN_TABLE, user__isnull=False
        ).values_list("user_id", flat=True)
    )


def pair_waiting(arena: Arena, now: Any = None) -> list[int]:
    """Seat the arena's free, unpaused players at new tables; the ids of the tables.

    Players are taken best first and each is seated with the next free players in
    the standings (nearby rank), skipping whom they just played while someone else
    waits and anyone a block stands between.  Where the arena lets bots fill a wait,
    whoever is left over and has waited long enough is seated with bots
    (``arena.bot_fill``).  The arena's row lock makes one caller pair at a time; a
    caller that finds it locked pairs nothing (the holder does).
    """
    now = now or timezone.now()
    made: list[int] = []
    with transaction.atomic():
        locked = (
            Arena.objects.select_for_update(skip_locked=True, of=("self",))
            .filter(pk=arena.pk, status=Arena.Status.RUNNING)
            .select_related("variant")
            .first()
        )
        if locked is None or now >= locked.ends_at - timedelta(seconds=LAST_PAIRING_SECONDS):
            return made
        busy = busy_user_ids(locked)
        pool = [
            entry
            for entry in standings(locked)
            .filter(paused=False, withdrawn=False, away_since=None, user__is_active=True)
            # A suspended player would be refused a seat on every tick, holding up
            # whoever the pairing put beside them.
            .exclude(user__suspended_forever=True)
            .exclude(user__suspended_until__gt=now)
            if entry.user_id not in busy
        ]
        blocked = blocks_among(entry.user_id for entry in pool)
        people = groups_of(pool, locked.players_per_table, blocked)
        grouped = {entry.pk for group in people for entry in group}
        left_over = [entry for entry in pool if entry.pk not in grouped]
        with_bots = groups_with_bots(locked, left_over, blocked, now)
        tables = [(group, 0) for group in people]
        tables += [(group, bot_count(locked, group)) for group in with_bots]
        seated: list[int] = []
        for group, bots in tables:
            match_id = _seat(locked, group, bots=bots)
            if match_id is not None:
                made.append(match_id)
                seated += [entry.user_id for entry in group]
        _start_waits(locked, left_over, with_bots, now)
        if made:  # a tick that pairs nobody writes nothing
            locked.paired_at = now
            locked.save(update_fields=["paired_at"])
            notify_arena_changed(locked.pk, seated)
    return made


def groups_of(
    pool: list[ArenaPlayer], size: int, blocked: set[frozenset[int]]
) -> list[list[ArenaPlayer]]:
    """Disjoint tables of ``size`` from ``pool`` (in standing order), nearby ranks
    together; someone's last opponent only when nobody else fits."""
    free = list(pool)
    groups = []
    while len(free) >= size:
        first = free.pop(0)
        group = [first]
        for allow_repeat in (False, True):
            for other in free:
                if len(group) == size:
                    break
                if other in group or any(
                    frozenset((other.user_id, member.user_id)) in blocked for member in group
                ):
                    continue
                met = any(
                    other.user_id in member.last_opponents or member.user_id in other.last_opponents
                    for member in group
                )
                if met and not allow_repeat:
                    continue
                group.append(other)
        if len(group) == size:
            groups.append(group)
            free = [entry for entry in free if entry not in group]
    return groups


def _start_waits(
    arena: Arena, left_over: list[ArenaPlayer], with_bots: list[list[ArenaPlayer]], now: Any
) -> None:
    """Note when each player left over without a bot began to wait, where bots may end
    the wait (the first tick that leaves them over)."""
    if not arena.bots_allowed:
        return
    seated = {entry.pk for group in with_bots for entry in group}
    starting = [e.pk for e in left_over if e.pk not in seated and e.waiting_since is None]
    if starting:
        ArenaPlayer.objects.filter(pk__in=starting).update(waiting_since=now)


def _seat(arena: Arena, group: list[ArenaPlayer], *, bots: int = 0) -> int | None:
    """One table for ``group`` and ``bots`` bots of the arena's level (such a table is
    never rated); None (and nothing written) if one of them may not play now, e.g.
    suspended since they joined: the others are paired on the next tick."""
    users = get_user_model().objects.in_bulk([entry.user_id for entry in group])
    try:
        with transaction.atomic():
            match = create_match(
                users[group[0].user_id],
                arena.variant,
                arena.players_per_table,
                bots=[arena.bot_level] * bots,
                turn_seconds=arena.turn_seconds,
                is_rated=arena.is_rated and not bots,
            )
            for entry in group[1:]:
                join_match(match, users[entry.user_id])
            ArenaGame.objects.create(
                arena=arena, match=match, ratings=ratings_of(arena, list(users))
            )
            for entry in group:
                entry.last_opponents = [e.user_id for e in group if e is not entry]
                entry.waiting_since = None
                entry.save(update_fields=["last_opponents", "waiting_since"])
    except Refused:
        return None
    return match.pk


# ------------------------------------------------------------------ scoring


def record_finish(deal: Deal) -> None:
    """Score an arena game whose first deal just ended (a rematch at the same table
    scores nothing).  Called inside the move's transaction, so the points commit or
    roll back with the game's end."""
    if deal.number != 1:
        return
    game = ArenaGame.objects.select_for_update().filter(match_id=deal.match_id).first()
    if game is None or game.scored is not None:
        return
    now = deal.finished_at or timezone.now()
    scored = {}
    seats = list(Seat.objects.filter(match_id=deal.match_id))
    seated = _seated(seats)
    with_bot = any(seat.bot_level for seat in seats)
    for seat in seats:
        if seat.user_id is None:  # a bot: it has no entry and scores nothing
            continue
        entry = (
            ArenaPlayer.objects.select_for_update()
            .filter(arena_id=game.arena_id, user_id=seat.user_id)
            .first()
        )
        if entry is None:
            continue
        went_berserk = seat.number in game.berserk_seats
        outcome = outcome_of(deal, seat.number, seat.team)
        result = score(outcome, entry.streak, berserk=went_berserk)
        entry.points += result.points
        entry.games += 1
        entry.streak = result.streak
        entry.on_fire = result.on_fire
        entry.berserks += int(went_berserk)
        entry.bot_games += int(with_bot)
        entry.performance_total += game_performance(
            outcome, opponent_ratings(game.ratings, seat.user_id, seated)
        )
        entry.performance = round(entry.performance_total / entry.games)
        fields = ["points", "games", "streak", "on_fire", "berserks", "bot_games"]
        fields += ["performance", "performance_total"]
        if result.points:
            entry.score_reached_at = now
            fields.append("score_reached_at")
        if abandoned(deal, seat.number):
            entry.abandons += 1
            fields.append("abandons")
            if entry.abandons >= ABANDONS_TO_WITHDRAW and not entry.withdrawn:
                entry.withdrawn = True
                entry.withdrawn_for = WithdrawnFor.ABANDONED
                fields += ["withdrawn", "withdrawn_for"]
        entry.save(update_fields=fields)
        scored[str(seat.user_id)] = result.points
    game.scored = scored
    game.save(update_fields=["scored"])
    notify_arena_changed(game.arena_id, [seat.user_id for seat in seats if seat.user_id])


def _seated(seats: list[Seat]) -> list[int | str]:
    """Who sat at a table, for the opponents' ratings: a user's id, or a key of the bot's
    seat, which no stored rating has (a bot counts as an unrated player)."""
    return [seat.user_id or f"bot-{seat.number}" for seat in seats]


def recompute(arena: Arena) -> dict[int, tuple[int, int, bool, int, int]]:
    """Each player's (points, games, on fire, performance, games against a bot) as the
    arena's stored games give them, in the order the games ended: what the standings
    must always equal."""
    totals: dict[int, tuple[int, int, int, int, int]] = {}
    deals = (
        Deal.objects.filter(match__arena_game__arena=arena, number=1, status=Deal.Status.FINISHED)
        .select_related("match__arena_game")
        .order_by("finished_at", "pk")
    )
    for deal in deals:
        game = deal.match.arena_game
        seats = list(Seat.objects.filter(match_id=deal.match_id))
        seated = _seated(seats)
        with_bot = any(seat.bot_level for seat in seats)
        for seat in seats:
            if seat.user_id is None:
                continue
            points, games, streak, performed, bot_games = totals.get(seat.user_id, (0,) * 5)
            outcome = outcome_of(deal, seat.number, seat.team)
            result = score(outcome, streak, berserk=seat.number in game.berserk_seats)
            performed += game_performance(
                outcome, opponent_ratings(game.ratings, seat.user_id, seated)
            )
            totals[seat.user_id] = (
                points + result.points,
                games + 1,
                result.streak,
                performed,
                bot_games + int(with_bot),
            )
    return {
        user: (p, g, s >= FIRE_AFTER, round(total / g), b)
        for user, (p, g, s, total, b) in totals.items()
    }


def open_table_of(arena: Arena, user: Any) -> int | None:
    """The id of ``user``'s table in ``arena`` that is not over, if any."""
    return (
        Match.objects.filter(arena_game__arena=arena, status__in=OPEN_TABLE, seats__user=user)
        .values_list("pk", flat=True)
        .first()
    )


def games_playing(arena: Arena) -> QuerySet[Match]:
    return (
        Match.objects.filter(arena_game__arena=arena, status=Match.Status.PLAYING)
        .prefetch_related("seats__user")
        .order_by("-created_at")
    )
