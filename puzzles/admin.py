from django.contrib import admin
from django.http import HttpRequest

from games.records_admin import RecordAdmin
from puzzles.models import Puzzle, PuzzleAttempt, PuzzleRating, PuzzleScan


@admin.register(Puzzle)
class PuzzleAdmin(admin.ModelAdmin):
    list_display = ("pk", "goal", "rating", "rd", "attempts", "solved", "from_swing", "created_at")
    list_filter = ("goal", "from_swing")
    raw_id_fields = ("deal",)
    readonly_fields = ("position", "position_hash", "answers", "options", "played")

    def has_add_permission(self, request: HttpRequest) -> bool:
        # A puzzle is a position found in a played game; staff curate, never invent one.
        return False


@admin.register(PuzzleRating)
class PuzzleRatingAdmin(RecordAdmin):
    list_display = ("user", "rating", "rd", "attempts", "solved", "updated_at")
    search_fields = ("user__username",)
    raw_id_fields = ("user",)


@admin.register(PuzzleAttempt)
class PuzzleAttemptAdmin(RecordAdmin):
    list_display = ("user", "puzzle", "is_solved", "rating_before", "rating_after", "created_at")
    list_filter = ("is_solved",)
    search_fields = ("user__username",)
    raw_id_fields = ("user", "puzzle")


@admin.register(PuzzleScan)
class PuzzleScanAdmin(RecordAdmin):
    list_display = ("deal", "found", "scanned_at")
    raw_id_fields = ("deal",)
