"""Reports of arena chat lines: a player reports a line as at the table, with the
table's categories, its refusals (their own line, too many reports within the hour,
counted over the table's reports and these together) and one open report a line, and
the moderators handle them in the admin as the table's reports."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django import forms
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.services import Refused
from games.services.common import refuse_suspended
from moderation.forms import REPORTS_PER_HOUR, ReportForm
from moderation.models import Report

from .models import Arena, ArenaChatMessage, ArenaChatReport, ArenaPlayer


class ArenaChatReportForm(forms.Form):
    """What a player says of the line they report: the table report's category."""

    category = forms.ChoiceField(
        label=gettext_lazy("What happened"), choices=Report.Category.choices
    )
    reason = forms.CharField(
        label=gettext_lazy("Details"),
        required=False,
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 2}),
    )


def _reports_within_the_hour(user: Any) -> int:
    hour_ago = timezone.now() - timedelta(hours=1)
    return (
        Report.objects.filter(reporter=user, created_at__gte=hour_ago).count()
        + ArenaChatReport.objects.filter(reporter=user, created_at__gte=hour_ago).count()
    )


def reportable_line(user: Any, arena: Arena, message_id: Any) -> ArenaChatMessage:
    """The line ``message_id`` of ``arena``'s chat, if ``user`` may report it: Refused
    for a line that is not this arena's (or no line), at a private arena anyone who
    has not joined it, and the user's own line."""
    line = (
        ArenaChatMessage.objects.filter(pk=message_id, arena=arena).select_related("user").first()
        if isinstance(message_id, int)
        else None
    )
    if line is None:
        raise Refused(_("This message is not from this arena."), 404, code="no_message")
    if arena.is_private and not ArenaPlayer.objects.filter(arena=arena, user=user).exists():
        raise Refused(
            _("Only the players of this private arena may report its chat."), 403, code="private"
        )
    if line.user_id == user.pk:
        raise Refused(str(ReportForm.error_messages["yourself"]), code="yourself")
    return line


def report_arena_line(
    user: Any, arena: Arena, message_id: Any, category: str, reason: str = ""
) -> ArenaChatReport:
    """File ``user``'s report of the line ``message_id`` of ``arena``'s chat.

    Refused, with nothing filed, for a suspended user, a line that is not this arena's
    (or no line), at a private arena anyone who has not joined it, the user's own
    line, a line they reported already and is still open, and past the reports an
    hour of the table's report form.
    """
    user = refuse_suspended(user)
    line = reportable_line(user, arena, message_id)
    with transaction.atomic():
        # The reporter's row lock: two reports sent at once count each other.
        type(user).objects.select_for_update().filter(pk=user.pk).first()
        open_reports = ArenaChatReport.objects.filter(
            reporter=user, message=line, status=Report.Status.OPEN
        )
        if open_reports.exists():
            raise Refused(
                _("You have reported this message already; a moderator will look at it."),
                code="already",
            )
        if _reports_within_the_hour(user) >= REPORTS_PER_HOUR:
            raise Refused(str(ReportForm.error_messages["too_many"]), 429, code="too_many")
        return ArenaChatReport.objects.create(
            reporter=user,
            reported_user_id=line.user_id,
            message=line,
            message_text=line.text,
            category=category,
            reason=reason,
        )
