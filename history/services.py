"""Results, ratings, statistics and who may see what.

``record_finished_deal`` runs inside the transaction that finishes a deal (the
``deal_finished`` receiver), so a deal is never finished without its result rows
and rating updates, nor the other way round.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.db import transaction
from django.db.models import Avg, Count, Q, QuerySet, Sum
from django.utils import timezone

from games.models import BotLevel, Deal, Match, RuleVariant, Seat
from games.variant_words import worded_name
from history import glicko2
from history.models import PlayerGame, Rating, RatingChange, RatingClass
from history.reliability import store_reliability
from history.replay_access import admitted_by_a_rule

# Bots are not rated; as opponents they count at a fixed strength per level.
BOT_STRENGTH = {
    BotLevel.RANDOM: glicko2.Player(1000.0, 60.0),
    BotLevel.EASY: glicko2.Player(1250.0, 60.0),
    BotLevel.MEDIUM: glicko2.Player(1500.0, 60.0),
    BotLevel.HARD: glicko2.Player(1750.0, 60.0),
}


def rating_class_for(rules: dict[str, Any], *, bot_accounts: bool = False) -> str:
    if bot_accounts:  # a game of bot accounts only moves their own rating
        return RatingClass.BOTS
    if rules.get("teams"):
        return RatingClass.TEAMS
    return RatingClass.TWO_PLAYER if rules.get("players") == 2 else RatingClass.MULTI


def team_of(rules: dict[str, Any], seat: int) -> int | None:
    # Partners sit in alternate seats (RULES.md "teams").
    return seat % 2 if rules.get("teams") else None


def seat_result(rules: dict[str, Any], result: dict[str, Any], seat: int) -> str:
    """fool / safe / draw / winner / lost for one seat of a finished deal."""
    if result.get("draw"):
        return PlayerGame.Result.DRAW
    if rules.get("one_winner"):
        if result.get("winner") is None:
            return PlayerGame.Result.DRAW
        return PlayerGame.Result.WINNER if result["winner"] == seat else PlayerGame.Result.LOST
    if rules.get("teams") and result.get("fool_team") is not None:
        if team_of(rules, seat) == result["fool_team"]:
            return PlayerGame.Result.FOOL
        return PlayerGame.Result.SAFE
    return PlayerGame.Result.FOOL if result.get("fool") == seat else PlayerGame.Result.SAFE


def scores(rules: dict[str, Any], result: dict[str, Any]) -> dict[tuple[int, int], float]:
    """Pairwise scores {(seat, opponent): score} for individual play.

    The fool loses to each safe player (safe players do not play each other);
    one winner beats each other player; a draw is a draw between every pair.
    """
    n = rules["players"]
    pairs: dict[tuple[int, int], float] = {}
    if result.get("draw") or (rules.get("one_winner") and result.get("winner") is None):
        for a in range(n):
            for b in range(n):
                if a != b:
                    pairs[a, b] = 0.5
        return pairs
    top = result.get("winner") if rules.get("one_winner") else result.get("fool")
    if top is None:
        return pairs
    won = 1.0 if rules.get("one_winner") else 0.0
    for other in range(n):
        if other != top:
            pairs[top, other] = won
            pairs[other, top] = 1.0 - won
    return pairs


def is_rated(match: Match, seats: list[Seat], deal: Deal) -> bool:
    if not match.is_rated or match.status == Match.Status.ABORTED:
        return False
    if deal.status != Deal.Status.FINISHED or deal.end_reason == Deal.EndReason.ABORTED:
        return False
    humans = [s for s in seats if s.user_id]
    if len(humans) < 1 or len(seats) < 2:
        return False
    if len({s.user.is_bot for s in humans}) > 1:  # people's and bots' ratings never mix
        return False
    if not match.variant.rates_a_table(with_bots=any(s.bot_level for s in seats)):
        return False
    return len(humans) >= 2 or match.variant.rated_with_bots


@transaction.atomic
def record_finished_deal(deal: Deal) -> list[PlayerGame]:
    """Result rows and rating updates for a finished deal (idempotent)."""
    if deal.status != Deal.Status.FINISHED or deal.result is None:
        return []
    if PlayerGame.objects.filter(deal=deal).exists():
        return []
    match = Match.objects.select_related("variant").get(pk=deal.match_id)
    seats = list(Seat.objects.filter(match=match).select_related("user").order_by("number"))
    rules = deal.rules
    result = deal.result
    accounts = [s.user for s in seats if s.user_id]
    rating_class = rating_class_for(rules, bot_accounts=all(a.is_bot for a in accounts))
    rated = is_rated(match, seats, deal)
    finished_at = deal.finished_at or timezone.now()
    duration = 0
    if deal.started_at and deal.finished_at:
        duration = max(0, int((deal.finished_at - deal.started_at).total_seconds()))
    out_order = list(result.get("out_order") or [])
    deltas = _rate(deal, seats, rules, result, rating_class, finished_at) if rated else {}
    rows = []
    for seat in seats:
        if not seat.user_id:
            continue
        outcome = seat_result(rules, result, seat.number)
        place = out_order.index(seat.number) + 1 if seat.number in out_order else None
        if outcome == PlayerGame.Result.FOOL:
            place = None
        rows.append(
            PlayerGame(
                user_id=seat.user_id,
                deal=deal,
                match=match,
                variant_id=match.variant_id,
                players=rules["players"],
                seat=seat.number,
                result=outcome,
                place=place,
                move_count=deal.move_count,
                duration_seconds=duration,
                finished_at=finished_at,
                is_private=match.is_private,
                rating_class=rating_class,
                is_rated=seat.user_id in deltas,
                rating_delta=deltas.get(seat.user_id),
            )
        )
    made = PlayerGame.objects.bulk_create(rows)
    store_reliability(row.user_id for row in rows)
    return made


def _rate(
    deal: Deal,
    seats: list[Seat],
    rules: dict[str, Any],
    result: dict[str, Any],
    rating_class: str,
    when: datetime,
) -> dict[int, float]:
    user_ids = sorted({s.user_id for s in seats if s.user_id})
    for user_id in user_ids:
        Rating.objects.get_or_create(user_id=user_id, rating_class=rating_class)
    # Locked in user order, so two deals finishing at once cannot deadlock.
    ratings = {
        r.user_id: r
        for r in Rating.objects.select_for_update()
        .filter(user_id__in=user_ids, rating_class=rating_class)
        .order_by("user_id")
    }

    def strength(seat: Seat) -> glicko2.Player:
        if seat.user_id:
            return ratings[seat.user_id].player
        return BOT_STRENGTH.get(seat.bot_level, BOT_STRENGTH[BotLevel.MEDIUM])

    by_number = {s.number: s for s in seats}
    outcomes: dict[int, list[glicko2.Outcome]] = {}
    if rules.get("teams"):
        teams: dict[int, list[Seat]] = {}
        for seat in seats:
            teams.setdefault(team_of(rules, seat.number), []).append(seat)
        fool_team = result.get("fool_team")
        for team, members in teams.items():
            others = [s for t, ms in teams.items() if t != team for s in ms]
            if not others:
                continue
            opponent = glicko2.composite(strength(s) for s in others)
            if result.get("draw") or fool_team is None:
                score = 0.5
            else:
                score = 0.0 if team == fool_team else 1.0
            for seat in members:
                if seat.user_id:
                    outcomes[seat.user_id] = [glicko2.Outcome(opponent, score)]
    else:
        for (a, b), score in scores(rules, result).items():
            seat, other = by_number.get(a), by_number.get(b)
            if seat is None or other is None or not seat.user_id:
                continue
            outcomes.setdefault(seat.user_id, []).append(glicko2.Outcome(strength(other), score))
    # Every player is rated against the ratings from before this deal.
    updated = {
        user_id: glicko2.rate(ratings[user_id].player, games, min_rd=glicko2.MIN_RD)
        for user_id, games in outcomes.items()
    }
    changes = []
    deltas = {}
    for user_id, new in updated.items():
        rating = ratings[user_id]
        changes.append(
            RatingChange(
                user_id=user_id,
                rating_class=rating_class,
                deal=deal,
                rating_before=rating.rating,
                rd_before=rating.rd,
                volatility_before=rating.volatility,
                rating=new.rating,
                rd=new.rd,
                volatility=new.volatility,
                created_at=when,
            )
        )
        deltas[user_id] = new.rating - rating.rating
        rating.rating, rating.rd, rating.volatility = new.rating, new.rd, new.volatility
        rating.games += 1
        rating.save(update_fields=["rating", "rd", "volatility", "games", "updated_at"])
    RatingChange.objects.bulk_create(changes)
    return deltas


@transaction.atomic
def unrate_match(match: Match) -> int:
    """Take back the rating changes of an aborted match; returns how many.

    A change can only be taken back while it is the player's latest in its class;
    a later game was rated from it, so older ones stay (and say so in the log).
    """
    undone = 0
    changes = RatingChange.objects.filter(deal__match=match).order_by("-created_at", "-id")
    for change in changes:
        latest = (
            RatingChange.objects.filter(user_id=change.user_id, rating_class=change.rating_class)
            .order_by("-created_at", "-id")
            .first()
        )
        if latest is None or latest.pk != change.pk:
            continue
        rating = Rating.objects.select_for_update().get(
            user_id=change.user_id, rating_class=change.rating_class
        )
        rating.rating = change.rating_before
        rating.rd = change.rd_before
        rating.volatility = change.volatility_before
        rating.games = max(0, rating.games - 1)
        rating.save(update_fields=["rating", "rd", "volatility", "games", "updated_at"])
        PlayerGame.objects.filter(deal_id=change.deal_id, user_id=change.user_id).update(
            is_rated=False, rating_delta=None
        )
        change.delete()
        undone += 1
    return undone


# ------------------------------------------------------------------ access


def player_ids(match: Match) -> set[int]:
    return set(
        Seat.objects.filter(match=match, user__isnull=False).values_list("user_id", flat=True)
    )


def signed_points(delta: float) -> str:
    """A rating change as a signed whole number, "+12" or "−7" (a minus sign, not a hyphen)."""
    points = round(delta)
    return f"+{points}" if points >= 0 else f"\u2212{-points}"


@dataclass(frozen=True)
class DealRating:
    """One player's rating after a finished deal, and what the deal changed it by."""

    name: str
    rating: float
    delta: float
    is_viewer: bool

    @property
    def points(self) -> int:
        """The rating as shown: a whole number, in the panel and the header alike."""
        return round(self.rating)

    @property
    def gained(self) -> bool:
        return round(self.delta) >= 0

    @property
    def delta_text(self) -> str:
        return signed_points(self.delta)


def deal_ratings(match: Match, deal_number: int, viewer_id: int | None) -> list[DealRating]:
    """The ratings a finished deal changed, in seat order (empty for an unrated deal)."""
    changes = {
        c.user_id: c
        for c in RatingChange.objects.filter(deal__match=match, deal__number=deal_number)
    }
    if not changes:
        return []
    seats = Seat.objects.filter(match=match, user_id__in=changes).select_related("user")
    return [
        DealRating(
            name=seat.display_name,
            rating=changes[seat.user_id].rating,
            delta=changes[seat.user_id].delta,
            is_viewer=seat.user_id == viewer_id,
        )
        for seat in seats.order_by("number")
    ]


def can_replay(user: Any, match: Match, seats: list[Seat] | None = None) -> bool:
    """Public matches are open to everyone; private ones to their players (and staff)."""
    if not match.is_private:
        return True
    if user is None or isinstance(user, AnonymousUser) or not user.is_authenticated:
        return False
    if user.is_staff:
        return True
    if seats is not None:
        seated = any(s.user_id == user.pk for s in seats)
    else:
        seated = user.pk in player_ids(match)
    if seated:
        return True
    return admitted_by_a_rule(match, user)


def visible_games(profile_user: Any, viewer: Any) -> QuerySet[PlayerGame]:
    """The profile user's games that ``viewer`` may see: private ones only if they played."""
    games = PlayerGame.objects.filter(user=profile_user)
    viewer_id = getattr(viewer, "pk", None) if getattr(viewer, "is_authenticated", False) else None
    if viewer_id == profile_user.pk or getattr(viewer, "is_staff", False):
        return games
    shared = PlayerGame.objects.filter(user_id=viewer_id, is_private=True).values("deal_id")
    return games.filter(Q(is_private=False) | Q(deal_id__in=shared))


@dataclass
class GameFilters:
    variant: str = ""
    result: str = ""
    opponent: str = ""


def filter_games(games: QuerySet[PlayerGame], filters: GameFilters) -> QuerySet[PlayerGame]:
    if filters.variant:
        games = games.filter(variant__slug=filters.variant)
    if filters.result:
        games = games.filter(result=filters.result)
    if filters.opponent:
        with_opponent = PlayerGame.objects.filter(user__username__iexact=filters.opponent).values(
            "deal_id"
        )
        games = games.filter(deal_id__in=with_opponent)
    return games


def attach_seats(games: list[PlayerGame]) -> list[PlayerGame]:
    """Give each row ``.seats`` (every seat of its match, in order) with one query."""
    match_ids = {g.match_id for g in games}
    by_match: dict[int, list[Seat]] = {}
    for seat in (
        Seat.objects.filter(match_id__in=match_ids)
        .select_related("user")
        .order_by("match_id", "number")
    ):
        by_match.setdefault(seat.match_id, []).append(seat)
    for game in games:
        game.seats = by_match.get(game.match_id, [])
        game.opponents = [s for s in game.seats if s.number != game.seat]
    return games


# -------------------------------------------------------------- statistics


def profile_stats(user: Any) -> dict[str, Any]:
    """Totals, per variant and per player count: three aggregate queries on one index."""
    fool = Count("id", filter=Q(result=PlayerGame.Result.FOOL))
    safe = Count("id", filter=Q(result__in=[PlayerGame.Result.SAFE, PlayerGame.Result.WINNER]))
    draw = Count("id", filter=Q(result=PlayerGame.Result.DRAW))
    games = PlayerGame.objects.filter(user=user)
    totals = games.aggregate(
        games=Count("id"),
        fools=fool,
        safe=safe,
        draws=draw,
        moves=Sum("move_count"),
        avg_moves=Avg("move_count"),
    )
    per_variant = list(
        games.values("variant_id", "variant__name", "variant__name_ru")
        .annotate(games=Count("id"), fools=fool, draws=draw)
        .order_by("variant__name")
    )
    for row in per_variant:
        row["variant_label"] = worded_name(row["variant__name"], row["variant__name_ru"])
    per_players = list(
        games.values("players")
        .annotate(games=Count("id"), fools=fool, draws=draw)
        .order_by("players")
    )
    for row in [totals, *per_variant, *per_players]:
        row["fool_rate"] = (row["fools"] / row["games"] * 100) if row["games"] else None
    return {"totals": totals, "per_variant": per_variant, "per_players": per_players}


def rating_series(user: Any, limit: int = 400) -> dict[str, list[float]]:
    """Rating after each game per class, oldest first: at most ``limit`` points each.

    One query for the newest ``3 * limit`` changes of any class: the chart shows
    recent form, and its cost must not grow with a player's history.
    """
    rows = list(
        RatingChange.objects.filter(user=user)
        .order_by("-created_at", "-id")
        .values_list("rating_class", "rating_before", "rating")[: limit * len(RatingClass.values)]
    )
    series: dict[str, list[float]] = {}
    for rating_class, before, rating in reversed(rows):
        # Each line starts where its first game shown started (1500 for a new player).
        series.setdefault(rating_class, [before]).append(rating)
    return {k: v[-limit:] for k, v in series.items()}


def leaderboard(rating_class: str, limit: int = 100) -> QuerySet[Rating]:
    return (
        Rating.objects.filter(
            rating_class=rating_class,
            games__gte=min_games(),
            user__is_active=True,
            user__is_guest=False,
            user__is_bot=rating_class == RatingClass.BOTS,  # each board of its own kind
        )
        .select_related("user")
        .order_by("-rating", "rd", "user__username")[:limit]
    )


def min_games() -> int:
    return getattr(settings, "LEADERBOARD_MIN_GAMES", 10)


REPLAY_FIELDS = (
    "id",
    "number",
    "match_id",
    "rules",
    "deck",
    "dealer",
    "first_attacker",
    "status",
    "result",
    "move_count",
    "started_at",
    "finished_at",
    "match__id",
    "match__is_private",
    "match__players",
    "match__variant_id",
    "match__variant__id",
    "match__variant__name",
    "match__variant__name_ru",
    "match__variant__slug",
)


def replay_deal(match_id: int, number: int | None) -> Deal | None:
    """The finished deal ``number`` of the match (or its last finished deal), with its
    match and variant, in one query."""
    deals = (
        Deal.objects.filter(match_id=match_id, status=Deal.Status.FINISHED)
        .select_related("match__variant")
        # Only what a replay reads: the match's live state can be large, and
        # compiling a three-table select of every column costs more than running it.
        .only(*REPLAY_FIELDS)
    )
    if number is not None:
        deals = deals.filter(number=number)
    return deals.order_by("-number").first()


def variants() -> QuerySet[RuleVariant]:
    return RuleVariant.objects.all()
