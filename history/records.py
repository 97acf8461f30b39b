"""Export finished deals as JSON lines, and import them back.

One line per deal::

    {"format": "durak-export/1",
     "match": {"id", "variant", "players", "is_private", "is_rated", "created_at",
               "started_at", "finished_at"},
     "deal": {"number", "started_at", "finished_at", "end_reason", "sources"},
     "seats": [{"seat": 0, "username": "anna", "bot": ""}, ...],
     "record": {...durak-record/1...}}

Import checks each line by replaying its record through the engine and refuses a
bad line with its number and reason; every line is its own transaction, so a bad
one changes nothing and the rest still load.  Lines with the same ``match.id``
become deals of one new match.  Players are matched by username (any case); a
missing one is created inactive, with no usable password, so the games keep
their names and nobody can log in as them until an admin activates the account
(inactive players are left off the leaderboard).

Imported deals count in the statistics and, when their match is rated, in the
ratings, applied in file order (the export writes the oldest first).  Importing
the same file twice stores the games twice.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import IO, Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from durak.engine import Game
from games.models import BotLevel, Deal, Match, Move, RuleVariant, Seat
from history import replay, services

EXPORT_FORMAT = "durak-export/1"


def finished_deals(
    variant: str | None = None, username: str | None = None, since: datetime | None = None
) -> QuerySet[Deal]:
    deals = Deal.objects.filter(status=Deal.Status.FINISHED).select_related("match__variant")
    if variant:
        deals = deals.filter(match__variant__slug=variant)
    if username:
        deals = deals.filter(match__seats__user__username__iexact=username)
    if since:
        deals = deals.filter(finished_at__gte=since)
    return deals.order_by("finished_at", "id").distinct()


def _time(value: datetime | None) -> str | None:
    return value.isoformat() if value else None


def export_lines(deals: Iterable[Deal]) -> Iterator[dict[str, Any]]:
    deals = list(deals)
    match_ids = {d.match_id for d in deals}
    seats: dict[int, list[dict[str, Any]]] = {}
    for seat in (
        Seat.objects.filter(match_id__in=match_ids).select_related("user").order_by("number")
    ):
        seats.setdefault(seat.match_id, []).append(
            {
                "seat": seat.number,
                "username": seat.user.username if seat.user_id else None,
                "bot": seat.bot_level,
            }
        )
    for deal in deals:
        moves = list(deal.moves.order_by("seq").values_list("action", "source"))
        match = deal.match
        yield {
            "format": EXPORT_FORMAT,
            "match": {
                "id": match.pk,
                "variant": match.variant.slug,
                "players": match.players,
                "is_private": match.is_private,
                "is_rated": match.is_rated,
                "created_at": _time(match.created_at),
                "started_at": _time(match.started_at),
                "finished_at": _time(match.finished_at),
            },
            "deal": {
                "number": deal.number,
                "started_at": _time(deal.started_at),
                "finished_at": _time(deal.finished_at),
                "end_reason": deal.end_reason,
                "sources": [source for _, source in moves],
            },
            "seats": seats.get(match.pk, []),
            "record": replay.deal_record(deal, [action for action, _ in moves]),
        }


def write_export(deals: Iterable[Deal], out: IO[str]) -> int:
    count = 0
    for line in export_lines(deals):
        out.write(json.dumps(line, separators=(",", ":"), sort_keys=True) + "\n")
        count += 1
    return count


# ------------------------------------------------------------------ import


class BadLine(ValueError):
    pass


@dataclass
class ImportReport:
    imported: int = 0
    refused: list[tuple[int, str]] = field(default_factory=list)
    created_users: list[str] = field(default_factory=list)


def _when(value: Any, what: str) -> datetime | None:
    if value in (None, ""):
        return None
    parsed = parse_datetime(value) if isinstance(value, str) else None
    if parsed is None:
        raise BadLine(f"{what} is not a date and time: {value!r}")
    if timezone.is_naive(parsed):
        parsed = timezone.make_aware(parsed, UTC)
    return parsed


def _check(data: Any) -> tuple[dict, dict, list[dict], dict, Game]:
    if not isinstance(data, dict):
        raise BadLine("a line must be a JSON object")
    if data.get("format") != EXPORT_FORMAT:
        raise BadLine(f"format must be {EXPORT_FORMAT!r}, not {data.get('format')!r}")
    for key, kind in (("match", dict), ("deal", dict), ("seats", list), ("record", dict)):
        if not isinstance(data.get(key), kind):
            raise BadLine(f"{key!r} is missing or not a {kind.__name__}")
    match, deal, seats, record = data["match"], data["deal"], data["seats"], data["record"]
    try:
        game = Game.from_record(record)
    except (ValueError, TypeError) as error:
        raise BadLine(f"the record does not replay: {error}") from None
    if not game.is_over:
        raise BadLine("the record's game is not over")
    players = game.rules.players
    numbers = [s.get("seat") if isinstance(s, dict) else None for s in seats]
    if sorted(n for n in numbers if isinstance(n, int)) != list(range(players)):
        raise BadLine(f"seats must be numbered 0-{players - 1}, one each")
    for seat in seats:
        bot = seat.get("bot") or ""
        if bot and bot not in BotLevel.values:
            raise BadLine(f"seat {seat['seat']}: unknown bot level {bot!r}")
        username = seat.get("username")
        if not bot and (not isinstance(username, str) or not username.strip()):
            raise BadLine(f"seat {seat['seat']} has neither a username nor a bot level")
    if not any(not s.get("bot") for s in seats):
        raise BadLine("a game needs at least one player who is not a bot")
    number = deal.get("number", 1)
    if not isinstance(number, int) or isinstance(number, bool) or number < 1:
        raise BadLine(f"deal number must be a positive integer, not {number!r}")
    sources = deal.get("sources")
    if sources is not None and (
        not isinstance(sources, list)
        or len(sources) != len(record["actions"])
        or not set(sources) <= set(Move.Source.values)
    ):
        raise BadLine("deal sources must list one move source per action")
    return match, deal, seats, record, game


def _user(username: str, report: ImportReport) -> Any:
    User = get_user_model()
    user = User.objects.filter(username__iexact=username).first()
    if user is None:
        user = User(username=username, is_active=False)
        user.set_unusable_password()
        user.full_clean(exclude=["password"])
        user.save()
        report.created_users.append(username)
    return user


def import_line(data: Any, matches: dict[Any, Match], report: ImportReport) -> Deal:
    """Store one export line; raises BadLine (and writes nothing) if it is bad."""
    match_data, deal_data, seat_data, record, game = _check(data)
    variant = RuleVariant.objects.filter(slug=match_data.get("variant")).first()
    if variant is None:
        raise BadLine(f"no variant {match_data.get('variant')!r} on this site")
    key = match_data.get("id")
    match = matches.get(key) if key is not None else None
    number = deal_data.get("number", 1)
    seats = sorted(seat_data, key=lambda s: s["seat"])
    users = {s["seat"]: _user(s["username"].strip(), report) for s in seats if not s.get("bot")}
    if match is not None:
        existing = dict(match.seats.values_list("number", "user_id"))
        if existing != {s["seat"]: getattr(users.get(s["seat"]), "pk", None) for s in seats}:
            raise BadLine(f"the seats differ from the earlier lines of match {key!r}")
        if match.rules != record["rules"]:
            raise BadLine(f"the rules differ from the earlier lines of match {key!r}")
        if match.deals.filter(number=number).exists():
            raise BadLine(f"match {key!r} already has a deal {number}")
    else:
        match = Match.objects.create(
            variant=variant,
            players=game.rules.players,
            rules=record["rules"],
            status=Match.Status.FINISHED,
            creator=users[min(users)],
            is_private=bool(match_data.get("is_private", False)),
            is_rated=bool(match_data.get("is_rated", True)),
            started_at=_when(match_data.get("started_at"), "match started_at"),
            finished_at=_when(match_data.get("finished_at"), "match finished_at"),
        )
        created_at = _when(match_data.get("created_at"), "match created_at")
        if created_at:
            Match.objects.filter(pk=match.pk).update(created_at=created_at)
        Seat.objects.bulk_create(
            [
                Seat(
                    match=match,
                    number=s["seat"],
                    team=services.team_of(record["rules"], s["seat"]),
                    user=users.get(s["seat"]),
                    bot_level=s.get("bot") or "",
                )
                for s in seats
            ]
        )
    result = game.result
    deal = Deal.objects.create(
        match=match,
        number=number,
        rules=record["rules"],
        deck=game.deck,
        dealer=game.dealer,
        first_attacker=game.first_attacker,
        first_attacker_by=game.first_attacker_by,
        status=Deal.Status.FINISHED,
        result=result,
        fool_seat=result["fool"],
        fool_team=result["fool_team"],
        winner_seat=result["winner"],
        is_draw=result["draw"],
        epaulettes=result["epaulettes"],
        end_reason=deal_data.get("end_reason") or Deal.EndReason.NORMAL,
        move_count=len(record["actions"]),
        finished_at=_when(deal_data.get("finished_at"), "deal finished_at") or timezone.now(),
    )
    if deal.end_reason not in Deal.EndReason.values:
        raise BadLine(f"unknown end reason {deal.end_reason!r}")
    started_at = _when(deal_data.get("started_at"), "deal started_at")
    if started_at:
        Deal.objects.filter(pk=deal.pk).update(started_at=started_at)
        deal.started_at = started_at
    seq = Move.objects.filter(match=match).count()
    sources = deal_data.get("sources") or [Move.Source.PLAYER] * len(record["actions"])
    Move.objects.bulk_create(
        [
            Move(
                match=match,
                deal=deal,
                seq=seq + 1 + i,
                seat=int(text.split()[0]),
                action=text,
                source=source,
            )
            for i, (text, source) in enumerate(zip(record["actions"], sources, strict=True))
        ],
        batch_size=500,
    )
    if any(f.name == "move_count" for f in Match._meta.get_fields()):
        Match.objects.filter(pk=match.pk).update(move_count=seq + len(record["actions"]))
    # The stored rows must give back exactly this record, or the import is not faithful.
    stored = replay.deal_record(deal)
    if stored != Game.from_record(record).to_record():
        raise BadLine(f"deal {number} cannot be stored faithfully")
    services.record_finished_deal(deal)
    if key is not None:
        matches[key] = match
    return deal


def import_file(lines: Iterable[str]) -> ImportReport:
    report = ImportReport()
    matches: dict[Any, Match] = {}
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            report.refused.append((number, f"not JSON: {error.msg} at column {error.colno}"))
            continue
        created = len(report.created_users)
        try:
            with transaction.atomic():
                import_line(data, matches, report)
        except BadLine as error:
            del report.created_users[created:]
            report.refused.append((number, str(error)))
            continue
        report.imported += 1
    return report
