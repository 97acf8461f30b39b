from django.contrib import admin

from .models import DealAnalysis


@admin.register(DealAnalysis)
class DealAnalysisAdmin(admin.ModelAdmin):
    list_display = ("deal", "status", "progress", "created_at", "finished_at")
    list_filter = ("status",)
    readonly_fields = ("result",)
