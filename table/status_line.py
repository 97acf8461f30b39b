"""The status line: what the table waits for, in words, for one viewer."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from durak.engine import Action
from games.models import Match
from games.move_words import names_in_words


def status_text(
    match: Match,
    view: dict[str, Any] | None,
    me: int | None,
    names: dict[int, str],
    to_act: set[int],
    on_clock: set[int],
    legal: list[Action],
) -> str:
    if match.status == Match.Status.WAITING:
        return _("Waiting for players to take the free seats.")
    if match.status == Match.Status.ABORTED:
        return _("This table was stopped: %(reason)s") % {"reason": match.abort_reason}
    if view is None or view["is_over"]:
        return _("The game is over.")
    defender = view["defender"]
    if me is not None and me in to_act:
        if me == defender:
            if any(action.kind == "transfer" for action in legal):
                return _("Your turn: beat the cards, transfer them or take them.")
            return _("Your turn: beat the cards or take them.")
        if view["phase"] == "attack":
            return _("Your turn: lead a card.")
        if me in on_clock:
            if view["phase"] == "taking":
                return _("%(name)s takes: throw in more cards or say done.") % {
                    "name": names[defender]
                }
            return _("You may throw in cards or say done.")
        # The defender still has unbeaten cards: the attackers wait for the answer.
        if any(action.kind == "attack" for action in legal):
            return _("%(name)s is defending; you may throw in cards.") % {"name": names[defender]}
        if set(on_clock) == {defender}:
            return _("Wait: %(name)s is defending.") % {"name": names[defender]}
    # Name the seats the game waits for, as the seats mark them: a defender whose cards
    # are all beaten may still take, but the game waits for the attackers.
    waited = set(on_clock or to_act)
    if view["phase"] == "attack" and waited <= {view["attacker"]}:
        return _("%(name)s leads.") % {"name": names[view["attacker"]]}
    if waited == {defender}:
        return _("%(name)s is defending.") % {"name": names[defender]}
    waiting = names_in_words([names[s] for s in sorted(waited)])
    if view["phase"] == "taking":
        if me == defender:
            return _("You take the cards; %(names)s may throw in more.") % {"names": waiting}
        return _("%(name)s takes the cards; waiting for %(names)s.") % {
            "name": names[defender],
            "names": waiting,
        }
    return _("Waiting for %(names)s.") % {"names": waiting}
