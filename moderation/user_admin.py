"""User admin with moderation actions.

Moderation fields are read-only on the form and change only through the
actions, so every change is in the audit log.  Moderators (the "moderators"
group) may view users and apply the actions, but hold no ``change_user``
permission: they never see the password field or reach the password view.
"""

from __future__ import annotations

import datetime

from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.db.models import Q, QuerySet
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from accounts.forms import AdminSignUpForm, AdminUserForm
from accounts.models import User
from accounts.socket_news import account_changed
from moderation import audit
from moderation.actions import with_form
from moderation.forms import MuteForm, SuspendForm
from moderation.models import AuditLogEntry

Action = AuditLogEntry.Action
MODERATION_FIELDS = ("suspended_until", "suspended_forever", "suspension_reason", "muted_until")


class ModerationStatusFilter(admin.SimpleListFilter):
    title = _("moderation")
    parameter_name = "moderation"

    def lookups(self, request, model_admin):
        return [("suspended", _("Suspended now")), ("muted", _("Muted now"))]

    def queryset(self, request, queryset):
        now = timezone.now()
        if self.value() == "suspended":
            return queryset.filter(Q(suspended_forever=True) | Q(suspended_until__gt=now))
        if self.value() == "muted":
            return queryset.filter(muted_until__gt=now)
        return queryset


@admin.register(User)
class UserAdmin(DjangoUserAdmin):
    add_form = AdminSignUpForm
    form = AdminUserForm
    list_display = [
        "username",
        "email",
        "is_staff",
        "suspended",
        "muted",
        "date_joined",
        "last_login",
    ]
    list_filter = [ModerationStatusFilter, "is_staff", "is_superuser", "is_active", "groups"]
    actions = ["suspend", "unsuspend", "mute", "unmute"]
    fieldsets = [
        *DjangoUserAdmin.fieldsets,
        (_("Moderation"), {"fields": MODERATION_FIELDS}),
    ]
    readonly_fields = MODERATION_FIELDS

    def get_fieldsets(self, request: HttpRequest, obj=None):
        fieldsets = super().get_fieldsets(request, obj)
        if obj is None or self.has_change_permission(request, obj):
            return fieldsets
        # Without change_user, even the read-only password summary goes:
        # its link leads to the password form.
        return [
            (name, {**options, "fields": [f for f in options["fields"] if f != "password"]})
            for name, options in fieldsets
        ]

    def has_moderate_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("moderation.moderate_users")

    @admin.display(description=_("suspended"), boolean=True)
    def suspended(self, user: User) -> bool:
        return user.is_suspended

    @admin.display(description=_("muted"), boolean=True)
    def muted(self, user: User) -> bool:
        return user.is_muted

    def _targets(self, request: HttpRequest, queryset: QuerySet) -> list[User]:
        """The selected users this moderator may act on: never themselves, and
        staff only if the moderator is a superuser."""
        targets = queryset.exclude(pk=request.user.pk)
        if not request.user.is_superuser:
            targets = targets.filter(is_staff=False, is_superuser=False)
        allowed = list(targets)
        left_out = queryset.count() - len(allowed)
        if left_out:
            self.message_user(
                request,
                ngettext(
                    "%(count)d user was left alone: you cannot moderate yourself or staff.",
                    "%(count)d users were left alone: you cannot moderate yourself or staff.",
                    left_out,
                )
                % {"count": left_out},
                messages.WARNING,
            )
        return allowed

    def _done(self, request: HttpRequest, message: str, count: int) -> None:
        self.message_user(request, message % {"count": count}, messages.SUCCESS)

    @admin.action(description=_("Suspend…"), permissions=["moderate"])
    def suspend(self, request: HttpRequest, queryset: QuerySet):
        def apply(data: dict) -> None:
            users = self._targets(request, queryset)
            forever = data["duration"] == "forever"
            until = (
                None if forever else timezone.now() + datetime.timedelta(days=int(data["duration"]))
            )
            for user in users:
                user.suspended_forever = forever
                user.suspended_until = until
                user.suspension_reason = data["reason"]
            User.objects.bulk_update(
                users, ["suspended_forever", "suspended_until", "suspension_reason"]
            )
            for user in users:
                account_changed(user.pk)
            audit.record_many(
                request.user,
                Action.SUSPEND,
                users,
                reason=data["reason"],
                details={"until": until.isoformat() if until else "forever"},
            )
            self._done(
                request,
                ngettext("%(count)d user suspended.", "%(count)d users suspended.", len(users)),
                len(users),
            )

        return with_form(
            self,
            request,
            queryset,
            form_class=SuspendForm,
            title=_("Suspend users"),
            submit_label=_("Suspend"),
            apply=apply,
        )

    @admin.action(description=_("Lift the suspension"), permissions=["moderate"])
    def unsuspend(self, request: HttpRequest, queryset: QuerySet) -> None:
        now = timezone.now()
        suspended = queryset.filter(Q(suspended_forever=True) | Q(suspended_until__gt=now))
        users = self._targets(request, suspended)
        User.objects.filter(pk__in=[u.pk for u in users]).update(
            suspended_forever=False, suspended_until=None
        )
        audit.record_many(request.user, Action.UNSUSPEND, users)
        self._done(
            request,
            ngettext("%(count)d suspension lifted.", "%(count)d suspensions lifted.", len(users)),
            len(users),
        )

    @admin.action(description=_("Mute in chat…"), permissions=["moderate"])
    def mute(self, request: HttpRequest, queryset: QuerySet):
        def apply(data: dict) -> None:
            users = self._targets(request, queryset)
            until = timezone.now() + datetime.timedelta(minutes=int(data["minutes"]))
            User.objects.filter(pk__in=[u.pk for u in users]).update(muted_until=until)
            for user in users:
                account_changed(user.pk)
            audit.record_many(
                request.user,
                Action.MUTE,
                users,
                reason=data["reason"],
                details={"until": until.isoformat()},
            )
            self._done(
                request,
                ngettext("%(count)d user muted.", "%(count)d users muted.", len(users)),
                len(users),
            )

        return with_form(
            self,
            request,
            queryset,
            form_class=MuteForm,
            title=_("Mute users in chat"),
            submit_label=_("Mute"),
            apply=apply,
        )

    @admin.action(description=_("Unmute"), permissions=["moderate"])
    def unmute(self, request: HttpRequest, queryset: QuerySet) -> None:
        users = self._targets(request, queryset.filter(muted_until__gt=timezone.now()))
        User.objects.filter(pk__in=[u.pk for u in users]).update(muted_until=None)
        for user in users:
            account_changed(user.pk)
        audit.record_many(request.user, Action.UNMUTE, users)
        self._done(
            request,
            ngettext("%(count)d user unmuted.", "%(count)d users unmuted.", len(users)),
            len(users),
        )
