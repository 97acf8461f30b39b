"""Background post-game analysis of finished deals (hints: ``analysis.hints``)."""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from durak.bots import AnalysisBudget, analyse_record
from games.models import Deal, Seat
from games.services import Refused

from .models import DealAnalysis
from .review import is_current
from .signals import analysis_done
from .tasks import analyse_deal

log = logging.getLogger(__name__)

# A queued analysis no worker took, or a running one that stopped reporting progress,
# may be claimed again after these.
QUEUED_STALE_AFTER = timedelta(minutes=15)
RUNNING_STALE_AFTER = timedelta(minutes=2)
HEARTBEAT = timedelta(seconds=10)
ACTIVE_STATUSES = (DealAnalysis.Status.QUEUED, DealAnalysis.Status.RUNNING)
# How many finished runs the expected wait is averaged over.
RECENT_RUNS = 20


# ------------------------------------------------------------------- analysis


def analysis_seats(deal: Deal) -> list[int]:
    """Every seat is analysed, bots included, as lichess judges both sides: a player
    sees where the bot went wrong too, and the bot's accuracy beside their own."""
    return list(
        Seat.objects.filter(match_id=deal.match_id)
        .order_by("number")
        .values_list("number", flat=True)
    )


def start_analysis(deal: Deal, user: Any, ip: str | None = None) -> tuple[DealAnalysis, bool]:
    """Claim the deal's analysis and queue it for the worker; ``(row, started)``.

    One run per deal: a deal whose analysis is queued, running or done is not queued
    again (a failed run, or one whose worker died, may be claimed again).  The claim,
    the quota checks (the user's, and those of the request's address ``ip``) and the
    queued task commit together.
    """
    if deal.status != Deal.Status.FINISHED:
        raise Refused(_("Only a finished game can be analysed."), status=409)
    with transaction.atomic():
        # Holding the user's row serialises one user's requests, so the quota holds.
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        row = DealAnalysis.objects.select_for_update().filter(deal=deal).first()
        if row is not None and not _may_claim_again(row):
            return row, False
        check_quota(user, ip)
        if row is None:
            try:
                with transaction.atomic():
                    row = DealAnalysis.objects.create(
                        deal=deal, requested_by=user, requested_from=ip or None
                    )
            except IntegrityError:  # Another request claimed it a moment ago.
                return DealAnalysis.objects.get(deal=deal), False
        else:
            row.status = DealAnalysis.Status.QUEUED
            row.progress = 0
            row.error = ""
            row.result = None
            row.requested_by = user
            row.requested_from = ip or None
            row.created_at = timezone.now()
            row.started_at = row.finished_at = None
            row.save()
        analyse_deal.enqueue(row.pk)
    row.refresh_from_db()
    return row, True


def _may_claim_again(row: DealAnalysis) -> bool:
    if row.status == DealAnalysis.Status.FAILED:
        return True
    if row.status == DealAnalysis.Status.DONE:
        # An analysis of an older format is not shown (see ``review.is_current``).
        return not is_current(row.result)
    # A run whose worker died stays "queued" or "running" with nobody behind it.
    now = timezone.now()
    if row.status == DealAnalysis.Status.QUEUED:
        return row.created_at < now - QUEUED_STALE_AFTER
    since = row.heartbeat_at or row.started_at or row.created_at
    return since < now - RUNNING_STALE_AFTER


def check_quota(user: Any, ip: str | None = None) -> None:
    """Refuse a user who has too many analyses waiting, or asked for too many today,
    or whose address ``ip`` has too many waiting (whatever the accounts behind it)."""
    mine = DealAnalysis.objects.filter(requested_by=user)
    active = settings.ANALYSIS_QUOTA_ACTIVE
    per_ip = settings.ANALYSIS_QUOTA_ACTIVE_PER_IP
    if ip and (
        DealAnalysis.objects.filter(requested_from=ip, status__in=ACTIVE_STATUSES).count() >= per_ip
    ):
        raise Refused(
            ngettext(
                "%(count)d analysis from your network is already waiting; wait until it is done.",
                "%(count)d analyses from your network are already waiting; wait until one is done.",
                per_ip,
            )
            % {"count": per_ip},
            status=429,
        )
    if mine.filter(status__in=ACTIVE_STATUSES).count() >= active:
        raise Refused(
            ngettext(
                "You already have %(count)d analysis waiting; wait until it is done.",
                "You already have %(count)d analyses waiting; wait until they are done.",
                active,
            )
            % {"count": active},
            status=429,
        )
    per_day = settings.ANALYSIS_QUOTA_PER_DAY
    if mine.filter(created_at__gte=timezone.now() - timedelta(days=1)).count() >= per_day:
        raise Refused(
            ngettext(
                "You may ask for %(count)d analysis a day; try again tomorrow.",
                "You may ask for %(count)d analyses a day; try again tomorrow.",
                per_day,
            )
            % {"count": per_day},
            status=429,
        )


def queue_position(row: DealAnalysis) -> int:
    """How many queued analyses are ahead of ``row``."""
    return DealAnalysis.objects.filter(
        status=DealAnalysis.Status.QUEUED, created_at__lt=row.created_at
    ).count()


def expected_wait_seconds(ahead: int) -> int | None:
    """About how long an analysis with ``ahead`` others before it waits to be done,
    from how long the last finished ones took (None before any has finished)."""
    recent = DealAnalysis.objects.filter(
        status=DealAnalysis.Status.DONE, started_at__isnull=False, finished_at__isnull=False
    ).order_by("-finished_at")[:RECENT_RUNS]
    took = [
        (finished - started).total_seconds()
        for started, finished in recent.values_list("started_at", "finished_at")
    ]
    if not took:
        return None
    return round((ahead + 1) * sum(took) / len(took))


def analysis_budget() -> AnalysisBudget:
    return AnalysisBudget(seconds=settings.ANALYSIS_SECONDS, samples=settings.ANALYSIS_SAMPLES)


def run_analysis(analysis_id: int, budget: AnalysisBudget | None = None) -> None:
    """Run one claimed analysis to the end, saving progress as it goes (on the worker)."""
    from history.replay import deal_record

    claimed = DealAnalysis.objects.filter(pk=analysis_id, status=DealAnalysis.Status.QUEUED).update(
        status=DealAnalysis.Status.RUNNING, started_at=timezone.now()
    )
    if not claimed:
        return
    row = DealAnalysis.objects.select_related("deal").get(pk=analysis_id)
    last = [-1]

    beat = [timezone.now()]

    def progress(done: int, total: int) -> None:
        pct = 100 if total == 0 else min(99, done * 100 // total)
        now = timezone.now()
        if pct != last[0] or now - beat[0] > HEARTBEAT:
            last[0], beat[0] = pct, now
            DealAnalysis.objects.filter(pk=analysis_id).update(progress=pct, heartbeat_at=now)

    try:
        record = deal_record(row.deal)
        result = analyse_record(
            record, analysis_seats(row.deal), budget or analysis_budget(), progress, seed=row.pk
        )
    except Exception as error:  # A bad record must end as "failed", not hang at "running".
        log.exception("analysis %s failed", analysis_id)
        DealAnalysis.objects.filter(pk=analysis_id).update(
            status=DealAnalysis.Status.FAILED, error=str(error)[:500], finished_at=timezone.now()
        )
        return
    except BaseException:
        # The worker is stopping and gives the task back to the queue: the analysis
        # goes back to waiting too, for the task's next run to claim it.
        DealAnalysis.objects.filter(pk=analysis_id, status=DealAnalysis.Status.RUNNING).update(
            status=DealAnalysis.Status.QUEUED, progress=0, started_at=None, heartbeat_at=None
        )
        raise
    DealAnalysis.objects.filter(pk=analysis_id).update(
        status=DealAnalysis.Status.DONE, progress=100, result=result, finished_at=timezone.now()
    )
    row.refresh_from_db()
    analysis_done.send(sender=DealAnalysis, analysis=row)
