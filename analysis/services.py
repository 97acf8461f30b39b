"""Hints for live tables and background post-game analysis of finished deals."""

from __future__ import annotations

import logging
import random
import threading
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, close_old_connections, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from games.bots import Budget, get_bot
from games.bots.analysis import AnalysisBudget, analyse_record
from games.engine import Action, Game
from games.models import Deal, Match, Seat

from .models import DealAnalysis

log = logging.getLogger(__name__)

HINT_BUDGET = Budget(seconds=0.8)
ANALYSIS_BUDGET = AnalysisBudget(seconds=0.4, samples=30)
STALE_AFTER = timedelta(minutes=15)


class Refused(Exception):
    """A request the rules of the site do not allow; ``status`` is the HTTP code."""

    def __init__(self, message: str, status: int = 403) -> None:
        super().__init__(message)
        self.status = status


# ---------------------------------------------------------------------- hints


def hint_for(match: Match, user: Any, rng: random.Random | None = None) -> Action:
    """The hard bot's suggestion for ``user``'s seat; raises Refused when not allowed."""
    if match.is_rated:
        raise Refused(_("Hints are only available in unrated games."))
    seat = Seat.objects.filter(match=match, user_id=user.pk).first()
    if seat is None:
        raise Refused(_("Only a player at this table may ask for a hint."))
    if match.status != Match.Status.PLAYING or not match.state:
        raise Refused(_("There is no game in progress."), status=409)
    game = Game.from_snapshot(match.state)
    if game.is_over or seat.number not in game.to_act():
        raise Refused(_("It is not your turn."), status=409)
    # The bot sees only what this seat may know, never the real deal.
    knowledge = game.knowledge(seat.number)
    del game
    action = get_bot("hard").choose_action(knowledge, rng or random.Random(), HINT_BUDGET)
    if action is None:
        # The search would wait for the defender here; suggest the seat's safest move.
        action = _fallback(knowledge)
    return action


def _fallback(knowledge: Any) -> Action:
    from games.bots import fast
    from games.bots.base import rebuild

    g = rebuild(knowledge)
    acts = fast.legal(g, knowledge.seat)
    return fast.medium_move(g, knowledge.seat, acts, random.Random(0))


# ------------------------------------------------------------------- analysis


def analysis_seats(deal: Deal) -> list[int]:
    """Analyse the people at the table; a table of bots only gets every seat analysed."""
    seats = list(Seat.objects.filter(match_id=deal.match_id).order_by("number"))
    humans = [s.number for s in seats if s.user_id]
    return humans or [s.number for s in seats]


def start_analysis(deal: Deal, user: Any, *, background: bool = True) -> tuple[DealAnalysis, bool]:
    """Claim the deal's analysis and run it; ``(row, started)``. One run per deal ever
    (a failed one may be claimed again)."""
    if deal.status != Deal.Status.FINISHED:
        raise Refused(_("Only a finished game can be analysed."), status=409)
    try:
        with transaction.atomic():
            row = DealAnalysis.objects.create(deal=deal, requested_by=user)
    except IntegrityError:
        row = DealAnalysis.objects.get(deal=deal)
        # A failed run may be retried, and so may a run whose process died (a server
        # restart leaves it "running" with no thread behind it).
        stale = timezone.now() - STALE_AFTER
        retry = Q(status=DealAnalysis.Status.FAILED) | Q(
            status__in=[DealAnalysis.Status.QUEUED, DealAnalysis.Status.RUNNING],
            created_at__lt=stale,
        )
        reclaimed = DealAnalysis.objects.filter(retry, pk=row.pk).update(
            status=DealAnalysis.Status.QUEUED,
            progress=0,
            error="",
            requested_by=user,
            created_at=timezone.now(),
        )
        if not reclaimed:
            return row, False
        row.refresh_from_db()
    if background:
        threading.Thread(target=_run_in_thread, args=(row.pk,), daemon=True).start()
    else:
        run_analysis(row.pk)
        row.refresh_from_db()
    return row, True


def _run_in_thread(analysis_id: int) -> None:
    try:
        run_analysis(analysis_id)
    finally:
        close_old_connections()


def run_analysis(analysis_id: int, budget: AnalysisBudget | None = None) -> None:
    """Run one claimed analysis to the end, saving progress as it goes."""
    from history.replay import deal_record

    claimed = DealAnalysis.objects.filter(pk=analysis_id, status=DealAnalysis.Status.QUEUED).update(
        status=DealAnalysis.Status.RUNNING, started_at=timezone.now()
    )
    if not claimed:
        return
    row = DealAnalysis.objects.select_related("deal").get(pk=analysis_id)
    last = [-1]

    def progress(done: int, total: int) -> None:
        pct = 100 if total == 0 else min(99, done * 100 // total)
        if pct != last[0]:
            last[0] = pct
            DealAnalysis.objects.filter(pk=analysis_id).update(progress=pct)

    try:
        record = deal_record(row.deal)
        result = analyse_record(
            record, analysis_seats(row.deal), budget or ANALYSIS_BUDGET, progress, seed=row.pk
        )
    except Exception as error:  # A bad record must end as "failed", not hang at "running".
        log.exception("analysis %s failed", analysis_id)
        DealAnalysis.objects.filter(pk=analysis_id).update(
            status=DealAnalysis.Status.FAILED, error=str(error)[:500], finished_at=timezone.now()
        )
        return
    DealAnalysis.objects.filter(pk=analysis_id).update(
        status=DealAnalysis.Status.DONE, progress=100, result=result, finished_at=timezone.now()
    )
