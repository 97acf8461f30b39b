"""The evaluation graph of a reviewed deal, drawn as inline SVG on the server.

Every seat's chance of not being the fool at every step, exactly the stored analysis
values: for two players one line (their chances add up to 100), else a line per seat.  Every step is a column that links to that replay step (the
replay script turns a click into a fragment swap), with a tooltip naming the move.
The SVG holds no text, so it scales to any width; the labels are HTML around it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from .review import Review

WIDTH, HEIGHT, PAD_X, PAD_Y = 600.0, 150.0, 6.0, 8.0


def x_of(step: int, last: int) -> float:
    return round(PAD_X + step * (WIDTH - 2 * PAD_X) / max(1, last), 2)


def y_of(chance: float) -> float:
    return round(PAD_Y + (100.0 - chance) * (HEIGHT - 2 * PAD_Y) / 100.0, 2)


def evaluation_graph(
    review: Review,
    names: Sequence[str],
    moves: Sequence[str],
    url: Callable[[int], str],
    current: int,
) -> SafeString:
    """``moves[k]`` is move ``k + 1`` in words; ``url(step)`` the replay URL of a step."""
    chances = review.chances
    last = len(chances) - 1
    seats = range(len(chances[0]))
    column = (WIDTH - 2 * PAD_X) / max(1, last)
    # Outside the f-string: the catalogue's extractor does not look inside one.
    label = escape(_("Chance of not being the fool after each move"))
    parts = [
        f'<svg class="eval-graph" viewBox="0 0 {WIDTH:g} {HEIGHT:g}" '
        'preserveAspectRatio="none" data-testid="eval-graph" '
        f'data-x0="{PAD_X:g}" data-dx="{column:.4f}" role="group" '
        f'aria-label="{label}">',
        f'<line class="eval-mid" x1="0" x2="{WIDTH:g}" y1="{y_of(50):g}" y2="{y_of(50):g}"/>',
    ]
    # Two players' chances add up to 100: one line, seat 0's share below it and seat
    # 1's above. With more players, a line per seat.
    lines = [0] if len(chances[0]) == 2 else list(seats)
    if len(lines) == 1:
        points = " ".join(f"{x_of(k, last):g},{y_of(c[0]):g}" for k, c in enumerate(chances))
        right, bottom = x_of(last, last), y_of(0)
        parts.append(
            f'<polygon class="eval-area eval-area-1" points="{x_of(0, last):g},{y_of(100):g} '
            f'{points} {right:g},{y_of(100):g}"/>'
            f'<polygon class="eval-area eval-area-0" points="{x_of(0, last):g},{bottom:g} '
            f'{points} {right:g},{bottom:g}"/>'
        )
    for seat in lines:
        points = " ".join(f"{x_of(k, last):g},{y_of(c[seat]):g}" for k, c in enumerate(chances))
        parts.append(
            f'<polyline class="eval-line eval-seat-{seat}" data-seat="{seat}" points="{points}"/>'
        )
    for decision in review.judged:
        step = decision.move + 1
        # A zero-length round-capped line: it stays a round dot however the graph
        # stretches. It marks the point after the move, on the line of its seat (the
        # one line of two players).
        line = decision.seat if decision.seat in lines else 0
        x, y = x_of(step, last), y_of(chances[step][line])
        parts.append(
            f'<line class="eval-dot judged-{decision.judgement}" data-step="{step}" '
            f'x1="{x:g}" y1="{y:g}" x2="{x:g}" y2="{y:g}"/>'
        )
    x = x_of(current, last)
    parts.append(
        f'<line class="eval-cursor" data-graph-cursor x1="{x:g}" x2="{x:g}" y1="0" '
        f'y2="{HEIGHT:g}"/>'
    )
    judged = review.by_move
    for step, chance in enumerate(chances):
        what = (
            _("Move %(number)s: %(move)s") % {"number": step, "move": moves[step - 1]}
            if step
            else _("The deal")
        )
        decision = judged.get(step - 1)
        if decision is not None:
            what += f" {decision.symbol} ({decision.label})"
        odds = ", ".join(f"{names[s]} {chance[s]:.0f}%" for s in seats)
        link = escape(url(step))
        left = max(0.0, x_of(step, last) - column / 2)
        parts.append(
            f'<a href="{link}" data-graph-step="{step}">'
            f'<rect class="eval-hit" x="{left:.2f}" y="0" width="{column:.2f}" '
            f'height="{HEIGHT:g}"><title>{escape(what)} · {escape(odds)}</title></rect></a>'
        )
    parts.append("</svg>")
    return mark_safe("".join(parts))
