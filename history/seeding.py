"""Build finished games without the live service: random legal play through the engine,
stored exactly as a table stores it (Match, Seat, Deal, Move rows, and ``deal_finished``
sent inside the transaction that finishes the deal).

Used by the tests, the ``seed_history`` command and the benchmark.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from durak.engine import Action, Game, Rules
from durak.engine import Match as EngineMatch
from games.models import Deal, Match, Move, RuleVariant, Seat
from games.services.play import record_deal
from games.signals import deal_finished

BOT_LEVELS = {"random", "easy", "medium", "hard"}


def get_user(username: str, **extra: Any) -> Any:
    User = get_user_model()
    user = User.objects.filter(username__iexact=username).first()
    if user is None:
        user = User.objects.create_user(username=username, password=None, **extra)
    return user


def create_match(
    players: Sequence[Any],
    variant: str | RuleVariant = "classic",
    *,
    is_private: bool = False,
    is_rated: bool = True,
    rules_overrides: dict[str, Any] | None = None,
    creator: Any = None,
) -> Match:
    """A match with one seat per entry of ``players``: a User, a username or a bot level.

    ``creator`` (a User) is needed when every seat is a bot."""
    if isinstance(variant, str):
        variant = RuleVariant.objects.get(slug=variant)
    rules = variant.rules_for(len(players)).to_dict()
    if rules_overrides:
        rules = Rules.from_dict({**rules, **rules_overrides}).to_dict()
    users = []
    for entry in players:
        if isinstance(entry, str) and entry in BOT_LEVELS:
            users.append(entry)
        elif isinstance(entry, str):
            users.append(get_user(entry))
        else:
            users.append(entry)
    creator = creator or next(u for u in users if not isinstance(u, str))
    match = Match.objects.create(
        variant=variant,
        players=len(players),
        rules=rules,
        status=Match.Status.PLAYING,
        creator=creator,
        is_private=is_private,
        is_rated=is_rated,
        started_at=timezone.now(),
    )
    Seat.objects.bulk_create(
        [
            Seat(
                match=match,
                number=number,
                team=(number % 2) if rules.get("teams") else None,
                user=None if isinstance(u, str) else u,
                bot_level=u if isinstance(u, str) else "",
            )
            for number, u in enumerate(users)
        ]
    )
    return match


Chooser = Callable[[Game, random.Random], Action]


def random_choice(game: Game, rng: random.Random) -> Action:
    actions = game.legal_actions()
    # Resigning is legal at any time; random play that resigns ends every game at once.
    playable = [a for a in actions if a.kind != "resign"] or actions
    return rng.choice(playable)


def play_deal(
    match: Match,
    rng: random.Random,
    *,
    previous: Game | None = None,
    started_at: datetime | None = None,
    seconds_per_move: float = 2.0,
    send_signal: bool = True,
    choose: Chooser = random_choice,
) -> tuple[Deal, Game]:
    """Play one deal of ``match`` to the end and store it; ``choose`` picks each move
    (by default a random legal one)."""
    rules = Rules.from_dict(match.rules)
    engine_match = EngineMatch(rules, rng)
    if previous is not None:
        engine_match.games.append(previous)
    game = engine_match.new_game()
    started_at = started_at or timezone.now()
    deal = record_deal(match, game)
    # Like the live service: Match.move_count moves so far, seq counts from 1.
    seq = Move.objects.filter(match=match).count()
    moves = []
    bots = dict(Seat.objects.filter(match=match).values_list("number", "bot_level"))
    while not game.is_over:
        action = choose(game, rng)
        game.apply(action)
        seq += 1
        moves.append(
            Move(
                match=match,
                deal=deal,
                seq=seq,
                seat=action.seat,
                action=str(action),
                source=Move.Source.BOT if bots.get(action.seat) else Move.Source.PLAYER,
            )
        )
    finished_at = started_at + timedelta(seconds=seconds_per_move * len(moves))
    with transaction.atomic():
        Move.objects.bulk_create(moves, batch_size=500)
        finish_deal(
            deal, game, started_at=started_at, finished_at=finished_at, send_signal=send_signal
        )
        if _has_field(Match, "move_count"):
            Match.objects.filter(pk=match.pk).update(move_count=seq)
    return deal, game


def finish_deal(
    deal: Deal,
    game: Game,
    *,
    started_at: datetime | None = None,
    finished_at: datetime | None = None,
    send_signal: bool = True,
) -> None:
    """Store the engine's result on the deal and announce it, as the live service does."""
    result = game.result
    assert result is not None
    deal.status = Deal.Status.FINISHED
    deal.result = result
    deal.fool_seat = result["fool"]
    deal.fool_team = result["fool_team"]
    deal.winner_seat = result["winner"]
    deal.is_draw = result["draw"]
    deal.epaulettes = result["epaulettes"]
    deal.end_reason = (
        Deal.EndReason.RESIGNED if result.get("resigned") is not None else Deal.EndReason.NORMAL
    )
    deal.move_count = len(game.history)
    deal.finished_at = finished_at or timezone.now()
    deal.save()
    if started_at is not None:
        Deal.objects.filter(pk=deal.pk).update(started_at=started_at)
        deal.started_at = started_at
    if send_signal:
        deal_finished.send(sender=Deal, deal=deal)


def play_match(
    players: Sequence[Any],
    variant: str = "classic",
    *,
    deals: int = 1,
    seed: int = 0,
    is_private: bool = False,
    is_rated: bool = True,
    started_at: datetime | None = None,
    rules_overrides: dict[str, Any] | None = None,
    creator: Any = None,
    choose: Chooser = random_choice,
) -> Match:
    """A finished match of ``deals`` deals from ``seed``, each move picked by ``choose``
    (by default at random)."""
    rng = random.Random(seed)
    match = create_match(
        players,
        variant,
        is_private=is_private,
        is_rated=is_rated,
        rules_overrides=rules_overrides,
        creator=creator,
    )
    when = started_at or timezone.now()
    previous = None
    for _ in range(deals):
        deal, previous = play_deal(match, rng, previous=previous, started_at=when, choose=choose)
        when = deal.finished_at + timedelta(seconds=30)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED, finished_at=when)
    match.refresh_from_db()
    return match


def _has_field(model: Any, name: str) -> bool:
    return any(f.name == name for f in model._meta.get_fields())
