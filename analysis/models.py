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
        _("status"), max_length=8, choices=Status.choices, default=Status.QUEUED, db_index=True
    )
    progress = models.PositiveSmallIntegerField(
        _("progress"), default=0, help_text=_("Percent done, 0-100.")
    )
    result = models.JSONField(_("result"), null=True, blank=True)
    error = models.TextField(_("error"), blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("requested by"),
    )
    # The address the request came from: one client's many accounts share a quota.
    requested_from = models.GenericIPAddressField(_("requested from"), null=True, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    # Moved on by every progress step: a running analysis silent for long has lost its worker.
    heartbeat_at = models.DateTimeField(_("heartbeat at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

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
    seat = models.PositiveSmallIntegerField(_("seat"))
    # The table's version when asked: a hint for another position is no hint.
    version = models.PositiveIntegerField(_("version"))
    # The asking socket's channel; blank for a request over HTTP.
    channel_name = models.CharField(_("channel name"), max_length=200, blank=True)
    created_at = models.DateTimeField(_("created at"), db_index=True)
    claimed_until = models.DateTimeField(_("claimed until"), null=True, blank=True)
    answered_at = models.DateTimeField(_("answered at"), null=True, blank=True)
    # The suggested action; blank in an answer means the table moved on meanwhile.
    action = models.CharField(_("action"), max_length=64, blank=True)

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
    step = models.PositiveIntegerField(_("step"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("user")
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("game played on from a step")
        verbose_name_plural = _("games played on from a step")

    def __str__(self) -> str:
        return f"match {self.match_id} from deal {self.deal_id}, step {self.step}"
