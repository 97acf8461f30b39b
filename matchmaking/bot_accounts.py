"""Turning an account into a bot account: once, by its owner, while it has no games.

The flag lives on the account (``accounts.User.is_bot``); the turning is here because
"no games" is known only above the accounts app: a seat at any table (waiting,
playing or over) or a search for one.  The rule that keeps a bot account off the
site's pages and out of the pools where people are paired is
``games.services.refuse_bot_account``; its own seeks are in the bot pool
(``bot_pool``), which ``services.pair_pool`` keeps apart from people's.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext as _

from games.models import Seat
from games.services import Refused
from games.services.common import refuse_suspended
from matchmaking.models import Seek


def _refusal(account: Any) -> Refused | None:
    """Why ``account`` (as the database holds it) may not become a bot account, if so."""
    if account.is_bot:
        return Refused(_("This account is a bot account already."), code="already_bot")
    if account.is_guest:
        return Refused(
            _("A guest account cannot become a bot account: sign up first."), code="guest"
        )
    if Seat.objects.filter(user=account).exists():
        return Refused(
            _("Only an account that has never played can become a bot account."),
            code="has_games",
        )
    if Seek.objects.filter(user=account, status=Seek.Status.WAITING).exists():
        return Refused(
            _("Stop looking for a game before making this a bot account."), code="seeking"
        )
    return None


def may_turn_into_bot(user: Any) -> bool:
    """Whether the profile offers ``user`` the change (``turn_into_bot`` still decides)."""
    return _refusal(user) is None


def turn_into_bot(user: Any) -> Any:
    """Make ``user``'s own account a bot account for good; the account as it now is.

    Refused, with nothing changed, for a guest, an account that is a bot already, or
    one that has sat at any table or is looking for a game.
    """
    refuse_suspended(user)
    with transaction.atomic():
        # The row is locked: two requests at once turn it once, the second refused.
        account = get_user_model().objects.select_for_update().get(pk=user.pk)
        refusal = _refusal(account)
        if refusal is not None:
            raise refusal
        account.is_bot = True
        account.save(update_fields=["is_bot"])
    return account
