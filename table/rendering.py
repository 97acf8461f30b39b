"""What one viewer sees of a table: the template context shared by the page and the pushes.

Everything here reads the engine's ``view(seat)`` of the viewer, never another seat's
hand, so a rendered fragment holds only cards the viewer may know.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.template.loader import get_template
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from cards.faces import SUIT_SYMBOLS, back_html, card_html, card_label
from durak.engine import Action
from friends.blocks import watching_refused
from games import services
from games.bot_strength import bot_choices
from games.hint_rules import table_refusal
from games.lru import LruCache
from games.models import ChatMessage, Match, Seat
from games.services import clock
from games.table_reads import Table, load, rules_allow_hints
from games.variant_words import variant_name
from table.hand_order import by_rank, by_suit
from table.result_panel import result_panel
from table.seating import places, seat_label, team_legend
from table.status_line import status_text

MAX_BACKS = 8
# What each partial of a seat shows of the seat's row (see ``shared_render``).
WHO_KEYS = ("is_bot", "team", "hue", "initials", "short_name", "connected", "level", "reliability")
BADGE_KEYS = ("acting", "is_attacker", "is_defender", "said_done", "is_out", "connected", "fools")
ME_KEYS = ("acting", "team", "is_attacker", "is_defender", "is_out", "fools")


def _shows(row: dict[str, Any], keys: tuple[str, ...]) -> tuple[Any, ...]:
    return tuple(row[key] for key in keys)


def card(code: str) -> dict[str, Any]:
    """Display data of a card, with its HTML from the one card renderer."""
    return dict(_card(code, get_language()))


@lru_cache(maxsize=512)
def _card(code: str, language: str | None) -> dict[str, Any]:
    # Built once per card and language: a push shows dozens of cards.
    return {
        "code": code,
        "suit": SUIT_SYMBOLS[code[1]],
        "red": code[1] in "DH",
        "label": card_label(code),
        "html": card_html(code),
    }


@dataclass
class Viewer:
    """Who is looking: a seat number, or None for a spectator."""

    user_id: int | None
    seat: int | None


class AccessEnded(Exception):
    """The viewer may no longer watch this table (a private one whose seat they left)."""

    def __init__(self) -> None:
        super().__init__(_("You no longer have a seat at this private table."))
        self.message = str(self)


def viewer_for(match: Match, user: Any) -> Viewer | None:
    """The viewer's seat, None-seated for a spectator; None when they may not look."""
    if not getattr(user, "is_authenticated", False):
        return None
    seat = Seat.objects.filter(match=match, user=user).values_list("number", flat=True).first()
    if seat is None and match.is_private:
        return None
    if seat is None and watching_refused(match, user):  # a player there blocked them
        return None
    return Viewer(user.pk, seat)


def check_access(match: Match, seats: list[Seat], viewer: Viewer) -> None:
    """Raise AccessEnded unless the viewer may still watch: a private table shows
    itself to its seated players only, and a socket opened while seated must not keep
    watching after its user left."""
    if match.is_private and not any(s.user_id == viewer.user_id for s in seats):
        raise AccessEnded


def _epoch_ms(value: Any) -> int | None:
    return int(value.timestamp() * 1000) if value else None


def _seat_deadlines(
    match: Match, seats: list[Seat], game: Any, on_clock: set[int], deadline: int | None
) -> dict[int, int | None]:
    """Each seat's clock, in epoch ms: one seat the game waits for ends at the table's
    deadline; several at once (attackers asked whether they are done) each at its own,
    as the timer ends them (a berserker's sooner than the others')."""
    if len(on_clock) < 2:
        return {number: deadline for number in on_clock}
    ends = clock.seat_deadlines(match, seats, game)
    return {number: _epoch_ms(ends.get(number)) or deadline for number in on_clock}


def table_context(
    match: Match,
    viewer: Viewer,
    *,
    with_chat: bool = True,
    seats: list[Seat] | None = None,
    game: Any = None,
) -> dict[str, Any]:
    if seats is None:
        seats = services.load_seats(match.pk)
        game = services.load_game(match)
    me = viewer.seat
    if me is not None and not any(s.number == me and s.user_id == viewer.user_id for s in seats):
        # The seat changed hands since the viewer's socket opened: it shows only what
        # a spectator sees, never the new occupant's hand.
        me = None
    view = game.view(me) if game is not None else None
    playing = match.status == Match.Status.PLAYING
    legal = [Action.parse(t) for t in view.get("legal", [])] if view and playing else []
    to_act = set(view["to_act"]) if view and playing else set()
    # The clock runs only on seats the game waits for; an attacker who may still throw
    # in while the defender has unbeaten cards has nothing it must do, so no clock.
    on_clock = set(clock.required_seats(game)) if game is not None and playing else set()
    deadline = _epoch_ms(match.turn_deadline) if playing else None
    seat_deadline = _seat_deadlines(match, seats, game, on_clock, deadline)

    seat_rows = []
    for seat in seats:
        count = view["hand_counts"][seat.number] if view else 0
        seat_rows.append(
            {
                "number": seat.number,
                "name": seat.display_name if (seat.user_id or seat.bot_level) else _("Free seat"),
                **seat_label(seat),
                "is_empty": not (seat.user_id or seat.bot_level),
                "is_bot": seat.is_bot,
                "is_me": seat.number == me,
                "team": seat.team,
                "count": count,
                # Repeating a SafeString gives a plain str, so mark the result again.
                "back_cards": mark_safe(back_html() * min(count, MAX_BACKS)),
                "is_attacker": bool(view) and playing and view["attacker"] == seat.number,
                "is_defender": bool(view) and playing and view["defender"] == seat.number,
                "to_act": seat.number in to_act,
                # Marked as acting only while the game waits for the seat: a player who
                # may throw in but need not is not what the table waits for.
                "acting": seat.number in on_clock,
                "is_out": bool(view) and seat.number in view["out"],
                "said_done": bool(view) and playing and seat.number in view["done"],
                "connected": seat.is_bot
                or (bool(seat.user_id) and seat.disconnected_since is None),
                "fools": seat.fools,
                "deadline": seat_deadline.get(seat.number),
            }
        )
    # Seats go round the table starting after the viewer, so "you" sit at the bottom.
    start = (me + 1) if me is not None else 0
    others = [row for row in seat_rows[start:] + seat_rows[:start] if not row["is_me"]]
    for row, place in zip(others, places(len(others), spectator=me is None), strict=True):
        row["place"] = place
        # Who sits there, their cards and badges repeat from move to move and table to
        # table: each is rendered once per process for what it shows.
        row["who"] = shared_render("seat-who", _shows(row, WHO_KEYS), {"s": row})
        row["backs"] = shared_render("seat-backs", (row["count"],), {"s": row})
        row["badges"] = shared_render("seat-badges", _shows(row, BADGE_KEYS), {"s": row})
    if me is not None:
        my_row = seat_rows[me]
        my_row["me"] = shared_render("me", _shows(my_row, ME_KEYS), {"my_row": my_row})

    hand = []
    controls: dict[str, Any] = {"simple": [], "multi": [], "transfers": [], "shows": []}
    if view and me is not None and view["hand"] is not None:
        by_card: dict[str, dict[str, Any]] = {
            code: {**card(code), "lead": "", "transfer": "", "beats": []} for code in view["hand"]
        }
        for action in legal:
            if action.kind == "attack":
                if len(action.cards) == 1:
                    by_card[action.cards[0]]["lead"] = str(action)
                else:
                    controls["multi"].append(
                        {"action": str(action), "cards": [card(c) for c in action.cards]}
                    )
            elif action.kind == "defend":
                by_card[action.cards[1]]["beats"].append(action.cards[0])
            elif action.kind == "transfer":
                if len(action.cards) == 1:
                    by_card[action.cards[0]]["transfer"] = str(action)
                controls["transfers"].append(
                    {"action": str(action), "cards": [card(c) for c in action.cards]}
                )
            elif action.kind == "show":
                controls["shows"].append(
                    {"action": str(action), "cards": [card(c) for c in action.cards]}
                )
            else:
                controls["simple"].append({"action": str(action), "kind": action.kind})
        # The hand lies by suit, trumps at the right; each card also carries its place
        # by rank, so that the page can lay it out that way if the player chose so.
        trump_suit = view["trump"][1]
        rank_places = {code: n for n, code in enumerate(by_rank(view["hand"], trump_suit))}
        for code in by_suit(view["hand"], trump_suit):
            entry = by_card[code]
            entry["rank_place"] = rank_places[code]
            entry["beats"] = " ".join(entry["beats"])
            entry["playable"] = bool(entry["lead"] or entry["beats"] or entry["transfer"])
            shows = (code, entry["lead"], entry["beats"], entry["transfer"], entry["playable"])
            entry["button"] = shared_render("hand-card", shows, {"c": entry})
            hand.append(entry)
    can_resign = playing and me is not None and view is not None and me not in view["out"]

    table = []
    if view:
        for attack, defence in view["table"]:
            table.append({"attack": card(attack), "defence": card(defence) if defence else None})

    names = {row["number"]: row["name"] for row in seat_rows}
    is_creator = viewer.user_id == match.creator_id
    waiting = match.status == Match.Status.WAITING
    free_seats = sum(1 for row in seat_rows if row["is_empty"]) if waiting else 0
    context: dict[str, Any] = {
        "match": match,
        "variant_name": variant_name(match.variant),
        "version": match.version,
        "now_ms": int(time.time() * 1000),
        "me": me,
        "is_player": me is not None,
        "is_creator": is_creator,
        "playing": playing,
        "waiting": waiting,
        "finished": match.status == Match.Status.FINISHED,
        "aborted": match.status == Match.Status.ABORTED,
        "view": view,
        "seats": seat_rows,
        "others": others,
        "team_legend": team_legend(seat_rows),
        "my_row": seat_rows[me] if me is not None else None,
        "hand": hand,
        "controls": controls,
        "can_resign": can_resign,
        # A hint only when there is a move to hint at (not while the player waits),
        # and only where a request is taken (``games.hint_rules``: not at a rated
        # table, a fixed deal or an arena's).
        "can_hint": bool(legal)
        and me is not None
        and table_refusal(match) is None
        and rules_allow_hints(match),
        "table": table,
        "trump": card(view["trump"]) if view else None,
        "deadline": deadline,
        # The status names seats as the seats show them ("Bot 6"), in two lines at most.
        "status_text": status_text(
            match,
            view,
            me,
            {r["number"]: r["short_name"] for r in seat_rows},
            to_act,
            on_clock,
            legal,
        ),
        "result": result_panel(match, view, names, me, game, seats)
        if view and view["is_over"]
        else None,
        # The host may start at once, bots taking the seats nobody took.
        "free_seats": free_seats,
        "bot_choices": bot_choices() if free_seats and is_creator else (),
        "bots_unrate": match.is_rated and not match.variant.rates_a_table(with_bots=True),
        "invite_url": reverse("table:join_by_token", args=[match.invite_token])
        if match.is_private and match.status == Match.Status.WAITING
        else "",
    }
    if with_chat:
        context["chat"] = services.visible_chat(match, seated=me is not None)
        context["chat_channel"] = _("Players") if me is not None else _("Spectators")
        context["phrases"] = ChatMessage.Phrase.choices
    return context


PARTIALS = "table/partials.html#"
CHAT_TEMPLATE = PARTIALS + "chat"
ERROR_TEMPLATE = PARTIALS + "error"
# The pieces of the table in page order, each one partial of table/partials.html that
# the page includes on first load and a push sends again.  "version" and "hint" go
# with every render: the version says what the page shows, and a new version makes
# any hint stale.
PIECES = (
    "rated",
    "waiting",
    "hint",
    "version",
    "status",
    "seats",
    "felt",
    "hand",
    "controls",
    "result",
)
ALWAYS_SENT = ("hint", "version")


def _template(name: str) -> Any:
    # In production, skip looking the template up again for every push.
    return get_template(name) if settings.DEBUG else _compiled(name)


@lru_cache(maxsize=16)
def _compiled(name: str) -> Any:
    return get_template(name)


def piece_inputs(context: dict[str, Any]) -> dict[str, Any]:
    """What each piece's partial reads from a table context, piece by piece.

    Two renders of a piece from equal inputs give the same HTML, so a page that
    already shows a piece rendered from these inputs needs no new copy of it.
    """
    match = context["match"]
    my_row = context["my_row"] or {}
    return {
        "rated": match.is_rated,
        "waiting": (
            context["waiting"],
            context["invite_url"],
            context["is_player"],
            context["is_creator"],
            match.is_private,
            context["free_seats"],
            context["bots_unrate"],
        ),
        "status": (context["status_text"], context["playing"], my_row.get("deadline")),
        "seats": (context["others"], context["team_legend"]),
        "felt": _felt_inputs(context),
        # The viewer's own row changes on most moves (its clock, its count); the hand
        # shows only its "me" partial of it, and the controls none.
        "hand": (context["is_player"], my_row.get("me"), context["hand"]),
        "controls": (
            context["controls"],
            context["me"],
            context["playing"],
            match.is_rated,
            context["can_resign"],
            context["can_hint"],
        ),
        "result": (
            context["result"],
            context["aborted"],
            match.abort_reason,
            match.is_rated,
            [(row["name"], row["fools"]) for row in context["seats"]],
        ),
    }


def _felt_inputs(context: dict[str, Any]) -> tuple[Any, ...]:
    view = context["view"]
    trump = context["trump"]
    return (
        trump["code"] if trump else None,
        view["talon"] if view else None,
        view["discard"] if view else None,
        tuple(
            (pair["attack"]["code"], pair["defence"]["code"] if pair["defence"] else None)
            for pair in context["table"]
        ),
        context["playing"],
    )


# Some HTML shows only what its key says, whoever looks: the felt of a version (public
# cards), a card in a hand with the moves it may make.  Each process renders it once
# per language and key and shares it among viewers and versions.
SHARED_KEPT = 4096
_shared: LruCache[tuple[Any, ...], str] = LruCache(SHARED_KEPT)


def shared_render(partial: str, key: tuple[Any, ...], context: dict[str, Any]) -> str:
    """The partial of table/partials.html rendered from ``context``, which shows only ``key``."""
    cache_key = (partial, get_language(), key)
    html = _shared.get(cache_key)
    if html is None:
        html = _template(PARTIALS + partial).render(context)
        _shared.put(cache_key, html)
    return html


def pieces_to_send(inputs: dict[str, Any], shown: dict[str, Any] | None) -> list[str]:
    """The pieces, in page order, that a page showing ``shown`` needs for ``inputs``."""
    if shown is None:
        return list(PIECES)
    return [
        piece
        for piece in PIECES
        if piece in ALWAYS_SENT or piece not in shown or shown[piece] != inputs[piece]
    ]


def piece_html(piece: str, context: dict[str, Any], inputs: dict[str, Any]) -> str:
    """One piece's partial; ``inputs`` are the context's ``piece_inputs``."""
    if piece == "felt":
        return shared_render("felt", inputs["felt"], context)
    return _template(PARTIALS + piece).render(context)


def render_pieces(context: dict[str, Any], shown: dict[str, Any] | None = None) -> str:
    """The table's pieces for a viewer's context, as out-of-band swaps.

    ``shown`` holds the inputs of each piece the viewer's page already shows (see
    ``piece_inputs``): only the pieces whose inputs changed are rendered, and
    ``shown`` is brought up to date.  Without it every piece is rendered.
    """
    inputs = piece_inputs(context)
    html = [piece_html(piece, context, inputs) for piece in pieces_to_send(inputs, shown)]
    if shown is not None:  # only once all rendered: a failed render leaves it as it was
        shown.update(inputs)
    return "".join(html)


def render_state(
    match_id: int,
    viewer: Viewer,
    *,
    full: bool = False,
    shown: dict[str, Any] | None = None,
    table: Table | None = None,
) -> tuple[int, str]:
    """(version, html) of the viewer's table: ``table``, or else as the database holds it.

    ``full`` sends every piece and the chat (a page that just connected, or asked to
    resync); otherwise only the pieces that differ from ``shown``, the record of what
    this viewer's page shows, which the render keeps up to date.  ``table`` is a
    read of ``games.table_reads``, shared by the process's sockets and only read
    here; a render from it touches no database unless ``full``.
    """
    match, seats, game = table if table is not None else load(match_id)
    check_access(match, seats, viewer)
    context = table_context(match, viewer, with_chat=full, seats=seats, game=game)
    if full and shown is not None:
        shown.clear()
    html = render_pieces(context, shown)
    if full:
        html += _template(CHAT_TEMPLATE).render(context)
    return match.version, html


def render_chat(match_id: int, viewer: Viewer) -> str:
    match = Match.objects.get(pk=match_id)
    if match.is_private:
        check_access(match, list(Seat.objects.filter(match=match)), viewer)
    return _template(CHAT_TEMPLATE).render(
        {
            "match": match,
            "chat": services.visible_chat(match, seated=viewer.seat is not None),
            "is_player": viewer.seat is not None,
            "chat_channel": _("Players") if viewer.seat is not None else _("Spectators"),
        },
    )


def render_error(message: str, version: int | None = None, *, calm: bool = False) -> str:
    """A refusal toast; ``calm`` for one that needs no new move (a double click)."""
    return _template(ERROR_TEMPLATE).render({"message": message, "version": version, "calm": calm})
