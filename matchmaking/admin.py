from django.contrib import admin

from games.records_admin import RecordAdmin
from matchmaking.models import HouseRuleBounds, Seek


@admin.register(HouseRuleBounds)
class HouseRuleBoundsAdmin(admin.ModelAdmin):
    list_display = [
        "variant",
        "deck_24",
        "deck_36",
        "deck_52",
        "may_choose_throw_in",
        "may_choose_transfer",
        "may_choose_first_bout_limit",
        "may_choose_trump_six_swap",
        "min_turn_seconds",
        "max_turn_seconds",
    ]


@admin.register(Seek)
class SeekAdmin(RecordAdmin):
    list_display = [
        "user",
        "mode",
        "players",
        "deck_size",
        "speed",
        "is_rated",
        "status",
        "created_at",
    ]
    list_filter = ["status", "mode", "players"]
    raw_id_fields = ["user", "match"]
    readonly_fields = ["rating", "created_at", "ended_at"]
