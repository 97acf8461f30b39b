"""Forms: the players' report form and the moderators' action forms."""

from __future__ import annotations

import datetime

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.models import ChatMessage, Match
from moderation.models import Report

# Enough for a bad evening at several tables, too few to flood the queue.
REPORTS_PER_HOUR = 10


class ReportForm(forms.Form):
    """A report from the table.  The hidden ids come from the page and are not
    trusted: the reporter must be at the table (or it must be public to watch),
    and the reported player must be seated there or have written the message."""

    match = forms.IntegerField(widget=forms.HiddenInput)
    reported_user = forms.IntegerField(widget=forms.HiddenInput, required=False)
    chat_message = forms.IntegerField(widget=forms.HiddenInput, required=False)
    category = forms.ChoiceField(label=_("What happened"), choices=Report.Category.choices)
    reason = forms.CharField(
        label=_("Details"),
        required=False,
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("Optional. Moderators see it together with the table's moves and chat."),
    )

    error_messages = {
        "no_match": _("This table does not exist."),
        "not_watching": _("You can only report players at a table you are playing or watching."),
        "no_message": _("This message is not from this table."),
        "not_at_table": _("This player is not at this table."),
        "yourself": _("You cannot report yourself."),
        "nobody": _("Choose a player or a message to report."),
        "too_many": _("You have sent many reports in the last hour. Please wait a little."),
    }

    def __init__(self, *args, reporter, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.reporter = reporter

    def _fail(self, code: str) -> forms.ValidationError:
        return forms.ValidationError(self.error_messages[code], code=code)

    def clean(self) -> dict:
        data = super().clean()
        if self.errors:
            return data
        match = Match.objects.filter(pk=data["match"]).first()
        if match is None:
            raise self._fail("no_match")
        seated = match.seats.filter(user__isnull=False).values_list("user_id", flat=True)
        if match.is_private and self.reporter.pk not in seated:
            raise self._fail("not_watching")
        message = None
        reported_id = data.get("reported_user")
        if data.get("chat_message"):
            message = ChatMessage.objects.filter(pk=data["chat_message"], match=match).first()
            if message is None or (reported_id and reported_id != message.user_id):
                raise self._fail("no_message")
            reported_id = message.user_id
        elif reported_id is None:
            raise self._fail("nobody")
        elif reported_id not in seated:
            raise self._fail("not_at_table")
        if reported_id == self.reporter.pk:
            raise self._fail("yourself")
        hour_ago = timezone.now() - datetime.timedelta(hours=1)
        if (
            Report.objects.filter(reporter=self.reporter, created_at__gte=hour_ago).count()
            >= REPORTS_PER_HOUR
        ):
            raise self._fail("too_many")
        data["match_obj"], data["message_obj"], data["reported_id"] = match, message, reported_id
        return data

    def save(self) -> Report:
        """The report; a repeat of the reporter's own open report is not filed twice."""
        data = self.cleaned_data
        message = data["message_obj"]
        report, _created = Report.objects.get_or_create(
            reporter=self.reporter,
            reported_user_id=data["reported_id"],
            match=data["match_obj"],
            chat_message=message,
            status=Report.Status.OPEN,
            defaults={
                "category": data["category"],
                "reason": data["reason"],
                "message_text": message.words if message else "",
            },
        )
        return report


class ReasonForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason"),
        max_length=1000,
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        help_text=_("Recorded in the audit log; players are shown it."),
    )


class SuspendForm(ReasonForm):
    DURATIONS = [
        ("1", _("1 day")),
        ("3", _("3 days")),
        ("7", _("1 week")),
        ("30", _("30 days")),
        ("forever", _("For good")),
    ]
    duration = forms.ChoiceField(label=_("For how long"), choices=DURATIONS, initial="1")


class MuteForm(forms.Form):
    DURATIONS = [
        ("15", _("15 minutes")),
        ("60", _("1 hour")),
        ("1440", _("1 day")),
        ("10080", _("1 week")),
    ]
    minutes = forms.ChoiceField(label=_("For how long"), choices=DURATIONS, initial="60")
    reason = forms.CharField(label=_("Reason"), max_length=1000, required=False)


class NoteForm(forms.Form):
    note = forms.CharField(
        label=_("Note"),
        required=False,
        max_length=1000,
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        help_text=_("What you did or why you dismissed it, for the other moderators."),
    )
