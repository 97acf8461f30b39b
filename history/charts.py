"""A rating-over-time chart as inline SVG, drawn on the server (no script, no network)."""

from __future__ import annotations

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

# Each rating class's line takes its colour from the stylesheet (replay.css), which
# gives it a light and a dark ground's shade.
CLASSES = ("two_player", "multi", "teams")
WIDTH, HEIGHT, PAD = 640, 220, 36
MAX_POINTS = 200


def _thin(points: list[float]) -> list[float]:
    # A line of 5,000 points draws no better than one of 200, and weighs 25 times more.
    if len(points) <= MAX_POINTS:
        return points
    step = len(points) / MAX_POINTS
    thinned = [points[int(i * step)] for i in range(MAX_POINTS)]
    thinned[-1] = points[-1]
    return thinned


def rating_chart(series: dict[str, list[float]], labels: dict[str, str]) -> SafeString:
    """An SVG with one line per rating class; the x axis is the game number of each class."""
    if not series:
        return mark_safe("")
    lines = {k: _thin(v) for k, v in series.items()}
    values = [r for pts in lines.values() for r in pts]
    low, high = min(values), max(values)
    if high - low < 50:
        mid = (high + low) / 2
        low, high = mid - 25, mid + 25
    span = high - low
    inner_w, inner_h = WIDTH - 2 * PAD, HEIGHT - 2 * PAD

    def y(value: float) -> float:
        return PAD + inner_h - (value - low) / span * inner_h

    paths = []
    legend = []
    for index, (rating_class, pts) in enumerate(lines.items()):
        count = max(1, len(pts) - 1)
        coords = " ".join(f"{PAD + i / count * inner_w:.1f},{y(r):.1f}" for i, r in enumerate(pts))
        colour = f"rating-{rating_class}" if rating_class in CLASSES else "rating-other"
        paths.append((colour, coords, labels.get(rating_class, rating_class)))
        legend.append(
            (
                PAD + index * 170,
                colour,
                f"{labels.get(rating_class, rating_class)}: {pts[-1]:.0f}",
            )
        )
    grid = format_html_join(
        "",
        '<line x1="{}" y1="{}" x2="{}" y2="{}" class="grid"/><text x="2" y="{}" class="axis">{}</text>',
        (
            (PAD, f"{y(v):.1f}", WIDTH - PAD, f"{y(v):.1f}", f"{y(v) + 4:.1f}", f"{v:.0f}")
            for v in (low, low + span / 2, high)
        ),
    )
    polylines = format_html_join(
        "",
        '<polyline class="rating-line {}" fill="none" stroke-width="2" points="{}"><title>{}</title></polyline>',
        paths,
    )
    keys = format_html_join(
        "",
        '<rect x="{}" y="8" width="10" height="10" class="rating-key {}"/><text x="{}" y="17" class="legend">{}</text>',
        ((x, colour, x + 14, text) for x, colour, text in legend),
    )
    return format_html(
        '<svg class="rating-chart" viewBox="0 0 {} {}" role="img" aria-label="{}" '
        'xmlns="http://www.w3.org/2000/svg">{}{}{}</svg>',
        WIDTH,
        HEIGHT,
        _("Rating over time"),
        grid,
        polylines,
        keys,
    )
