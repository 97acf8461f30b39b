"""Game lists and record downloads (the leaderboard page is ``daily/leaderboards.py``).

The game list answers htmx requests with a partial of the same template, so its
URL is both a page and its own fragment (and can be pushed to the address bar as
is).  The replay page shows a deal's review beside its moves, so its view lives
in the analysis app (``analysis/replay_page.py``); it uses the helpers here.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET
from django.views.decorators.vary import vary_on_headers

from games.models import Match, RuleVariant
from history import replay as replay_service
from history import services
from history.models import PlayerGame

GAMES_PER_PAGE = 20
# Large JSON columns a list never shows.
DEFERRED = ("deal__deck", "deal__rules", "deal__result")


def wants_partial(request: HttpRequest) -> bool:
    htmx = getattr(request, "htmx", None)
    return bool(htmx) and not htmx.history_restore_request and not htmx.boosted


def int_or_none(value: str | None) -> int | None:
    try:
        return int(value) if value not in (None, "") else None
    except ValueError:
        return None


@require_GET
@vary_on_headers("HX-Request")
def my_games(request: HttpRequest, username: str) -> HttpResponse:
    profile_user = get_object_or_404(get_user_model(), username__iexact=username)
    filters = services.GameFilters(
        variant=request.GET.get("variant", "").strip(),
        result=request.GET.get("result", "").strip(),
        opponent=request.GET.get("opponent", "").strip(),
    )
    if filters.result not in PlayerGame.Result.values:
        filters.result = ""
    games = services.filter_games(services.visible_games(profile_user, request.user), filters)
    page = Paginator(
        games.select_related("variant", "deal").defer(*DEFERRED), GAMES_PER_PAGE
    ).get_page(request.GET.get("page"))
    services.attach_seats(list(page.object_list))
    query = {k: v for k, v in vars(filters).items() if v}
    context = {
        "profile_user": profile_user,
        "page_obj": page,
        "games": page.object_list,
        "filters": filters,
        "filter_query": urlencode(query),
        "variants": RuleVariant.objects.order_by("ordering", "name"),
        "results": PlayerGame.Result.choices,
    }
    template = "history/games.html"
    if not wants_partial(request):
        return render(request, template, context)
    response = render(request, template + "#game-list", context)
    # The address bar gets the filters that are set, not every empty field of the form.
    if page.number > 1:
        query["page"] = page.number
    response["HX-Push-Url"] = request.path + ("?" + urlencode(query) if query else "")
    return response


def deal_or_404(request: HttpRequest, pk: int):
    deal = services.replay_deal(pk, int_or_none(request.GET.get("deal")))
    if deal is not None:
        return deal
    match = get_object_or_404(Match, pk=pk)
    if not services.can_replay(request.user, match):
        # Private matches do not admit they exist to non-players.
        raise Http404(_("No such game."))
    raise Http404(_("This game has no finished deal to replay."))


@require_GET
def record(request: HttpRequest, pk: int) -> HttpResponse:
    deal = deal_or_404(request, pk)
    match = deal.match
    if not services.can_replay(request.user, match):
        raise Http404(_("No such game."))
    data = replay_service.timeline_for(deal).record
    response = JsonResponse(data, json_dumps_params={"indent": 1})
    filename = f"durak-{match.pk}-{deal.number}.json"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@require_GET
def deal_ratings(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """What a finished deal did to its players' ratings, for the table's result panel
    (204 when it changed none: an unrated game, or bots only)."""
    match = get_object_or_404(Match, pk=pk)
    if not services.can_replay(request.user, match):
        raise Http404(_("No such game."))
    rows = services.deal_ratings(match, number, request.user.pk)
    if not rows:
        return HttpResponse(status=204)
    # The table's header shows the ratings from the page's load: they move on with these.
    ratings = [(row.name, row.points) for row in rows]
    return render(request, "history/deal_ratings.html", {"rows": rows, "ratings": ratings})
