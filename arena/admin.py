from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from .chat import hide_arena_chat
from .models import Arena, ArenaChatMessage, ArenaGame, ArenaPlayer, ArenaSchedule


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
        "password",
        "bots_allowed",
        "bot_wait_seconds",
        "bot_level",
        "status",
        "schedule",
        "created_by",
    )
    # The ticker moves an arena from scheduled to running to finished.
    readonly_fields = ("status", "schedule", "created_by")
    inlines = [ArenaPlayerInline]

    def save_model(self, request, obj, form, change) -> None:
        if not change:
            obj.created_by = request.user
        super().save_model(request, obj, form, change)


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
