from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from moderation.admin import ReportAdmin

from .chat import hide_arena_chat
from .invites import invite_path, renew_invite_links
from .models import (
    Arena,
    ArenaChatMessage,
    ArenaChatReport,
    ArenaGame,
    ArenaPlayer,
    ArenaSchedule,
    new_invite_token,
)
from .services import notify_arena_changed


class ArenaPlayerInline(admin.TabularInline):
    model = ArenaPlayer
    extra = 0
    fields = (
        "user",
        "points",
        "games",
        "bot_games",
        "on_fire",
        "paused",
        "away_since",
        "abandons",
        "withdrawn",
        "withdrawn_for",
        "joined_at",
    )
    readonly_fields = (
        "user",
        "points",
        "games",
        "bot_games",
        "on_fire",
        "away_since",
        "abandons",
        "withdrawn_for",
        "joined_at",
    )
    can_delete = False


@admin.register(Arena)
class ArenaAdmin(admin.ModelAdmin):
    list_display = ("name", "variant", "players_per_table", "starts_at", "minutes", "status")
    list_filter = ("status", "variant", "is_rated")
    date_hierarchy = "starts_at"
    fields = (
        "name",
        "variant",
        "players_per_table",
        "turn_seconds",
        "starts_at",
        "minutes",
        "is_rated",
        "min_rating",
        "min_rated_games",
        "min_reliability",
        "password",
        "invite_link",
        "bots_allowed",
        "bot_wait_seconds",
        "bot_level",
        "status",
        "schedule",
        "created_by",
    )
    # The ticker moves an arena from scheduled to running to finished.
    readonly_fields = ("invite_link", "status", "schedule", "created_by")
    inlines = [ArenaPlayerInline]
    actions = ["renew_invites"]

    @admin.display(description=_("invite link"))
    def invite_link(self, arena: Arena) -> str:
        if not arena.pk or not (arena.is_private and arena.invite_token):
            return "—"
        path = invite_path(arena)
        return format_html('<a href="{}">{}</a>', path, path)

    def save_model(self, request, obj, form, change) -> None:
        if not change:
            obj.created_by = request.user
        elif "password" in form.changed_data and obj.password:
            obj.invite_token = new_invite_token()  # a new password: the old link goes too
        super().save_model(request, obj, form, change)

    def save_related(self, request, form, formsets, change) -> None:
        super().save_related(request, form, formsets, change)
        # A player paused or withdrawn here: the pages' kept standings are old now.
        notify_arena_changed(form.instance.pk)

    @admin.action(description=_("New invite links (the old ones stop working)"))
    def renew_invites(self, request, queryset) -> None:
        renewed = renew_invite_links(list(queryset.values_list("pk", flat=True)))
        self.message_user(request, _("Invite links renewed: %(count)d.") % {"count": renewed})


@admin.register(ArenaGame)
class ArenaGameAdmin(admin.ModelAdmin):
    list_display = ("arena", "match", "scored", "created_at")
    list_filter = ("arena",)
    readonly_fields = ("arena", "match", "berserk_seats", "scored", "created_at")

    def has_add_permission(self, request) -> bool:
        # Arena games are made by the pairing, never by hand.
        return False


@admin.register(ArenaSchedule)
class ArenaScheduleAdmin(admin.ModelAdmin):
    list_display = (
        "name",
        "variant",
        "every_hours",
        "daily_at",
        "time_zone",
        "active",
        "last_start",
    )
    list_filter = ("active", "variant")
    fieldsets = (
        (
            None,
            {
                "fields": (
                    "name",
                    "variant",
                    "players_per_table",
                    "turn_seconds",
                    "minutes",
                    "is_rated",
                    "min_rating",
                    "min_rated_games",
                    "min_reliability",
                    "password",
                    "bots_allowed",
                    "bot_wait_seconds",
                    "bot_level",
                )
            },
        ),
        (
            _("Recurrence"),
            {
                "fields": (
                    "every_hours",
                    "daily_at",
                    "time_zone",
                    "first_start",
                    "lead_minutes",
                    "active",
                    "last_start",
                )
            },
        ),
    )
    # The ticker writes it as it makes each arena.
    readonly_fields = ("last_start",)


@admin.register(ArenaChatMessage)
class ArenaChatMessageAdmin(admin.ModelAdmin):
    list_display = ("created_at", "arena", "user", "text", "is_hidden")
    list_filter = ("is_hidden", "arena")
    search_fields = ("user__username", "text")
    readonly_fields = ("arena", "user", "text", "created_at", "is_hidden", "hidden_by", "hidden_at")
    actions = ["hide_lines"]

    def has_add_permission(self, request) -> bool:
        return False  # lines are said on the arena's page

    @admin.action(description=_("Hide the selected lines"))
    def hide_lines(self, request, queryset) -> None:
        hidden = hide_arena_chat(list(queryset.values_list("pk", flat=True)), request.user)
        self.message_user(request, _("Lines hidden: %(count)d.") % {"count": hidden})


@admin.register(ArenaChatReport)
class ArenaChatReportAdmin(ReportAdmin):
    """The reports of arena chat lines, handled as the table's reports are: open ones
    first, marked actioned or dismissed with a note, each in the audit log."""

    list_display = [
        "created_at",
        "status",
        "category",
        "reported",
        "reported_by",
        "arena_link",
        "excerpt",
        "handled_by",
    ]
    list_filter = ["status", "category", "created_at"]
    search_fields = ["reported_user__username", "reporter__username", "message_text", "reason"]
    fields = [
        "status",
        "category",
        "reported",
        "reported_by",
        "arena_link",
        "chat_message_link",
        "message_text",
        "reason",
        "created_at",
        "handled_by",
        "handled_at",
        "note",
    ]
    readonly_fields = [name for name in fields if name != "note"]

    @admin.display(description=_("arena"))
    def arena_link(self, report: ArenaChatReport) -> str:
        if report.message is None:
            return "—"
        url = reverse("admin:arena_arena_change", args=[report.message.arena_id])
        return format_html('<a href="{}">{}</a>', url, report.message.arena)

    @admin.display(description=_("chat message"))
    def chat_message_link(self, report: ArenaChatReport) -> str:
        if report.message_id is None:
            return report.message_text or "—"
        url = reverse("admin:arena_arenachatmessage_change", args=[report.message_id])
        return format_html('<a href="{}">{}</a>', url, report.message_text or "—")
