from django.contrib import admin

from games.records_admin import RecordAdmin

from .models import DealAnalysis


@admin.register(DealAnalysis)
class DealAnalysisAdmin(RecordAdmin):
    list_display = ("deal", "status", "progress", "created_at", "finished_at")
    list_filter = ("status",)
