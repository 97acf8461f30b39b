"""Player reports and the moderators' audit log."""

from __future__ import annotations

from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import PermissionDenied
from django.db import models
from django.utils.translation import gettext_lazy as _


class HandledReport(models.Model):
    """What every kind of report shares: the reporter's reason, and the moderators'
    handling of it (``Report`` at a table, ``arena.ArenaChatReport`` in an arena's
    chat), so both are worked alike in the admin."""

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        ACTIONED = "actioned", _("Actioned")
        DISMISSED = "dismissed", _("Dismissed")

    reason = models.TextField(_("reason"), max_length=500, blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.OPEN, db_index=True
    )
    handled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("handled by"),
    )
    handled_at = models.DateTimeField(_("handled at"), null=True, blank=True)
    note = models.TextField(_("moderator's note"), blank=True)
    created_at = models.DateTimeField(_("reported at"), auto_now_add=True, db_index=True)

    class Meta:
        abstract = True
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"#{self.pk} {self.reported_user} ({self.get_status_display()})"


class Report(HandledReport):
    """A player's complaint about another player, or about one chat message."""

    class Category(models.TextChoices):
        ABUSE = "abuse", _("Insults or abuse")
        CHEATING = "cheating", _("Cheating or playing together")
        SPAM = "spam", _("Spam or advertising")
        STALLING = "stalling", _("Stalling or leaving games")
        OTHER = "other", _("Something else")

    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="reports_made",
        verbose_name=_("reported by"),
    )
    reported_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="reports_received",
        verbose_name=_("reported player"),
    )
    match = models.ForeignKey(
        "games.Match", on_delete=models.CASCADE, related_name="reports", verbose_name=_("match")
    )
    chat_message = models.ForeignKey(
        "games.ChatMessage",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="reports",
        verbose_name=_("chat message"),
    )
    # Kept apart from the message: a hidden or deleted message must stay readable here.
    message_text = models.CharField(_("reported text"), max_length=300, blank=True)
    category = models.CharField(
        _("category"), max_length=10, choices=Category.choices, default=Category.ABUSE
    )

    class Meta(HandledReport.Meta):
        verbose_name = _("report")
        verbose_name_plural = _("reports")


class AuditLogEntry(models.Model):
    """One moderator action.  Written once, never changed or deleted."""

    class Action(models.TextChoices):
        SUSPEND = "suspend", _("Suspended a user")
        UNSUSPEND = "unsuspend", _("Lifted a suspension")
        MUTE = "mute", _("Muted a user in chat")
        UNMUTE = "unmute", _("Unmuted a user")
        HIDE_CHAT = "hide_chat", _("Hid a chat message")
        ABORT_MATCH = "abort_match", _("Aborted a match")
        REPORT_ACTIONED = "report_actioned", _("Marked a report actioned")
        REPORT_DISMISSED = "report_dismissed", _("Dismissed a report")
        VARIANT_CREATED = "variant_created", _("Created a rule variant")
        VARIANT_CHANGED = "variant_changed", _("Changed a rule variant")
        VARIANT_ACTIVATED = "variant_activated", _("Activated a rule variant")
        VARIANT_DEACTIVATED = "variant_deactivated", _("Deactivated a rule variant")
        VARIANT_DELETED = "variant_deleted", _("Deleted a rule variant")

    created_at = models.DateTimeField(_("when"), auto_now_add=True, db_index=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("moderator"),
    )
    # A copy, so the log still names the moderator if their account goes.
    actor_name = models.CharField(_("moderator name"), max_length=150, blank=True)
    action = models.CharField(_("action"), max_length=20, choices=Action.choices, db_index=True)
    target_type = models.ForeignKey(
        ContentType,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("object type"),
    )
    target_id = models.CharField(_("object id"), max_length=64, blank=True, db_index=True)
    target_repr = models.CharField(_("target"), max_length=200, blank=True)
    reason = models.TextField(_("reason"), blank=True)
    details = models.JSONField(_("details"), default=dict, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("audit log entry")
        verbose_name_plural = _("audit log")
        indexes = [models.Index(fields=["target_type", "target_id"])]
        # The moderation rights that are not about one model's rows.
        permissions = [
            ("moderate_users", _("Can suspend, unsuspend and mute users")),
            ("abort_match", _("Can abort running matches")),
            ("hide_chat", _("Can hide chat messages")),
        ]

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.actor_name} {self.get_action_display()}"

    def save(self, *args, **kwargs) -> None:
        if self.pk is not None and type(self).objects.filter(pk=self.pk).exists():
            raise PermissionDenied("Audit log entries cannot be changed.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise PermissionDenied("Audit log entries cannot be deleted.")
