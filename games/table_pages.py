"""The other seats' pages of a move, rendered in the move's own thread hop.

After a move every socket of the table renders its viewer's page.  The socket that
sent the move already holds the table its move committed (``ActionOutcome.table``)
and renders its own page from it.  It renders there, too, the page of each other
seat whose socket this process holds, so that seat's push needs neither a database
read nor a thread hop of its own: reading the table back and hopping to the
database thread cost a push more than its render.

What is kept is small and is only HTML: per seat with a socket here, that socket's
user and language and the newest page rendered for it.  A page is rendered only
while that user holds the seat, and a push uses it only if it is of exactly the
pushed version, for the socket's user and in its language.  Any
other push (a move sent through another process, a bot's move, a presence or chat
change, a page already replaced by a later move) reads the table from the database
as before.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from django.utils import translation

from games import rendering
from games.models import Match, Seat


@dataclass(frozen=True)
class RenderedPage:
    """Every piece of one viewer's page at one version, with the inputs of each."""

    version: int
    inputs: dict[str, Any]
    pieces: dict[str, str]

    def html_for(self, shown: dict[str, Any]) -> str:
        """What a page showing ``shown`` needs of this one; ``shown`` is brought up to date."""
        needed = rendering.pieces_to_send(self.inputs, shown)
        shown.update(self.inputs)
        return "".join(self.pieces[piece] for piece in needed)


def render_page(context: dict[str, Any]) -> RenderedPage:
    """All the pieces of a viewer's page: which of them a socket needs is known only
    when its push arrives."""
    inputs = rendering.piece_inputs(context)
    pieces = {piece: rendering.piece_html(piece, context, inputs) for piece in rendering.PIECES}
    return RenderedPage(context["version"], inputs, pieces)


@dataclass
class _Watched:
    user_id: int
    language: str
    page: RenderedPage | None = None


# Written by database threads (a move's hop), read by the event loop (a push).
_lock = threading.Lock()
_watched: dict[tuple[int, int], _Watched] = {}


def watch(match_id: int, seat: int, user_id: int, language: str) -> None:
    """A socket of this seat's user is open in this process and renders in ``language``."""
    with _lock:
        entry = _watched.get((match_id, seat))
        if entry is None or (entry.user_id, entry.language) != (user_id, language):
            _watched[(match_id, seat)] = _Watched(user_id, language)


def forget(match_id: int, seat: int) -> None:
    """The seat's socket here closed.  Another socket of the seat in this process, if
    any, watches again at its next render; meanwhile its pushes read the table."""
    with _lock:
        _watched.pop((match_id, seat), None)


def render_watched(table: tuple[Match, list[Seat], Any], *, mover: int | None) -> None:
    """Render the page of every seat of this committed table, but the mover's, that a
    socket here watches."""
    match, seats, game = table
    with _lock:
        watched = [(seat, _watched.get((match.pk, seat.number))) for seat in seats]
        # Only for the seat's own user: a socket opened before the seat changed hands
        # must not be handed the new occupant's page.
        targets = [
            (seat, entry.language)
            for seat, entry in watched
            if seat.number != mover and entry is not None and entry.user_id == seat.user_id
        ]
    for seat, language in targets:
        viewer = rendering.Viewer(seat.user_id, seat.number)
        with translation.override(language):
            context = rendering.table_context(
                match, viewer, with_chat=False, seats=seats, game=game
            )
            page = render_page(context)
        with _lock:
            entry = _watched.get((match.pk, seat.number))
            # Two moves of one table can finish their hops out of order.
            newer = entry is not None and (entry.page is None or entry.page.version < page.version)
            if newer and (entry.user_id, entry.language) == (seat.user_id, language):
                entry.page = page


def page_for(
    match_id: int, seat: int, user_id: int, version: int, language: str
) -> RenderedPage | None:
    """The seat's page of exactly ``version`` for ``user_id`` in ``language``, if one
    was rendered here."""
    with _lock:
        entry = _watched.get((match_id, seat))
    if entry is None or (entry.user_id, entry.language) != (user_id, language):
        return None
    page = entry.page
    return page if page is not None and page.version == version else None
