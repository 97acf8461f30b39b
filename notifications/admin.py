from django.contrib import admin

from notifications.models import PushSubscription


@admin.register(PushSubscription)
class PushSubscriptionAdmin(admin.ModelAdmin):
    list_display = ("user", "endpoint", "language", "created", "last_used")
    list_select_related = ("user",)
    search_fields = ("user__username", "endpoint")
    raw_id_fields = ("user",)
    readonly_fields = ("created", "last_used")
