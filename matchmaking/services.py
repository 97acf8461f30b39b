"""Seeks: make, cancel and pair them; every change goes through these functions.

A seek is committed first and paired in a second transaction that locks its whole
pool (every waiting seek with the same wishes, in id order).  Of two seeks made at
once, the pairing that runs last therefore sees both, and a seek locked by one
pairing is seated (or not) before another pairing can read it: no seek is ever
seated twice.  SQLite takes one writer at a time, so there the transaction alone
is the lock.  The per-process ticker calls ``pair_all`` too: windows widen and the
bots' wait runs out while nobody makes a seek.
"""

from __future__ import annotations

import dataclasses
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Count
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.ratelimit import count_one
from durak.engine import Rules
from friends.blocks import blocks_among
from games.models import BotLevel, Match, RuleVariant
from games.services import (
    Refused,
    join_match,
    notify_lobby_changed,
    refuse_bot_account,
    refuse_bot_table_over_cap,
    send_push,
)
from games.services.common import lobby_user_group, refuse_suspended
from games.services.tables import create_match
from games.socket_guard import SocketQuota
from history import glicko2
from history.models import Rating
from history.reliability import reliability
from history.services import rating_class_for
from matchmaking import pairing
from matchmaking.bot_pool import BOT_POOL_KEY, pool_with_kind, refuse_pool
from matchmaking.conf import setting
from matchmaking.guests import refuse_guest_rated
from matchmaking.house_rules import rule_tags
from matchmaking.models import (
    POOL_FIELDS,
    TURN_SECONDS,
    Game,
    HouseRuleBounds,
    Seek,
    TableMinimum,
)


def _tell_seeker(user_id: int) -> None:
    message = {"type": "seek.changed"}
    transaction.on_commit(lambda: send_push(lobby_user_group(user_id), message))


def _throttle(user: Any) -> None:
    """Refuse a user past the seek rate (a fixed window in the shared cache)."""
    limit, seconds = setting("MATCHMAKING_SEEK_RATE")
    if count_one(f"seeks:{user.pk}", seconds) > limit:
        raise Refused(
            _("You are starting and stopping searches too often; wait a minute."),
            code="rate_limited",
        )


SEEK_DECKS = (24, 36, 52)
SEEK_PLAYERS = range(2, 7)


def _seekable_variants() -> list[RuleVariant]:
    """The variants a seek's table may be made from, each with its house rule bounds."""
    return list(
        RuleVariant.objects.filter(is_active=True, teams="", one_winner=False).select_related(
            "house_rule_bounds"
        )
    )


def _decks_of(variant: RuleVariant) -> set[int]:
    """The variant's own deck, and those its house rule bounds let a table deal."""
    try:
        allowed = variant.house_rule_bounds.decks()
    except HouseRuleBounds.DoesNotExist:
        allowed = set()
    return {variant.deck_size, *allowed}


def _table_among(
    variants: list[RuleVariant], mode: str, deck_size: int, players: int
) -> tuple[RuleVariant, Rules] | None:
    fitting = [
        v
        for v in variants
        if v.mode == mode
        and v.min_players <= players <= v.max_players
        and deck_size in _decks_of(v)
    ]
    for variant in sorted(fitting, key=lambda v: (v.deck_size != deck_size, v.ordering, v.pk)):
        try:
            return variant, dataclasses.replace(variant.rules_for(players), deck_size=deck_size)
        except ValueError:
            continue
    return None


def table_for(mode: str, deck_size: int, players: int) -> tuple[RuleVariant, Rules]:
    """The admin's variant a seek's table is made from, and its rules with the seek's deck.

    A variant of the game with exactly this deck is preferred; otherwise the game's
    first variant whose house rule bounds allow the chosen deck, dealt with it.
    """
    variants = _seekable_variants()
    found = _table_among(variants, mode, deck_size, players)
    if found is not None:
        return found
    if not any(deck_size in _decks_of(v) for v in variants if v.mode == mode):
        raise Refused(
            _("This game is not dealt with %(deck)d cards here.") % {"deck": deck_size},
            code="rules",
        )
    raise Refused(
        _("A %(deck)d-card deck is not enough for %(players)d players.")
        % {"deck": deck_size, "players": players},
        code="rules",
    )


def seek_choices() -> dict[str, dict[str, list[int]]]:
    """For each game and table size, the decks a seek may ask for: what the "Play
    now" form leaves enabled.  Probed as ``table_for`` decides, so the page greys
    out exactly what the server refuses (and the server still decides)."""
    variants = _seekable_variants()
    return {
        mode: {
            str(players): [
                deck for deck in SEEK_DECKS if _table_among(variants, mode, deck, players)
            ]
            for players in SEEK_PLAYERS
        }
        for mode in Game.values
    }


def bot_makes_unrated(seek: Any) -> bool:
    """Whether a bot taking a free seat would make this rated seek's game unrated."""
    if not (seek.is_rated and seek.allow_bots):
        return False
    try:
        variant, _rules = table_for(seek.mode, seek.deck_size, seek.players)
    except Refused:
        return False
    return not variant.rates_a_table(with_bots=True)


def rating_of(user: Any, players: int) -> float:
    rating_class = rating_class_for({"players": players}, bot_accounts=user.is_bot)
    rating = Rating.objects.filter(user=user, rating_class=rating_class).first()
    return rating.rating if rating is not None else glicko2.DEFAULT_RATING


def create_seek(
    user: Any,
    *,
    mode: str,
    players: int,
    deck_size: int,
    speed: str,
    is_rated: bool,
    allow_bots: bool,
    min_reliability: int = 0,
    bot_pool: bool = False,
) -> Seek:
    """Start looking for a table; the seek is paired at once if it can be.  A bot
    account seeks through the API in the bot pool (``bot_pool``), paired with bot
    accounts only and no site bot; the people's pool refuses it, and the bot pool a
    person (``bot_pool.refuse_pool``)."""
    user = refuse_suspended(user)
    refuse_pool(user, bot_pool)
    refuse_guest_rated(user, is_rated)
    _throttle(user)
    table_for(mode, deck_size, players)  # refuses a table that cannot be made
    wishes = dict(mode=mode, players=players, deck_size=deck_size, speed=speed, is_rated=is_rated)
    pool = pool_with_kind(wishes, bot_pool)
    allow_bots = allow_bots and not bot_pool
    with transaction.atomic():
        if Seek.objects.filter(user=user, status=Seek.Status.WAITING).exists():
            raise Refused(_("You are already looking for a game."), code="seeking")
        now = timezone.now()
        try:
            with transaction.atomic():
                seek = Seek.objects.create(
                    user=user,
                    mode=mode,
                    players=players,
                    deck_size=deck_size,
                    speed=speed,
                    is_rated=is_rated,
                    allow_bots=allow_bots,
                    rating=rating_of(user, players),
                    reliability=reliability(user),
                    min_reliability=min_reliability,
                    created_at=now,
                    bots_at=_bots_at(pool, now) if allow_bots else None,
                )
        except IntegrityError:  # another request of this user made one meanwhile
            raise Refused(_("You are already looking for a game."), code="seeking") from None
        notify_lobby_changed()
    pair_pool(pool)
    seek.refresh_from_db()
    return seek


def _bots_at(pool: dict[str, Any], now: Any) -> Any:
    """When bots may join a new seek of ``pool``: after a short wait when nobody else is
    looking for that game (a person who comes meanwhile is still seated first), after
    the longer one when others are, for they may be who it pairs with."""
    alone = not Seek.objects.filter(status=Seek.Status.WAITING, **pool).exists()
    seconds = setting("MATCHMAKING_ALONE_BOT_SECONDS" if alone else "MATCHMAKING_BOT_SECONDS")
    return now + timedelta(seconds=seconds)


def bots_due_at(seek: Seek) -> Any:
    """When bots may take the free seats of ``seek``'s table (it allows them)."""
    return seek.bots_at or seek.created_at + timedelta(seconds=setting("MATCHMAKING_BOT_SECONDS"))


def bots_now(user: Any) -> list[int]:
    """The user's waiting seek stops waiting for people: bots take the seats nobody took
    (with any compatible seekers who allow bots), now.  The ids of the tables made."""
    _throttle(user)
    with transaction.atomic():
        seek = (
            Seek.objects.select_for_update().filter(user=user, status=Seek.Status.WAITING).first()
        )
        if seek is None:
            raise Refused(_("You are not looking for a game."), code="not_seeking")
        if not seek.allow_bots:
            raise Refused(_("This search waits for people only."), code="people_only")
        seek.bots_at = timezone.now()
        seek.save(update_fields=["bots_at"])
    return pair_pool(pool_with_kind(seek.pool(), user.is_bot))


def cancel_seek(user: Any) -> Seek:
    """Stop looking; refused when the user has no waiting seek (it may just have been seated)."""
    with transaction.atomic():
        seek = (
            Seek.objects.select_for_update().filter(user=user, status=Seek.Status.WAITING).first()
        )
        if seek is None:
            raise Refused(_("You are not looking for a game."), code="not_seeking")
        _end(seek, Seek.Status.CANCELLED, timezone.now())
        notify_lobby_changed()
    return seek


def pair_all() -> list[int]:
    """Pair every pool that has waiting seeks; the ids of the tables made."""
    pools = (
        Seek.objects.filter(status=Seek.Status.WAITING)
        .values(*POOL_FIELDS, BOT_POOL_KEY)
        .order_by()
        .distinct()
    )
    made = []
    for pool in list(pools):
        made += pair_pool(pool)
    return made


def pair_pool(pool: dict[str, Any]) -> list[int]:
    """Seat what can be seated of one pool (wishes, and the kind of account:
    ``bot_pool.pool_with_kind``; people's when it is not named) now; the tables made."""
    pool = pool_with_kind(pool, bool(pool.get(BOT_POOL_KEY)))
    made = []
    with transaction.atomic():
        now = timezone.now()
        # Blocking locks in id order: pairings of one pool run one after another.
        seeks = list(
            Seek.objects.select_for_update()
            .filter(status=Seek.Status.WAITING, **pool)
            .order_by("pk")
        )
        if not seeks:
            return made
        users = get_user_model().objects.in_bulk([s.user_id for s in seeks])
        seeks = _drop_unable(seeks, users, now)
        blocked = blocks_among(users)
        base, per_second = setting("MATCHMAKING_WINDOW")

        def fits(a: Seek, b: Seek) -> bool:
            if a.reliability < b.min_reliability or b.reliability < a.min_reliability:
                return False
            if frozenset((a.user_id, b.user_id)) in blocked:
                return False
            gap = abs(a.rating - b.rating)
            return gap <= pairing.window(a, now, base, per_second) and gap <= pairing.window(
                b, now, base, per_second
            )

        size = pool["players"]
        for group in pairing.groups_of(seeks, fits, size=size):
            made += _seat_or_cancel(group, users, pool, now)
        willing = [s for s in seeks if s.status == Seek.Status.WAITING and s.allow_bots]
        for group in pairing.groups_of(willing, fits, size=size, partial=True):
            if min(bots_due_at(seek) for seek in group) <= now:
                made += _seat_or_cancel(group, users, pool, now)
    return made


def _seat_or_cancel(
    group: list[Seek], users: dict[int, Any], pool: dict[str, Any], now: Any
) -> list[int]:
    """Seat ``group``; if its table cannot be made (an admin closed the variant
    since), end its seeks instead of trying again on every tick."""
    try:
        with transaction.atomic():
            return [_seat(group, users, pool, now)]
    except Refused:
        for seek in group:
            _end(seek, Seek.Status.CANCELLED, now)
        return []


def _end(seek: Seek, status: str, now: Any, match: Match | None = None) -> None:
    seek.status = status
    seek.match = match
    seek.ended_at = now
    seek.save(update_fields=["status", "match", "ended_at"])
    _tell_seeker(seek.user_id)


def _drop_unable(seeks: list[Seek], users: dict[int, Any], now: Any) -> list[Seek]:
    """The seeks whose users may still play; the others are cancelled.  (A seek made
    just as its account turned into a bot account is in the bot pool: the pool is
    selected by the account's kind.)"""
    unable = [s for s in seeks if not users[s.user_id].is_active or users[s.user_id].is_suspended]
    for seek in unable:
        _end(seek, Seek.Status.CANCELLED, now)
    return [s for s in seeks if s not in unable]


def table_as_wished(creator: Any, wishes: dict[str, Any], players: int, **options: Any) -> Match:
    """A table of ``players`` dealt as seek wishes ask: the game, the deck, the speed and
    whether it is rated (``options`` as ``create_match`` takes them)."""
    refuse_guest_rated(creator, wishes["is_rated"])
    variant, rules = table_for(wishes["mode"], wishes["deck_size"], players)
    return create_match(
        creator,
        variant,
        players,
        rules=rules,
        turn_seconds=TURN_SECONDS[wishes["speed"]],
        is_rated=wishes["is_rated"],
        **options,
    )


def practice_table(user: Any, wishes: dict[str, Any], level: str) -> Match:
    """A table dealt as ``wishes`` ask, at once, with bots of ``level`` in the other seats
    (rated only where the variant rates games with bots)."""
    if level not in BotLevel.values:
        raise Refused(_("Unknown bot level."), code="bots")
    refuse_bot_account(user)  # "Play now" with bots is the site's page
    players = wishes["players"]
    with transaction.atomic():
        refuse_bot_table_over_cap(user)
        return table_as_wished(user, wishes, players, bots=[level] * (players - 1))


def _seat(group: list[Seek], users: dict[int, Any], pool: dict[str, Any], now: Any) -> int:
    """One table for ``group`` (bots fill the seats nobody took); it starts at once."""
    players = pool["players"]
    bots = [setting("MATCHMAKING_BOT_LEVEL")] * (players - len(group))
    match = table_as_wished(users[group[0].user_id], pool, players, bots=bots)
    for seek in group[1:]:
        join_match(match, users[seek.user_id])
    for seek in group:
        _end(seek, Seek.Status.SEATED, now, match)
    notify_lobby_changed()
    return match.pk


def create_table(
    creator: Any,
    variant: RuleVariant,
    players: int,
    *,
    min_reliability: int = 0,
    **options: Any,
) -> Match:
    """``games.services.create_match``, and the least reliability asked of joiners;
    refused past the creator's cap of tables with bots when it seats any.  A guest's
    table is unrated: the lobby's form has no choice of it."""
    if creator.is_guest:
        options["is_rated"] = False
    with transaction.atomic():
        if any(options.get("bots", ())):
            refuse_bot_table_over_cap(creator)
        match = create_match(creator, variant, players, **options)
        if min_reliability:
            TableMinimum.objects.create(match=match, minimum=min_reliability)
    return match


# ------------------------------------------------------------------ reading


def waiting_seek(user: Any) -> Seek | None:
    return Seek.objects.filter(user=user, status=Seek.Status.WAITING).first()


def ready_table(user: Any) -> Match | None:
    """The table a seek of ``user`` was seated at lately, while it is still on."""
    recent = timezone.now() - timedelta(minutes=10)
    seek = (
        Seek.objects.filter(user=user, status=Seek.Status.SEATED, ended_at__gte=recent)
        .select_related("match")
        .order_by("-ended_at")
        .first()
    )
    if seek is None or seek.match is None:
        return None
    live = (Match.Status.WAITING, Match.Status.PLAYING)
    return seek.match if seek.match.status in live else None


def last_choice(user: Any) -> dict[str, Any]:
    """The wishes of the user's last seek, to fill the form with."""
    seek = Seek.objects.filter(user=user).order_by("-created_at").first()
    if seek is None:
        return {}
    return seek.wishes()


def describe_open_tables(tables: list[Match]) -> None:
    """Give each open table (seats and their users prefetched) ``people``, its players'
    names with their reliability and whether each is a bot account, and ``tags``, its
    rules in words with any least reliability.

    The reliability is the one kept on each user's row (``User.reliability``), as the
    table page shows it: no query per push for it.
    """
    minimums = dict(
        TableMinimum.objects.filter(match__in=tables).values_list("match_id", "minimum")
    )
    for table in tables:
        taken = [s for s in table.seats.all() if s.user_id or s.bot_level]
        table.people = [
            (
                s.display_name,
                s.user.reliability if s.user_id else None,
                bool(s.user_id and s.user.is_bot),
            )
            for s in taken
        ]
        table.tags = rule_tags(table.engine_rules, table.turn_seconds)
        if table.pk in minimums:
            table.tags.append(_("reliability %(score)d+") % {"score": minimums[table.pk]})


def lobby_counts() -> dict[str, Any]:
    """Players online, who is looking for which game, tables playing.

    Online means with a page's socket open (lobby or table), or looking for a game.
    ``seeks`` are (game, players, deck, how many seek it), for each such game someone
    is looking for: a player sees which "Play now" finds company at once.
    """
    waiting = Seek.objects.filter(status=Seek.Status.WAITING, user__is_bot=False)
    connected = SocketQuota.online_among()
    seekers = set(waiting.values_list("user_id", flat=True))
    games = sorted(
        waiting.values_list("mode", "players", "deck_size").annotate(n=Count("pk")).order_by(),
        key=lambda row: (Game.values.index(row[0]), row[1], row[2]),
    )
    return {
        "online": len(connected | seekers),
        "seeks": [(Game(mode).label, players, deck, n) for mode, players, deck, n in games],
        "playing": Match.objects.filter(status=Match.Status.PLAYING).count(),
    }
