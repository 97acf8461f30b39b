"""The replay page: a finished deal step by step, with its review beside the moves.

History keeps the deal, its timeline and the move list; the review (its panel, the
step's note and the judgement marks in the move list) is this app's, so the page
is composed here.  Like the game list, the page answers htmx with a partial of its
own template, so each step's URL is both a page and its own fragment.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET
from django.views.decorators.vary import vary_on_headers

from games.models import Seat
from history import replay as replay_service
from history import services
from history.move_list import move_list_html, step_url
from history.views import deal_or_404, int_or_none, wants_partial

from . import panel
from .models import PlayOn
from .play_on import default_seat, may_play_on

SPEEDS = [(2000, "0.5×"), (1000, "1×"), (500, "2×"), (250, "4×")]


def replay_context(request: HttpRequest, pk: int, partial: bool) -> dict:
    deal = deal_or_404(request, pk)
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
    step = int_or_none(request.GET.get("step"))
    # A replay opens at the deal, or exactly at the step a shared link names.
    step = 0 if step is None else max(0, min(step, timeline.last))
    seat = int_or_none(request.GET.get("seat"))
    if seat is not None and not 0 <= seat < timeline.players:
        seat = None
    state = replay_service.step_state(timeline, step, seat)
    names = {s.number: s.display_name for s in seats}
    players = timeline.players
    base = reverse("analysis:replay", args=[match.pk])

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
            marks=panel.move_marks(review, timeline, seat),
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
        "result_text": result_text(deal, names),
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
        "options": panel.step_options(review, timeline, step, seat),
        "chances_now": panel.step_chances(review, step, seat, name_list),
        "share_url": None if match.is_private else request.build_absolute_uri(url(step)),
    }
    context["play_on"] = play_on_form(request, match, deal, seats, timeline, step, seat, names)
    if not partial:
        context["played_on_from"] = played_on_from(request, match)
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


def play_on_form(
    request: HttpRequest,
    match,
    deal,
    seats: list[Seat],
    timeline: replay_service.Timeline,
    step: int,
    seat: int | None,
    names: dict[int, str],
) -> dict | None:
    """The "play on from here" form of a step, for a player who may use it there."""
    if step >= timeline.last or not may_play_on(request.user, match, seats):
        return None
    position = timeline.game_at(step)
    out = set(position.out_order)
    if seat is not None and seat in out:
        return None  # The seat viewed has nothing left to play there.
    choices = [(n, names.get(n, f"#{n}")) for n in range(timeline.players) if n not in out]
    chosen = default_seat(request.user, seats, seat, [t.seat for t in position.to_act()])
    return {
        "url": reverse("analysis:play_on", args=[match.pk, deal.number]),
        "choices": choices,
        "seat": chosen if chosen not in out else choices[0][0],
        "fixed": seat is not None,
    }


def played_on_from(request: HttpRequest, match) -> dict | None:
    """Where a played-on game came from, linked when the viewer may see that replay."""
    origin = PlayOn.objects.filter(match=match).select_related("deal__match").first()
    if origin is None:
        return None
    source = origin.deal.match
    url = None
    if services.can_replay(request.user, source):
        url = step_url(
            reverse("analysis:replay", args=[source.pk]), origin.deal.number, origin.step, None
        )
    return {"match_id": source.pk, "step": origin.step, "url": url}


def result_text(deal, names: dict[int, str]) -> str:
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
    partial = wants_partial(request)
    context = replay_context(request, pk, partial)
    template = "analysis/replay.html"
    if partial:
        template += "#replay-step"
    return render(request, template, context)
