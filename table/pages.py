"""The lobby and the table page (``table:lobby``, ``table:create``, ``table:live``,
``table:table``): the stored tables, shown with the "Play now" panel and house rules
(matchmaking), each player's reliability and rating (history) and the friends panel
(friends).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import Prefetch, QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.views.decorators.http import require_POST

from accounts.ratelimit import client_ip
from arena.berserk import berserk_offered
from arena.lobby import lobby_arenas
from arena.table_link import arena_of
from friends import services as friends
from friends.blocks import tables_hidden_from
from games.models import Match, RuleVariant, Seat
from games.services import Refused, refuse_bot_account, refuse_table_flood
from history import glicko2
from history.models import Rating
from history.services import rating_class_for
from matchmaking import services as matchmaking
from matchmaking.forms import HouseRulesForm
from matchmaking.house_rules import allowed_choices, match_tags, table_name, table_rules
from matchmaking.views import panel_context
from table import rendering
from table.forms import CreateTableForm


def lobby_context(user) -> dict:
    """The lobby's pieces above the games app: the "Play now" panel, the friends panel,
    and the choices each variant allows."""
    return {
        **panel_context(user),
        **friends.panel(user),
        # What the variants' house rule bounds allow, for the forms to grey out the rest.
        "house_choices": allowed_choices(),
        # What each variant's "As in the variant" keeps, for the form to name it.
        "house_kept": {
            str(variant.pk): HouseRulesForm().kept_labels(variant)
            for variant in RuleVariant.objects.filter(is_active=True)
        },
        "seek_choices": matchmaking.seek_choices(),
    }


def table_extras(match, user, *, seated: bool) -> dict:
    """The table page's pieces above the games app: each player's reliability (the one
    kept on the user's row), at a rated table each player's rating in its class, and
    the friends a seated player may invite while the table waits."""
    players = [s.user for s in match.seats.select_related("user") if s.user_id]
    extras = {"reliabilities": [(u.username, u.reliability) for u in players]}
    if match.is_rated and players:
        extras["ratings"] = player_ratings(match, players)
    if seated and match.status == Match.Status.WAITING:
        extras["invitable"] = friends.friends_present(user)
    return extras


def player_ratings(match, players: list) -> list[tuple[str, int]]:
    """(name, rating) per player in the table's rating class (bot accounts' own at a
    table of bot accounts only); a player never rated there starts at Glicko-2's 1500."""
    rating_class = rating_class_for(match.rules, bot_accounts=all(u.is_bot for u in players))
    ratings = dict(
        Rating.objects.filter(user__in=players, rating_class=rating_class).values_list(
            "user_id", "rating"
        )
    )
    return [(u.username, round(ratings.get(u.pk, glicko2.DEFAULT_RATING))) for u in players]


def _public_queryset(viewer: Any, status: str) -> QuerySet[Match]:
    """Public tables of ``status`` that ``viewer`` may open (none where a seated player
    blocked them), with their seats and variants."""
    seats = Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("number"))
    tables = Match.objects.filter(status=status, is_private=False)
    if viewer is not None and viewer.is_authenticated:
        tables = tables.exclude(pk__in=tables_hidden_from(viewer))
    return tables.select_related("variant").prefetch_related(seats)


def _labelled(tables: list[Match]) -> list[Match]:
    """``tables``, each named in the reader's words as its house rules play it."""
    for table in tables:
        table.variant_label = table_name(table.variant, table.engine_rules)
    return tables


def _public_tables(viewer: Any, status: str, order: tuple[str, ...], count: int) -> list[Match]:
    """The first ``count`` of ``_public_queryset``, with the variant in the reader's words."""
    return _labelled(list(_public_queryset(viewer, status).order_by(*order)[:count]))


def open_tables(viewer: Any = None) -> list[Match]:
    tables = _public_tables(viewer, Match.Status.WAITING, ("-created_at",), 50)
    for table in tables:
        table.taken = len([s for s in table.seats.all() if s.user_id or s.bot_level])
    # Reliability by each name, and the rules (house rules, least reliability) as tags.
    matchmaking.describe_open_tables(tables)
    return tables


# How many games in progress the lobby lists, newest first; the rest are a page of
# their own, so many at a page.
LIVE_TABLES = 10
LIVE_PAGE = 25
LIVE_ORDER = ("-started_at", "-pk")


def _with_people(tables: list[Match], viewer: Any) -> list[Match]:
    me = viewer.pk if viewer is not None and viewer.is_authenticated else None
    for table in tables:
        seats = table.seats.all()
        table.people = [(s.display_name, bool(s.user_id and s.user.is_bot)) for s in seats]
        table.mine = me is not None and any(s.user_id == me for s in seats)
    return tables


def live_tables(viewer: Any = None) -> dict[str, Any]:
    """The lobby's public tables in play, for anyone to watch (a private one is its
    players' own), and whether there are more than it lists."""
    tables = _public_tables(viewer, Match.Status.PLAYING, LIVE_ORDER, LIVE_TABLES + 1)
    return {
        "live_tables": _with_people(tables[:LIVE_TABLES], viewer),
        "live_more": len(tables) > LIVE_TABLES,
    }


def live_games(request: HttpRequest) -> HttpResponse:
    """Every public game in progress, newest first, a page at a time."""
    tables = _public_queryset(request.user, Match.Status.PLAYING).order_by(*LIVE_ORDER)
    page = Paginator(tables, LIVE_PAGE).get_page(request.GET.get("page"))
    shown = _with_people(_labelled(list(page.object_list)), request.user)
    return render(request, "table/live_games.html", {"page": page, "live_tables": shown})


def render_open_tables(viewer: Any) -> str:
    """The lobby's push to ``viewer``: the open tables, the games in progress and the
    live counts."""
    tables = render_to_string("table/lobby.html#open-tables", {"tables": open_tables(viewer)})
    live = render_to_string("table/lobby.html#live-tables", live_tables(viewer))
    counts = render_to_string(
        "matchmaking/lobby_counts.html", {"counts": matchmaking.lobby_counts(), "oob": True}
    )
    return tables + live + counts


def _my_tables(user) -> list[Match]:
    if not user.is_authenticated:
        return []
    return _labelled(
        list(
            Match.objects.filter(seats__user=user)
            .exclude(status=Match.Status.ABORTED)
            .select_related("variant")
            .order_by("-created_at")[:10]
        )
    )


def _shown_variant(form: CreateTableForm) -> Any:
    """The variant the new-table form shows chosen: the posted one, else the first."""
    chosen = form["variant"].value()
    offered = form.fields["variant"].queryset
    return offered.filter(pk=chosen).first() if str(chosen).isdigit() else offered.first()


def _house_form(form: CreateTableForm, data: Any = None) -> HouseRulesForm:
    """The house rules form beside ``form``: only choices some variant allows, each
    "As in the variant" naming the shown variant's rule."""
    return HouseRulesForm(data, variant=_shown_variant(form), offered=allowed_choices())


def lobby(
    request: HttpRequest,
    form: CreateTableForm | None = None,
    house: HouseRulesForm | None = None,
) -> HttpResponse:
    form = form or CreateTableForm()
    context = {
        "tables": open_tables(request.user),
        **live_tables(request.user),
        "my_tables": _my_tables(request.user),
        "form": form,
        "house_form": house or _house_form(form),
        "counts": matchmaking.lobby_counts(),
        # The arenas running and the next ones, in one query.
        "lobby_arenas": lobby_arenas(),
    }
    if request.user.is_authenticated:
        context.update(lobby_context(request.user))
    status = 400 if form.is_bound else 200
    return render(request, "table/lobby.html", context, status=status)


@login_required
@require_POST
def create_table(request: HttpRequest) -> HttpResponse:
    form = CreateTableForm(request.POST)
    house = _house_form(form, request.POST)
    if not (form.is_valid() and house.is_valid()):
        return lobby(request, form, house)
    variant, players = form.cleaned_data["variant"], form.cleaned_data["players"]
    try:
        refuse_bot_account(request.user)  # a bot account opens tables through the API
        refuse_table_flood(request.user, client_ip(request))
        rules, turn_seconds = table_rules(variant, players, house.cleaned_data)
        match = matchmaking.create_table(
            request.user,
            variant,
            players,
            is_private=form.cleaned_data["is_private"],
            bots=form.cleaned_data["bots"],
            bot_speed=form.cleaned_data["bot_speed"],
            rules=rules,
            turn_seconds=turn_seconds,
            min_reliability=house.cleaned_data["min_reliability"],
        )
    except Refused as refused:
        # A house rule refused is said among the house rules, their box kept open.
        (house if refused.code == "house_rules" else form).add_error(None, refused.message)
        return lobby(request, form, house)
    return redirect("table:table", match.pk)


@login_required
def table(request: HttpRequest, match_id: int) -> HttpResponse:
    match = get_object_or_404(Match.objects.select_related("variant", "live_deal"), pk=match_id)
    viewer = rendering.viewer_for(match, request.user)
    if viewer is None:
        raise Http404
    context = rendering.table_context(match, viewer)
    # Named and tagged as its house rules play it ("perevodnoy · 24 cards · 30 s a move").
    context["variant_name"] = table_name(match.variant, match.engine_rules)
    context["rule_tags"] = match_tags(match)
    context["ws_url"] = f"/ws/games/{match.pk}/"
    context["can_join"] = viewer.seat is None and match.status == Match.Status.WAITING
    context["can_berserk"] = berserk_offered(match, viewer.seat)
    context["arena"] = arena_of(match)
    context.update(table_extras(match, request.user, seated=viewer.seat is not None))
    context["reportable_players"] = [
        seat.user
        for seat in match.seats.select_related("user").exclude(user=None)
        if seat.user_id != request.user.pk
    ]
    return render(request, "table/table.html", context)
