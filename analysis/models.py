"""One stored post-game analysis per finished deal."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


class DealAnalysis(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        DONE = "done", pgettext_lazy("analysis status", "Done")
        FAILED = "failed", _("Failed")

    # One row per deal: creating it is the claim that starts the single run.
    deal = models.OneToOneField(
        "games.Deal", on_delete=models.CASCADE, related_name="analysis", verbose_name=_("deal")
    )
    status = models.CharField(
        max_length=8,
        choices=Status.choices,
        default=Status.QUEUED,
        db_index=True,
        verbose_name=_("status"),
    )
    progress = models.PositiveSmallIntegerField(
        default=0, help_text=_("Percent done, 0-100."), verbose_name=_("progress")
    )
    result = models.JSONField(null=True, blank=True, verbose_name=_("result"))
    error = models.TextField(blank=True, verbose_name=_("error"))
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("requested by"),
    )
    # The address the request came from: one client's many accounts share a quota.
    requested_from = models.GenericIPAddressField(
        null=True, blank=True, verbose_name=_("requested from")
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    started_at = models.DateTimeField(null=True, blank=True, verbose_name=_("started at"))
    # Moved on by every progress step: a running analysis silent for long has lost its worker.
    heartbeat_at = models.DateTimeField(null=True, blank=True, verbose_name=_("heartbeat at"))
    finished_at = models.DateTimeField(null=True, blank=True, verbose_name=_("finished at"))

    class Meta:
        verbose_name = _("deal analysis")
        verbose_name_plural = _("deal analyses")

    def __str__(self) -> str:
        return f"analysis of deal {self.deal_id} ({self.status})"

    @property
    def is_active(self) -> bool:
        return self.status in (self.Status.QUEUED, self.Status.RUNNING)


class HintRequest(models.Model):
    """A player's request for a hint, queued for a bot worker, and its answer.

    The web process checks and counts the request and stores it; a bot worker
    claims it (``claimed_until`` is its lease: a worker that dies mid-search loses
    nothing), searches, and stores the suggested action.  The asking socket is told
    through the channel layer and also looks for the answer itself, which the
    embedded in-memory layer (one process) needs.
    """

    match = models.ForeignKey(
        "games.Match", on_delete=models.CASCADE, related_name="+", verbose_name=_("match")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("user")
    )
    seat = models.PositiveSmallIntegerField(verbose_name=_("seat"))
    # The table's version when asked: a hint for another position is no hint.
    version = models.PositiveIntegerField(verbose_name=_("version"))
    # The asking socket's channel; blank for a request over HTTP.
    channel_name = models.CharField(max_length=200, blank=True, verbose_name=_("channel name"))
    created_at = models.DateTimeField(db_index=True, verbose_name=_("created at"))
    claimed_until = models.DateTimeField(null=True, blank=True, verbose_name=_("claimed until"))
    answered_at = models.DateTimeField(null=True, blank=True, verbose_name=_("answered at"))
    # The suggested action; blank in an answer means the table moved on meanwhile.
    action = models.CharField(max_length=64, blank=True, verbose_name=_("action"))

    class Meta:
        verbose_name = _("hint request")
        verbose_name_plural = _("hint requests")
        indexes = [models.Index(fields=["answered_at", "claimed_until"])]

    def __str__(self) -> str:
        return f"hint {self.pk} for seat {self.seat} of match {self.match_id}"


class PlayOn(models.Model):
    """A table that goes on from a step of a finished deal ("play on from here")."""

    match = models.OneToOneField(
        "games.Match",
        on_delete=models.CASCADE,
        related_name="played_on_from",
        verbose_name=_("match"),
    )
    # The deal it goes on from; its first ``step`` moves are the new deal's first moves.
    deal = models.ForeignKey(
        "games.Deal", on_delete=models.CASCADE, related_name="+", verbose_name=_("deal")
    )
    step = models.PositiveIntegerField(verbose_name=_("step"))
    seat = models.PositiveSmallIntegerField(verbose_name=_("seat"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("user")
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("game played on from a step")
        verbose_name_plural = _("games played on from a step")

    def __str__(self) -> str:
        return f"match {self.match_id} from deal {self.deal_id}, step {self.step}"
