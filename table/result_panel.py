"""The result panel's content: who lost, how the game ended, and the rematch."""

from __future__ import annotations

from typing import Any

from games.models import Deal, Match, Seat
from games.move_words import describe_action, names_in_words


def result_panel(
    match: Match,
    view: dict[str, Any],
    names: dict[int, str],
    me: int | None,
    game: Any,
    seats: list[Seat],
) -> dict[str, Any]:
    """What the result panel shows of a finished game to the viewer in seat ``me``."""
    result = view["result"] or {}
    fool = result.get("fool")
    winner = result.get("winner")
    fool_team = result.get("fool_team")
    teams = view.get("teams")
    deal = match.live_deal
    history = game.history if game is not None else []
    asked = [names[s.number] for s in seats if s.wants_rematch and s.number != me]
    return {
        "my_team_lost": None
        if fool_team is None or teams is None or me is None
        else teams[me] == fool_team,
        "fool_team_names": names_in_words(
            [names[seat] for seat in sorted(names) if teams and teams[seat] == fool_team]
        ),
        "last_move": describe_action(history[-1], names) if history else "",
        "draw": bool(result.get("draw")),
        "fool": names.get(fool) if fool is not None else None,
        "fool_is_me": fool is not None and fool == me,
        "fool_team": result.get("fool_team"),
        "winner": names.get(winner) if winner is not None else None,
        "epaulettes": range(result.get("epaulettes") or 0),
        # A game played to its end says so by its outcome; only another ending is named.
        "end_reason": deal.get_end_reason_display()
        if deal and deal.end_reason and deal.end_reason != Deal.EndReason.NORMAL
        else "",
        "deal_number": deal.number if deal else 1,
        # A fixed deal (a seed) is played once: the rematch would deal it again.
        "can_rematch": me is not None
        and match.status == Match.Status.FINISHED
        and not match.seed
        and not seats[me].wants_rematch,
        # A rematch starts once every person asked: who did, and whom the asker waits for.
        "rematch_asked": names_in_words(asked),
        "rematch_asked_count": len(asked),
        "rematch_awaited": names_in_words(
            [names[s.number] for s in seats if s.user_id and not s.wants_rematch]
        )
        if me is not None and seats[me].wants_rematch
        else "",
    }
