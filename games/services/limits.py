"""How many tables one person may open: a rate per user and per address, and a cap
on their tables with bots at once.

Every bot move is a search on a bot worker, so one account opening tables of hard
bots as fast as it can click would fill the workers' queue for everyone; the bot
workers also share their searches between the tables' creators
(``timers.claim_due_bot_turn``).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import Exists, OuterRef
from django.utils.translation import ngettext

from accounts.ratelimit import count_request
from games.conf import setting
from games.models import Match, Seat
from games.services.common import Refused


def refuse_table_flood(user: Any, address: str) -> None:
    """Count a table ``user`` opens from ``address`` (the lobby's form, "Play bots",
    "Play on from here"); Refused when the user or the address opens too many
    within the window.  Call it before anything is changed."""
    window = settings.TABLE_RATE_LIMIT_WINDOW
    over = count_request(
        "tables",
        user.pk,
        address,
        per_user=settings.TABLE_RATE_LIMIT_USER,
        per_address=settings.TABLE_RATE_LIMIT_ADDRESS,
        window=window,
    )
    if over is None:
        return
    minutes = max(1, window // 60)
    if over == "user":
        message = ngettext(
            "You are opening tables too often; try again in %(minutes)d minute.",
            "You are opening tables too often; try again in %(minutes)d minutes.",
            minutes,
        )
    else:
        message = ngettext(
            "Too many tables were opened from your network; try again in %(minutes)d minute.",
            "Too many tables were opened from your network; try again in %(minutes)d minutes.",
            minutes,
        )
    raise Refused(message % {"minutes": minutes}, code="rate_limited")


def bot_tables_open(user: Any, *, besides: int | None = None) -> int:
    """The tables with a bot that ``user`` created and that wait or play (but
    ``besides``)."""
    with_bot = Seat.objects.filter(match=OuterRef("pk")).exclude(bot_level="")
    tables = Match.objects.filter(
        Exists(with_bot),
        creator=user,
        status__in=(Match.Status.WAITING, Match.Status.PLAYING),
    )
    return tables.exclude(pk=besides).count() if besides is not None else tables.count()


def refuse_bot_table_over_cap(user: Any, *, besides: int | None = None) -> None:
    """Refused when ``user`` already has the most tables with bots allowed at
    once (``GAMES_BOT_TABLES_PER_USER``), ``besides`` the table being started.

    Call it inside the transaction that opens the table: it locks the user's row, so
    two requests at once count each other's table (SQLite's writers take turns anyway).
    """
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()
    cap = setting("GAMES_BOT_TABLES_PER_USER")
    open_now = bot_tables_open(user, besides=besides)
    if open_now < cap:
        return
    raise Refused(
        ngettext(
            "You already have %(count)d table with bots open; finish, resign or leave it "
            "before you open another.",
            "You already have %(count)d tables with bots open; finish, resign or leave one "
            "of them before you open another.",
            open_now,
        )
        % {"count": open_now},
        code="bot_tables",
    )
