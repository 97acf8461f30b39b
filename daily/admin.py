from django.contrib import admin

from games.records_admin import RecordAdmin

from .models import DailyDeal, DailyEntry


class DailyEntryInline(admin.TabularInline):
    model = DailyEntry
    extra = 0
    fields = ("user", "match", "result", "aborted", "accuracy", "think_seconds", "finished_at")
    readonly_fields = fields
    can_delete = False


@admin.register(DailyDeal)
class DailyDealAdmin(admin.ModelAdmin):
    list_display = ("day", "variant", "players", "bot_level")
    list_filter = ("variant",)
    date_hierarchy = "day"
    # The seed is the deck: shown to staff, never edited once players started.
    readonly_fields = ("day", "variant", "players", "bot_level", "seed", "created_at")
    inlines = [DailyEntryInline]

    def has_add_permission(self, request) -> bool:
        # A day's deal is made with a fresh seed by the day's first visit to /daily/.
        return False


@admin.register(DailyEntry)
class DailyEntryAdmin(RecordAdmin):
    list_display = (
        "daily",
        "user",
        "result",
        "aborted",
        "accuracy",
        "think_seconds",
        "finished_at",
    )
    list_filter = ("result", "aborted", "daily__day")
    search_fields = ("user__username",)
    raw_id_fields = ("daily", "user", "match")
    readonly_fields = ("started_at", "finished_at")
