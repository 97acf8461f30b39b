"""The admin of records the site writes as people play: results, ratings, attempts."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest


class RecordAdmin(admin.ModelAdmin):
    """Staff read these records; nobody types one in or edits one by hand.

    Statistics, ratings and leaderboards are worked out from them, so a hand-made row
    would make those disagree with the games played. Deleting stays allowed: deleting an
    account that never sat at a table (a spam sign-up) takes its records with it, and
    the admin asks for the right to delete each of them.
    """

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False
