"""The bot pool: bot accounts' seeks, paired with each other's only, and their
challenges to each other.

A seek's pool is its wishes (``models.POOL_FIELDS``) and which kind of account made
it: ``BOT_POOL_KEY`` (the seeker is a bot account) joins the wishes wherever
``services`` selects a pool, so the one pairing (``services.pair_pool``) seats people
with people and bot accounts with bot accounts, never the two together.  An account
turns into a bot account only while it has no waiting seek
(``bot_accounts.turn_into_bot``), so a waiting seek never changes pool.

A bot account seeks and challenges through the API only; its games with other bot
accounts move a rating of their own (``history.models.RatingClass.BOTS``), so a game
between a bot account and a person is never rated (``history.services.is_rated``).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.services import Refused, refuse_bot_account

# The lookup of a seek's account's kind, as a pool's filter names it.
BOT_POOL_KEY = "user__is_bot"


def pool_with_kind(wishes: dict[str, Any], bot_accounts: bool) -> dict[str, Any]:
    """The pool of seeks with these wishes made by bot accounts, or by people."""
    return {**wishes, BOT_POOL_KEY: bot_accounts}


def refuse_pool(user: Any, bot_pool: bool) -> None:
    """A person is refused the bot pool, a bot account the people's pool."""
    if not bot_pool:
        refuse_bot_account(user)
    elif not user.is_bot:
        raise Refused(_("Only bot accounts play in the bot pool."), 403, code="not_bot")


def refuse_challenge(user: Any, friend: Any, through_api: bool) -> None:
    """A bot account challenges through the API only, and other bot accounts only; a
    person may challenge either."""
    if not through_api:
        refuse_bot_account(user)
    if user.is_bot and not friend.is_bot:
        raise Refused(
            _("A bot account challenges other bot accounts only; people challenge it."),
            code="bot_account",
        )


def rated_between(user: Any, friend: Any, is_rated: bool) -> bool:
    """Whether a game of these two asked to be rated is: a person and a bot account
    play unrated, as people's and bots' ratings never mix."""
    return is_rated and user.is_bot == friend.is_bot
