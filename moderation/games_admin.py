"""Admin for rule variants and matches.

Variants are edited here and validated by the engine (``RuleVariant.clean``).
Matches are read-only: play changes them, and the only thing a moderator does
to one is abort it, through ``games.services.abort_match``.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.contrib.admin.actions import delete_selected
from django.db.models import Count, Exists, OuterRef, Q, QuerySet
from django.forms.models import BaseInlineFormSet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import NoReverseMatch, reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext, pgettext_lazy

from durak import engine
from games.models import (
    PLAY_RULE_FIELDS,
    Deal,
    Match,
    Move,
    RuleVariant,
    Seat,
    ServerProcess,
    SocketPresence,
)
from games.move_words import describe_action
from matchmaking.house_rules import rule_tags
from moderation import audit
from moderation.actions import with_form
from moderation.forms import ReasonForm
from moderation.models import AuditLogEntry

Action = AuditLogEntry.Action

# Inline moves per match page; the replay shows the rest.
MOVES_SHOWN = 200


def replay_url(match_id: int) -> str:
    try:
        return reverse("analysis:replay", args=[match_id])
    except NoReverseMatch:
        return f"/games/{match_id}/replay/"


# --- Rule variants ----------------------------------------------------------


@admin.register(RuleVariant)
class RuleVariantAdmin(admin.ModelAdmin):
    list_display = [
        "name",
        "is_active",
        "ordering",
        "players_range",
        "deck_size",
        "mode",
        "games_played",
        "tables",
    ]
    list_display_links = ["name"]
    list_editable = ["ordering"]
    list_filter = ["is_active", "mode", "deck_size"]
    search_fields = ["name", "name_ru", "slug", "description"]
    prepopulated_fields = {"slug": ["name"]}
    actions = ["activate", "deactivate", "delete_unused"]
    readonly_fields = ["games_played", "created_at", "updated_at"]
    fieldsets = [
        (
            None,
            {
                "fields": [
                    "name",
                    "name_ru",
                    "slug",
                    "description",
                    "description_ru",
                    "is_active",
                    "ordering",
                ],
                "description": _(
                    "Readers of the Russian site see the name and description in Russian; "
                    "left empty, they see the English ones."
                ),
            },
        ),
        (_("Table"), {"fields": ["min_players", "max_players", "deck_size", "hand_size"]}),
        (
            pgettext_lazy("admin section of the rules", "Play"),
            {"fields": list(PLAY_RULE_FIELDS)},
        ),
        (_("Online"), {"fields": ["turn_seconds", "reconnect_seconds", "rated_with_bots"]}),
        (_("History"), {"fields": ["games_played", "created_at", "updated_at"]}),
    ]

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return (
            super()
            .get_queryset(request)
            .annotate(
                _games=Count(
                    "matches__deals", filter=Q(matches__deals__status=Deal.Status.FINISHED)
                ),
                _tables=Count("matches", distinct=True),
            )
        )

    @admin.display(description=_("players"))
    def players_range(self, obj: RuleVariant) -> str:
        if obj.min_players == obj.max_players:
            return str(obj.min_players)
        return f"{obj.min_players}–{obj.max_players}"

    @admin.display(description=_("games played"), ordering="_games")
    def games_played(self, obj: RuleVariant) -> int:
        return getattr(obj, "_games", 0)

    @admin.display(description=_("tables"), ordering="_tables")
    def tables(self, obj: RuleVariant) -> int:
        return getattr(obj, "_tables", 0)

    # A variant with tables is part of their history: it may only be deactivated.
    # Tables keep their own copy of the rules (Match.rules, Deal.rules), so
    # editing a variant never changes an old game.

    def has_delete_permission(self, request: HttpRequest, obj: RuleVariant | None = None) -> bool:
        if obj is not None and obj.matches.exists():
            return False
        return super().has_delete_permission(request, obj)

    def _refuse_used(self, request: HttpRequest, used: list[RuleVariant]) -> None:
        self.message_user(
            request,
            ngettext(
                "%(names)s has been played, so it cannot be deleted: deactivate it instead.",
                "%(names)s have been played, so they cannot be deleted: deactivate them instead.",
                len(used),
            )
            % {"names": ", ".join(str(v) for v in used)},
            messages.ERROR,
        )

    def delete_view(self, request: HttpRequest, object_id: str, extra_context=None) -> HttpResponse:
        variant = self.get_object(request, object_id)
        if variant is not None and variant.matches.exists():
            self._refuse_used(request, [variant])
            return HttpResponseRedirect(
                reverse("admin:games_rulevariant_change", args=[variant.pk])
            )
        return super().delete_view(request, object_id, extra_context)

    def get_actions(self, request: HttpRequest) -> dict:
        actions = super().get_actions(request)
        # Django's bulk delete is replaced by one that explains the refusal.
        actions.pop("delete_selected", None)
        return actions

    @admin.action(
        description=_("Delete selected variants that were never played"), permissions=["delete"]
    )
    def delete_unused(self, request: HttpRequest, queryset: QuerySet):
        used = list(queryset.filter(Exists(Match.objects.filter(variant=OuterRef("pk")))))
        if used:
            self._refuse_used(request, used)
            return None
        return delete_selected(self, request, queryset)

    def delete_model(self, request: HttpRequest, obj: RuleVariant) -> None:
        audit.record(request.user, Action.VARIANT_DELETED, obj)
        super().delete_model(request, obj)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet) -> None:
        audit.record_many(request.user, Action.VARIANT_DELETED, list(queryset))
        super().delete_queryset(request, queryset)

    def save_model(self, request: HttpRequest, obj: RuleVariant, form, change: bool) -> None:
        super().save_model(request, obj, form, change)
        if not change:
            audit.record(request.user, Action.VARIANT_CREATED, obj)
        elif form.changed_data:
            audit.record(
                request.user,
                Action.VARIANT_CHANGED,
                obj,
                details={
                    "changed": {name: form.cleaned_data.get(name) for name in form.changed_data}
                },
            )

    def _set_active(self, request: HttpRequest, queryset: QuerySet, active: bool) -> None:
        changing = list(queryset.exclude(is_active=active))
        RuleVariant.objects.filter(pk__in=[v.pk for v in changing]).update(is_active=active)
        audit.record_many(
            request.user,
            Action.VARIANT_ACTIVATED if active else Action.VARIANT_DEACTIVATED,
            changing,
        )
        self.message_user(
            request,
            (
                ngettext(
                    "%(count)d variant activated.", "%(count)d variants activated.", len(changing)
                )
                if active
                else ngettext(
                    "%(count)d variant deactivated.",
                    "%(count)d variants deactivated.",
                    len(changing),
                )
            )
            % {"count": len(changing)},
            messages.SUCCESS,
        )

    @admin.action(description=_("Activate: offer for new tables"), permissions=["change"])
    def activate(self, request: HttpRequest, queryset: QuerySet) -> None:
        self._set_active(request, queryset, True)

    @admin.action(description=_("Deactivate: no new tables"), permissions=["change"])
    def deactivate(self, request: HttpRequest, queryset: QuerySet) -> None:
        self._set_active(request, queryset, False)


# --- Matches ----------------------------------------------------------------


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


class SeatInline(ReadOnlyInline):
    model = Seat
    fields = ["number", "player", "bot_level", "team", "fools", "disconnected_since", "last_seen"]
    readonly_fields = fields

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return super().get_queryset(request).select_related("user")

    @admin.display(description=_("player"))
    def player(self, seat: Seat) -> str:
        if seat.user_id:
            url = reverse("admin:accounts_user_change", args=[seat.user_id])
            return format_html('<a href="{}">{}</a>', url, seat.user.username)
        return seat.display_name


class DealInline(ReadOnlyInline):
    model = Deal
    verbose_name = _("game")
    verbose_name_plural = _("games")
    fields = [
        "number",
        "status",
        "first_attacker",
        "first_attacker_by",
        "fool_seat",
        "is_draw",
        "epaulettes",
        "end_reason",
        "move_count",
        "started_at",
        "finished_at",
    ]
    readonly_fields = fields


class LatestMovesFormSet(BaseInlineFormSet):
    """Only the latest moves: a long match would make the page huge."""

    def get_queryset(self):
        if not hasattr(self, "_latest"):
            latest = super().get_queryset().order_by("-seq")[:MOVES_SHOWN]
            self._latest = list(reversed(latest))
        return self._latest


class MoveInline(ReadOnlyInline):
    model = Move
    formset = LatestMovesFormSet
    verbose_name_plural = _("latest moves (the replay has them all)")
    fields = ["seq", "deal_number", "in_words", "source", "think_ms", "created_at"]
    readonly_fields = fields
    seat_names: dict[int, str]

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return super().get_queryset(request).select_related("deal")

    def get_formset(self, request: HttpRequest, obj: Match | None = None, **kwargs: Any) -> Any:
        # Django makes the inlines afresh for every request, so the names are this page's.
        seats = Seat.objects.filter(match=obj).select_related("user") if obj else []
        self.seat_names = {seat.number: seat.display_name for seat in seats}
        return super().get_formset(request, obj, **kwargs)

    @admin.display(description=_("game"))
    def deal_number(self, move: Move) -> int:
        return move.deal.number

    @admin.display(description=_("move"))
    def in_words(self, move: Move) -> str:
        return describe_action(engine.Action.parse(move.action), getattr(self, "seat_names", {}))


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["id", "variant", "status", "players", "seat_names", "is_rated", "created_at"]
    list_filter = ["status", "variant", "is_rated", "is_private"]
    list_select_related = ["variant"]
    search_fields = ["seats__user__username"]
    search_help_text = _("Search by a player's username.")
    date_hierarchy = "created_at"
    actions = ["abort"]
    inlines = [SeatInline, DealInline, MoveInline]
    fields = [
        "variant",
        "status",
        "players",
        "replay",
        "chat",
        "creator",
        "is_private",
        "is_rated",
        "turn_seconds",
        "reconnect_seconds",
        "abort_reason",
        "rules_in_words",
        "rules",
        "created_at",
        "started_at",
        "finished_at",
    ]
    readonly_fields = fields

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return super().get_queryset(request).prefetch_related("seats__user")

    # Play changes matches, not forms; a moderator's one lever is "abort".
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_abort_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("moderation.abort_match")

    @admin.display(description=_("seats"))
    def seat_names(self, match: Match) -> str:
        return ", ".join(seat.display_name for seat in match.seats.all())

    @admin.display(description=_("replay"))
    def replay(self, match: Match) -> str:
        return format_html('<a href="{}">{}</a>', replay_url(match.pk), _("Open the replay"))

    @admin.display(description=_("rules in words"))
    def rules_in_words(self, match: Match) -> str:
        return " · ".join(rule_tags(match.engine_rules, match.turn_seconds))

    @admin.display(description=_("chat"))
    def chat(self, match: Match) -> str:
        url = reverse("admin:games_chatmessage_changelist")
        return format_html('<a href="{}?match={}">{}</a>', url, match.pk, _("Chat messages"))

    @admin.action(description=_("Abort the selected running matches…"), permissions=["abort"])
    def abort(self, request: HttpRequest, queryset: QuerySet):
        def apply(data: dict) -> None:
            from games.services import abort_match

            # Read once, before any abort: the list may be filtered by status, and an
            # aborted match would drop out of a second count of it.
            selected = list(queryset)
            running = [
                m for m in selected if m.status in (Match.Status.WAITING, Match.Status.PLAYING)
            ]
            aborted = []
            for match in running:
                abort_match(match, data["reason"], by=request.user)
                aborted.append(match)
            audit.record_many(request.user, Action.ABORT_MATCH, aborted, reason=data["reason"])
            skipped = len(selected) - len(aborted)
            self.message_user(
                request,
                ngettext(
                    "%(count)d match aborted; its players were told.",
                    "%(count)d matches aborted; their players were told.",
                    len(aborted),
                )
                % {"count": len(aborted)},
                messages.SUCCESS,
            )
            if skipped:
                self.message_user(
                    request,
                    ngettext(
                        "%(count)d match was already over and was left alone.",
                        "%(count)d matches were already over and were left alone.",
                        skipped,
                    )
                    % {"count": skipped},
                    messages.WARNING,
                )

        return with_form(
            self,
            request,
            queryset,
            form_class=ReasonForm,
            title=_("Abort matches"),
            submit_label=_("Abort"),
            apply=apply,
        )


@admin.register(ServerProcess)
class ServerProcessAdmin(admin.ModelAdmin):
    """Server processes and how many player sockets each holds (the tickers keep it)."""

    list_display = ["name", "host", "pid", "started_at", "last_beat", "socket_count"]
    readonly_fields = ["name", "host", "pid", "started_at", "last_beat"]

    @admin.display(description=_("open sockets"))
    def socket_count(self, process: ServerProcess) -> int:
        return SocketPresence.objects.filter(server=process.name).count()

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False
