"""A push carries only the pieces of the table that changed for its viewer, yet the
page it updates ends as a full render of the same version would show it."""

from __future__ import annotations

import random
import re

import pytest
from django.template.loader import get_template
from django.utils import translation

from durak.engine import Game
from games import services
from games.models import Match
from table import rendering

from .test_timers import table

pytestmark = pytest.mark.django_db(transaction=True)

# Every piece is one element with an id of its own, swapped out of band by htmx; only
# the pieces' root elements have ids that start with "table-".
PIECE_START = re.compile(r'<\w+ id="(table-[\w-]+)"')
HAND_CARD = re.compile(r'class="hand-card"[^>]*data-card="(\w\w)"')
# The server's clock, sent with every render so the page's countdowns keep in step.
NOW = re.compile(r' data-now="\d+"')


def pieces(html: str) -> dict[str, str]:
    starts = list(PIECE_START.finditer(html))
    ends = [found.start() for found in starts[1:]] + [len(html)]
    return {
        found.group(1): NOW.sub("", html[found.start() : end].strip())
        for found, end in zip(starts, ends, strict=True)
    }


class Page:
    """What a viewer's browser shows: each pushed piece replaces the one with its id."""

    def __init__(self, viewer: rendering.Viewer) -> None:
        self.viewer = viewer
        self.shown: dict = {}
        self.shows: dict[str, str] = {}

    def receive(self, html: str) -> None:
        self.shows.update(pieces(html))

    def push(self, match_id: int) -> str:
        _version, html = rendering.render_state(match_id, self.viewer, shown=self.shown)
        self.receive(html)
        return html

    def load(self, match_id: int) -> None:
        _version, html = rendering.render_state(match_id, self.viewer, full=True, shown=self.shown)
        self.receive(html)


def full_render(match_id: int, viewer: rendering.Viewer) -> dict[str, str]:
    """Every piece rendered afresh from the page's own partials, as on a page load."""
    context = rendering.table_context(Match.objects.get(pk=match_id), viewer, with_chat=False)
    return pieces(
        "".join(
            get_template(f"table/partials.html#{piece}").render(context)
            for piece in rendering.PIECES
        )
    )


def play(match_id: int, users, rng: random.Random) -> Match:
    match = Match.objects.get(pk=match_id)
    action = rng.choice(Game.from_snapshot(match.state).legal_actions())
    services.apply_action(match_id, users[action.seat], str(action), version=match.version)
    return Match.objects.get(pk=match_id)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_pages_fed_only_changed_pieces_match_a_full_render_after_every_move(seed):
    match, users = table()
    spectator = rendering.Viewer(None, None)
    pages = [Page(rendering.Viewer(u.pk, seat)) for seat, u in enumerate(users)]
    pages.append(Page(spectator))
    for page in pages:
        page.load(match.pk)
    rng = random.Random(seed)
    skipped = 0
    while match.status == Match.Status.PLAYING:
        match = play(match.pk, users, rng)
        for page in pages:
            pushed = pieces(page.push(match.pk))
            skipped += len(page.shows) - len(pushed)
            shows = {k: v for k, v in page.shows.items() if k != "table-chat"}
            assert shows == full_render(match.pk, page.viewer)
    # A game's pushes leave out, at least, the waiting-room tools nobody uses mid-game.
    assert skipped > 0


def test_a_push_leaves_out_pieces_that_did_not_change_and_always_says_the_version():
    match, users = table()
    page = Page(rendering.Viewer(users[0].pk, 0))
    page.load(match.pk)
    match = play(match.pk, users, random.Random(4))
    pushed = pieces(page.push(match.pk))
    assert "table-version" in pushed
    assert "table-waiting" not in pushed
    assert "table-result" not in pushed
    again = pieces(page.push(match.pk))
    assert set(again) == {"table-version", "table-hint"}


def test_each_viewers_pushes_hold_only_its_own_hand():
    match, users = table()
    pages = [Page(rendering.Viewer(u.pk, seat)) for seat, u in enumerate(users)]
    for page in pages:
        page.load(match.pk)
    rng = random.Random(6)
    while match.status == Match.Status.PLAYING:
        match = play(match.pk, users, rng)
        game = Game.from_snapshot(match.state)
        for seat, page in enumerate(pages):
            html = page.push(match.pk)
            other = set(game.view(1 - seat)["hand"] or [])
            if "table-hand" in pieces(html):
                assert set(HAND_CARD.findall(html)) == set(game.view(seat)["hand"] or [])
            assert not other & set(HAND_CARD.findall(html))


def test_the_shared_felt_is_in_each_viewers_language():
    match, users = table()
    page = Page(rendering.Viewer(users[0].pk, 0))
    with translation.override("ru"):
        page.load(match.pk)
        russian = page.shows["table-felt"]
    with translation.override("en"):
        page.load(match.pk)
        english = page.shows["table-felt"]
    assert "Козырь" in russian
    assert "Trump" in english


@pytest.mark.parametrize("seed", [5, 6])
def test_the_movers_page_rendered_from_its_committed_move_matches_a_full_render(seed):
    match, users = table()
    pages = [Page(rendering.Viewer(u.pk, seat)) for seat, u in enumerate(users)]
    for page in pages:
        page.load(match.pk)
    rng = random.Random(seed)
    from_outcome = 0
    while match.status == Match.Status.PLAYING:
        game = Game.from_snapshot(match.state)
        action = rng.choice(game.legal_actions())
        outcome = services.apply_action(
            match.pk, users[action.seat], str(action), version=match.version
        )
        match = Match.objects.get(pk=match.pk)
        mover = pages[action.seat]
        if outcome.table is not None:
            version, html = rendering.render_state(
                match.pk, mover.viewer, shown=mover.shown, table=outcome.table
            )
            assert version == match.version
            mover.receive(html)
            from_outcome += 1
        for page in pages:
            if page is not mover or outcome.table is None:
                page.push(match.pk)
            shows = {k: v for k, v in page.shows.items() if k != "table-chat"}
            assert shows == full_render(match.pk, page.viewer)
    assert from_outcome > 10


def fresh(partial: str, context: dict) -> str:
    """A partial rendered afresh, not taken from the process's shared renders."""
    return get_template(f"table/partials.html#{partial}").render(context)


@pytest.mark.parametrize("language", ["en", "ru"])
def test_each_shared_render_is_what_its_partial_renders_for_that_row_or_card(language):
    # The shared renders are kept by what they show: two rows or cards that look alike
    # to the key but not to the partial would show one viewer another's render.
    match, users = table()
    viewers = [rendering.Viewer(u.pk, seat) for seat, u in enumerate(users)]
    viewers.append(rendering.Viewer(None, None))
    rng = random.Random(7)
    checked = 0
    with translation.override(language):
        while match.status == Match.Status.PLAYING:
            match = play(match.pk, users, rng)
            for viewer in viewers:
                context = rendering.table_context(match, viewer, with_chat=False)
                for row in context["others"]:
                    assert row["who"] == fresh("seat-who", {"s": row})
                    assert row["backs"] == fresh("seat-backs", {"s": row})
                    assert row["badges"] == fresh("seat-badges", {"s": row})
                if context["my_row"] is not None:
                    assert context["my_row"]["me"] == fresh("me", {"my_row": context["my_row"]})
                for entry in context["hand"]:
                    assert entry["button"] == fresh("hand-card", {"c": entry})
                    checked += 1
    assert checked > 0
