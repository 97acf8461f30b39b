from django.contrib import admin

from games.records_admin import RecordAdmin
from history.models import PlayerGame, Rating, RatingChange


@admin.register(Rating)
class RatingAdmin(RecordAdmin):
    list_display = ("user", "rating_class", "rating", "rd", "volatility", "games", "updated_at")
    list_filter = ("rating_class",)
    search_fields = ("user__username",)
    raw_id_fields = ("user",)


@admin.register(RatingChange)
class RatingChangeAdmin(RecordAdmin):
    list_display = ("user", "rating_class", "rating_before", "rating", "deal", "created_at")
    list_filter = ("rating_class",)
    search_fields = ("user__username",)
    raw_id_fields = ("user", "deal")


@admin.register(PlayerGame)
class PlayerGameAdmin(RecordAdmin):
    list_display = ("user", "deal", "variant", "players", "result", "move_count", "finished_at")
    list_filter = ("result", "variant", "players", "is_rated", "is_private")
    search_fields = ("user__username",)
    raw_id_fields = ("user", "deal", "match")
