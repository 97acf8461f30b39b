"""Game lists, the replay viewer, record downloads and the leaderboard.

The replay and the game list answer htmx requests with a partial of the same
template, so each URL is both a page and its own fragment (and can be pushed
to the address bar as is).
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET
from django.views.decorators.vary import vary_on_headers

from analysis import panel
from games.models import Match, RuleVariant, Seat
from history import replay as replay_service
from history import services
from history.models import PlayerGame, RatingClass
from history.move_list import move_list_html, step_url

GAMES_PER_PAGE = 20
# Large JSON columns a list never shows.
DEFERRED = ("deal__deck", "deal__rules", "deal__result")
SPEEDS = [(2000, "0.5×"), (1000, "1×"), (500, "2×"), (250, "4×")]


def _wants_partial(request: HttpRequest) -> bool:
    htmx = getattr(request, "htmx", None)
    return bool(htmx) and not htmx.history_restore_request and not htmx.boosted


def _int(value: str | None) -> int | None:
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
    if not _wants_partial(request):
        return render(request, template, context)
    response = render(request, template + "#game-list", context)
    # The address bar gets the filters that are set, not every empty field of the form.
    if page.number > 1:
        query["page"] = page.number
    response["HX-Push-Url"] = request.path + ("?" + urlencode(query) if query else "")
    return response


def _replay_context(request: HttpRequest, pk: int, partial: bool) -> dict:
    deal = _deal_or_404(request, pk)
    match = deal.match
    seats = list(
        Seat.objects.filter(match=match)
        .select_related("user")
        .only("id", "match_id", "number", "user_id", "bot_level", "user__id", "user__username")
        .order_by("number")
    )
    if not services.can_replay(request.user, match, seats):
        raise Http404(_("No such game."))
    timeline = replay_service.timeline_for(deal)
    step = _int(request.GET.get("step"))
    # A replay opens at the deal, or exactly at the step a shared link names.
    step = 0 if step is None else max(0, min(step, timeline.last))
    seat = _int(request.GET.get("seat"))
    if seat is not None and not 0 <= seat < timeline.players:
        seat = None
    state = replay_service.step_state(timeline, step, seat)
    names = {s.number: s.display_name for s in seats}
    players = timeline.players
    base = reverse("history:replay", args=[match.pk])

    def url(step: int) -> str:
        return step_url(base, deal.number, step, seat)

    name_list = [names.get(n, f"#{n}") for n in range(players)]
    words = replay_service.moves_in_words(timeline, name_list)
    analysis_row, review = panel.stored_review(deal, name_list)

    seat_rows = []
    for number in range(players):
        seat_rows.append(
            {
                "number": number,
                "name": names.get(number, f"#{number}"),
                "hand": state["hands"][number],
                "count": state["hand_counts"][number],
                "is_attacker": state["attacker"] == number,
                "is_defender": state["defender"] == number,
                "is_out": number in state["out_order"],
                "team": services.team_of(deal.rules, number),
            }
        )
    # A seat's view lists only the moves made so far: later ones would show cards
    # that seat could not know yet.  The full list is only drawn with the page (a
    # step fragment of the face-up replay leaves it alone).
    move_list = None
    if seat is not None or not partial:
        move_list = move_list_html(
            timeline.moves if seat is None else timeline.moves[:step],
            base=base,
            deal=deal.number,
            step=step,
            seat=seat,
            oob=partial,
            words=words,
            marks=panel.move_marks(review),
        )
    current = timeline.moves[step - 1] if step else None
    context = {
        "match": match,
        "deal": deal,
        "deals": []
        if partial
        else list(match.deals.filter(status="finished").values_list("number", flat=True)),
        "timeline": timeline,
        "step": step,
        "last": timeline.last,
        "seat": seat,
        "state": state,
        "seat_rows": seat_rows,
        "move_list": None if partial else move_list,
        "oob_move_list": move_list if partial else None,
        "current": current,
        "current_words": words[step - 1] if step else "",
        "result_text": _result_text(deal, names),
        "urls": {
            "first": url(0),
            "prev": url(max(0, step - 1)),
            "next": url(min(timeline.last, step + 1)),
            "last": url(timeline.last),
            "base": base,
            "record": reverse("history:record", args=[match.pk]) + f"?deal={deal.number}",
        },
        "seat_choices": [(n, names.get(n, f"#{n}")) for n in range(players)],
        "speeds": SPEEDS,
        "note": panel.step_note(review, timeline, step, seat, name_list, url),
        "share_url": None if match.is_private else request.build_absolute_uri(url(step)),
    }
    if not partial:
        own_seat = next(
            (s.number for s in seats if s.user_id and s.user_id == request.user.pk), None
        )
        context.update(
            panel.review_panel(
                match,
                deal,
                analysis_row,
                review,
                names=name_list,
                timeline=timeline,
                url=url,
                step=step,
                seat=seat,
                own_seat=own_seat,
            )
        )
    return context


def _deal_or_404(request: HttpRequest, pk: int):
    deal = services.replay_deal(pk, _int(request.GET.get("deal")))
    if deal is not None:
        return deal
    match = get_object_or_404(Match, pk=pk)
    if not services.can_replay(request.user, match):
        # Private matches do not admit they exist to non-players.
        raise Http404(_("No such game."))
    raise Http404(_("This game has no finished deal to replay."))


def _result_text(deal, names: dict[int, str]) -> str:
    result = deal.result or {}
    if result.get("draw"):
        return _("Draw")
    if result.get("winner") is not None:
        return _("%(name)s won") % {"name": names.get(result["winner"], "?")}
    if result.get("fool") is not None:
        text = _("%(name)s is the fool") % {"name": names.get(result["fool"], "?")}
    elif result.get("fool_team") is not None:
        text = _("Team %(team)s lost") % {"team": result["fool_team"] + 1}
    else:
        return ""
    if result.get("epaulettes"):
        text += " · " + _("epaulettes: %(count)s") % {"count": result["epaulettes"]}
    return text


@require_GET
@vary_on_headers("HX-Request")
def replay(request: HttpRequest, pk: int) -> HttpResponse:
    partial = _wants_partial(request)
    context = _replay_context(request, pk, partial)
    template = "history/replay.html"
    if partial:
        template += "#replay-step"
    return render(request, template, context)


@require_GET
def record(request: HttpRequest, pk: int) -> HttpResponse:
    deal = _deal_or_404(request, pk)
    match = deal.match
    if not services.can_replay(request.user, match):
        raise Http404(_("No such game."))
    data = replay_service.timeline_for(deal).record
    response = JsonResponse(data, json_dumps_params={"indent": 1})
    filename = f"durak-{match.pk}-{deal.number}.json"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@require_GET
def leaderboard(request: HttpRequest) -> HttpResponse:
    rating_class = request.GET.get("class", RatingClass.TWO_PLAYER)
    if rating_class not in RatingClass.values:
        rating_class = RatingClass.TWO_PLAYER
    return render(
        request,
        "history/leaderboard.html",
        {
            "rating_class": rating_class,
            "classes": RatingClass.choices,
            "ratings": services.leaderboard(rating_class),
            "min_games": services.min_games(),
        },
    )
