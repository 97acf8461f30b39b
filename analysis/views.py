from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.ratelimit import client_ip
from durak.engine import Action
from games.links import table_url
from games.models import Deal, Match, Seat
from games.services import Refused
from history.replay import action_in_words

from . import hints, panel, services
from . import learn as learning
from . import play_on as play_on_service


@login_required
@require_POST
def hint(request: HttpRequest, match_id: int) -> HttpResponse:
    """Ask for the hard bot's suggestion for the asking player's seat.

    A bot worker searches it: the answer is 202 with the address to read it from
    (``hint_answer``), which htmx polls.  The table's socket asks the same way and
    gets the answer pushed (``analysis.hints``).
    """
    try:
        asked = hints.request_hint(match_id, request.user)
    except Refused as refused:
        if request.htmx:
            return HttpResponse(hints.render_hint(error=str(refused)), status=refused.status)
        return JsonResponse({"error": str(refused)}, status=refused.status)
    return _hint_pending(request, match_id, asked.pk)


def _hint_pending(request: HttpRequest, match_id: int, hint_id: int) -> HttpResponse:
    url = reverse("analysis:hint_answer", args=[match_id, hint_id])
    if request.htmx:
        html = render_to_string("analysis/hint.html", {"pending": url}, request=request)
        response = HttpResponse(html, status=202)
    else:
        response = JsonResponse({"answer": url}, status=202)
    response["Location"] = url
    return response


@login_required
@require_GET
def hint_answer(request: HttpRequest, match_id: int, hint_id: int) -> HttpResponse:
    """The hint's answer once a bot worker found it (202 until then); the asker's only."""
    answered = hints.answered_hint(hint_id, request.user.pk)
    if answered is None or answered.match_id != match_id:
        if hints.hint_exists(hint_id, request.user.pk):
            return _hint_pending(request, match_id, hint_id)
        raise Http404(_("No such hint."))
    if request.htmx:
        return HttpResponse(hints.render_answer(answered))
    if not answered.action:
        return JsonResponse({"error": hints.answer_error()}, status=409)
    action = Action.parse(answered.action)
    return JsonResponse({"action": str(action), "kind": action.kind, "cards": list(action.cards)})


def _int(value: str | None) -> int | None:
    try:
        return int(value) if value not in (None, "") else None
    except ValueError:
        return None


def _replayable(request: HttpRequest, match_id: int, deal_number: int) -> tuple[Match, Deal]:
    from history.services import can_replay

    match = get_object_or_404(Match, pk=match_id)
    if not can_replay(request.user, match):
        raise Http404(_("No such game."))
    deal = get_object_or_404(Deal, match=match, number=deal_number)
    return match, deal


def _names(match: Match, players: int) -> list[str]:
    names = {
        s.number: s.display_name for s in Seat.objects.filter(match=match).select_related("user")
    }
    return [names.get(n, f"#{n}") for n in range(players)]


@require_http_methods(["GET", "POST"])
def deal_analysis(request: HttpRequest, match_id: int, deal_number: int) -> HttpResponse:
    """GET: the review panel (progress, or the review). POST: queue the analysis."""
    from history.move_list import step_url
    from history.replay import timeline_for

    match, deal = _replayable(request, match_id, deal_number)
    error = None
    status = 200
    if request.method == "POST":
        if not request.user.is_authenticated:
            return JsonResponse({"error": _("Log in to analyse a game.")}, status=403)
        try:
            services.start_analysis(deal, request.user, client_ip(request) or None)
        except Refused as refused:
            # htmx swaps only 2xx answers; the panel carries the refusal itself.
            error, status = str(refused), 200 if request.htmx else refused.status
    if deal.status != Deal.Status.FINISHED:
        raise Http404(_("This game has no finished deal to replay."))
    timeline = timeline_for(deal)
    names = _names(match, timeline.players)
    seat = _int(request.GET.get("seat"))
    if seat is not None and not 0 <= seat < timeline.players:
        seat = None
    step = max(0, min(_int(request.GET.get("step")) or 0, timeline.last))
    base = reverse("analysis:replay", args=[match.pk])
    row, review = panel.stored_review(deal, names)
    own_seat = Seat.objects.filter(match=match, user_id=request.user.pk or -1).first()
    context = panel.review_panel(
        match,
        deal,
        row,
        review,
        names=names,
        timeline=timeline,
        url=lambda k: step_url(base, deal.number, k, seat),
        step=step,
        seat=seat,
        own_seat=own_seat.number if own_seat else None,
    )
    context["error"] = error
    response = render(request, "analysis/review.html", context, status=status)
    if review is not None and request.htmx and (request.method == "POST" or "poll" in request.GET):
        # The move list and the board's notes come with the page: load it again.
        response["HX-Refresh"] = "true"
    return response


@login_required
@require_http_methods(["GET", "POST"])
def learn(request: HttpRequest, match_id: int, deal_number: int) -> HttpResponse:
    """Step through the asking player's own mistakes, seen from their seat: they pick the
    move they would play now, and learn whether it is as good as the best one."""
    from history.replay import step_state, timeline_for

    match, deal = _replayable(request, match_id, deal_number)
    seat = Seat.objects.filter(match=match, user_id=request.user.pk).first()
    if seat is None or deal.status != Deal.Status.FINISHED:
        raise Http404(_("Only the players of a finished game can learn from its mistakes."))
    timeline = timeline_for(deal)
    names = _names(match, timeline.players)
    review = panel.stored_review(deal, names)[1]
    mistakes = review.mistakes_of(seat.number) if review is not None else []
    if not mistakes:
        raise Http404(_("This game has no mistake of yours to learn from."))
    number = max(
        0, min(_int(request.GET.get("n") or request.POST.get("n")) or 0, len(mistakes) - 1)
    )
    decision = mistakes[number]
    # The position as this seat saw it: the engine's own view of the seat.
    view = timeline.game_at(decision.step).view(seat.number)
    feedback = None
    if request.method == "POST":
        try:
            feedback = learning.judge_try(decision, request.POST, view, names)
        except learning.NotAMove:
            return HttpResponse(_("That is not a move you could play there."), status=400)
    state = step_state(timeline, decision.step, seat.number)
    playable = learning.playable_cards(decision)
    base = reverse("analysis:learn", args=[match.pk, deal.number])
    context = {
        "match": match,
        "deal": deal,
        "decision": decision,
        "number": number,
        "total": len(mistakes),
        "state": state,
        "seat": seat.number,
        "names": names,
        "opponents": [
            {"number": s, "name": names[s], "count": state["hand_counts"][s]}
            for s in range(timeline.players)
            if s != seat.number
        ],
        "hand": [{"code": c, "playable": c in playable} for c in state["hands"][seat.number]],
        "cardless": learning.cardless_moves(decision, view),
        "played": action_in_words(timeline, decision.step, decision.action, names),
        "feedback": feedback,
        "url": f"{base}?n={number}",
        "next_url": f"{base}?n={number + 1}" if number + 1 < len(mistakes) else None,
        "replay_url": reverse("analysis:replay", args=[match.pk])
        + f"?deal={deal.number}&step={decision.step}&seat={seat.number}",
    }
    template = "analysis/learn.html"
    if request.htmx and not request.htmx.boosted:
        template += "#learn-puzzle"
    return render(request, template, context)


@login_required
@require_GET
def result_accuracy(request: HttpRequest, match_id: int, deal_number: int) -> HttpResponse:
    """The asking player's accuracy in a finished deal, for the table's result panel
    (204 while the deal has no finished analysis, or the asker no seat in it)."""
    match, deal = _replayable(request, match_id, deal_number)
    seat = Seat.objects.filter(match=match, user_id=request.user.pk).first()
    review = panel.stored_review(deal, _names(match, match.players))[1]
    player = (
        next((p for p in review.players if seat is not None and p.seat == seat.number), None)
        if review is not None
        else None
    )
    if player is None or player.accuracy is None:
        return HttpResponse(status=204)
    return render(request, "analysis/result_accuracy.html", {"accuracy": player.accuracy})


@login_required
@require_POST
def play_on(request: HttpRequest, match_id: int, deal_number: int) -> HttpResponse:
    """Open a new unrated table that continues the deal's step against the hard bot."""
    try:
        new = play_on_service.play_on(
            request.user,
            match_id,
            deal_number,
            request.POST.get("step"),
            request.POST.get("seat"),
            address=client_ip(request),
        )
    except Refused as refused:
        return render(
            request,
            "analysis/play_on_refused.html",
            {"error": str(refused)},
            status=refused.status,
        )
    return redirect(table_url(new.pk))
