"""Admin for chat messages, the report queue and the audit log; the admins of users
(``user_admin``) and of variants and matches (``games_admin``) live in this app too,
above the apps whose models they show, as every moderator's action is audited here."""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.models import ChatMessage
from moderation import audit, games_admin, user_admin  # noqa: F401  (they register their admins)
from moderation.actions import with_form
from moderation.forms import NoteForm
from moderation.models import AuditLogEntry, Report

Action = AuditLogEntry.Action


def _user_link(user) -> str:
    if user is None:
        return "—"
    return format_html(
        '<a href="{}">{}</a>', reverse("admin:accounts_user_change", args=[user.pk]), user
    )


def _match_link(match_id: int) -> str:
    return format_html(
        '<a href="{}">#{}</a>', reverse("admin:games_match_change", args=[match_id]), match_id
    )


class MatchIdFilter(admin.SimpleListFilter):
    """Filter by a match number typed in: a list of every match would be endless."""

    title = _("match")
    parameter_name = "match"
    template = "admin/moderation/input_filter.html"

    def lookups(self, request, model_admin):
        return []

    def has_output(self) -> bool:
        return True

    def queryset(self, request, queryset):
        value = self.value()
        if value and str(value).isdigit():
            return queryset.filter(match_id=int(value))
        return queryset

    def choices(self, changelist):
        yield {
            "value": self.value() or "",
            "parameter_name": self.parameter_name,
            "other_params": [
                (key, value)
                for key, value in changelist.params.items()
                if key != self.parameter_name
            ],
            "reset_url": changelist.get_query_string(remove=[self.parameter_name]),
        }


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    list_display = [
        "created_at",
        "author",
        "match_link",
        "channel",
        "text",
        "phrase",
        "is_hidden",
        "hidden_by",
    ]
    list_filter = ["is_hidden", "channel", MatchIdFilter, "created_at"]
    list_select_related = ["user", "hidden_by"]
    search_fields = ["text", "user__username"]
    search_help_text = _("Search the text or the author's username.")
    date_hierarchy = "created_at"
    actions = ["hide"]
    ordering = ["-created_at"]
    fields = [
        "user",
        "match",
        "channel",
        "text",
        "phrase",
        "created_at",
        "is_hidden",
        "hidden_by",
        "hidden_at",
    ]
    readonly_fields = fields

    # Messages change only by being hidden, through the action.
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_hide_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("moderation.hide_chat")

    @admin.display(description=_("author"), ordering="user__username")
    def author(self, message: ChatMessage) -> str:
        return _user_link(message.user)

    @admin.display(description=_("match"), ordering="match_id")
    def match_link(self, message: ChatMessage) -> str:
        return _match_link(message.match_id)

    @admin.action(description=_("Hide the selected messages from the tables"), permissions=["hide"])
    def hide(self, request: HttpRequest, queryset: QuerySet) -> None:
        from games.services import hide_chat_messages

        showing = list(queryset.filter(is_hidden=False))
        hide_chat_messages([m.pk for m in showing], by=request.user)
        audit.record_many(
            request.user,
            Action.HIDE_CHAT,
            showing,
            details={"texts": {str(m.pk): m.words for m in showing}},
        )
        self.message_user(
            request,
            ngettext("%(count)d message hidden.", "%(count)d messages hidden.", len(showing))
            % {"count": len(showing)},
            messages.SUCCESS,
        )


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    list_display = [
        "created_at",
        "status",
        "category",
        "reported",
        "reported_by",
        "match_link",
        "excerpt",
        "handled_by",
    ]
    list_filter = ["status", "category", "created_at"]
    list_select_related = ["reporter", "reported_user", "handled_by"]
    search_fields = ["reported_user__username", "reporter__username", "message_text", "reason"]
    search_help_text = _("Search usernames, the reported text and the reason.")
    actions = ["mark_actioned", "mark_dismissed"]
    fields = [
        "status",
        "category",
        "reported",
        "reported_by",
        "match_link",
        "chat_message_link",
        "message_text",
        "reason",
        "created_at",
        "handled_by",
        "handled_at",
        "note",
    ]
    readonly_fields = [name for name in fields if name != "note"]

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        # Open reports first: the queue is what a moderator comes for.
        return super().get_queryset(request).order_by("-status", "-created_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.display(description=_("reported player"), ordering="reported_user__username")
    def reported(self, report: Report) -> str:
        return _user_link(report.reported_user)

    @admin.display(description=_("reported by"), ordering="reporter__username")
    def reported_by(self, report: Report) -> str:
        return _user_link(report.reporter)

    @admin.display(description=_("match"), ordering="match_id")
    def match_link(self, report: Report) -> str:
        return _match_link(report.match_id)

    @admin.display(description=_("chat message"))
    def chat_message_link(self, report: Report) -> str:
        if not report.chat_message_id:
            return "—"
        url = reverse("admin:games_chatmessage_change", args=[report.chat_message_id])
        return format_html('<a href="{}">{}</a>', url, report.message_text or "—")

    @admin.display(description=_("text"))
    def excerpt(self, report: Report) -> str:
        text = report.message_text or report.reason
        return text[:60] + ("…" if len(text) > 60 else "")

    def _handle(self, request: HttpRequest, queryset: QuerySet, status: str):
        title = (
            _("Mark reports as actioned")
            if status == Report.Status.ACTIONED
            else _("Dismiss reports")
        )

        def apply(data: dict) -> None:
            open_reports = list(queryset.filter(status=Report.Status.OPEN))
            now = timezone.now()
            for report in open_reports:
                report.status = status
                report.handled_by = request.user
                report.handled_at = now
                report.note = data["note"]
            # The model this admin shows: the arena's chat reports share this queue's actions.
            self.model.objects.bulk_update(
                open_reports, ["status", "handled_by", "handled_at", "note"]
            )
            audit.record_many(
                request.user,
                Action.REPORT_ACTIONED
                if status == Report.Status.ACTIONED
                else Action.REPORT_DISMISSED,
                open_reports,
                reason=data["note"],
            )
            self.message_user(
                request,
                ngettext(
                    "%(count)d open report handled.",
                    "%(count)d open reports handled.",
                    len(open_reports),
                )
                % {"count": len(open_reports)},
                messages.SUCCESS,
            )

        return with_form(
            self,
            request,
            queryset,
            form_class=NoteForm,
            title=title,
            submit_label=title,
            apply=apply,
        )

    @admin.action(description=_("Mark as actioned…"), permissions=["change"])
    def mark_actioned(self, request: HttpRequest, queryset: QuerySet):
        return self._handle(request, queryset, Report.Status.ACTIONED)

    @admin.action(description=_("Dismiss…"), permissions=["change"])
    def mark_dismissed(self, request: HttpRequest, queryset: QuerySet):
        return self._handle(request, queryset, Report.Status.DISMISSED)


@admin.register(AuditLogEntry)
class AuditLogEntryAdmin(admin.ModelAdmin):
    list_display = ["created_at", "actor_name", "action", "target", "reason"]
    list_filter = ["action", "created_at"]
    search_fields = ["actor_name", "target_repr", "reason"]
    date_hierarchy = "created_at"
    fields = ["created_at", "actor_name", "action", "target", "reason", "details"]
    readonly_fields = fields

    # Nobody, superusers included, may write to the log by hand or rewrite it.
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    @admin.display(description=_("target"), ordering="target_repr")
    def target(self, entry: AuditLogEntry) -> str:
        if entry.target_type_id and entry.target_id:
            model = entry.target_type.model_class()
            if model is not None and admin.site.is_registered(model):
                opts = model._meta
                url = reverse(
                    f"admin:{opts.app_label}_{opts.model_name}_change", args=[entry.target_id]
                )
                return format_html('<a href="{}">{}</a>', url, entry.target_repr)
        return entry.target_repr
