"""Small SVG charts drawn on the server: no script, readable without colour."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

BAR = "#417690"  # the admin's own header blue
AXIS = "#999"


def _fmt(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def column_chart(
    points: Sequence[tuple[str, float]],
    *,
    title: str,
    width: int = 720,
    height: int = 200,
    label_every: int = 5,
) -> SafeString:
    """Vertical bars, one per point, with every ``label_every``-th label under its bar."""
    top = max((value for _, value in points), default=0) or 1
    pad_left, pad_bottom, pad_top = 36, 22, 12
    plot_w, plot_h = width - pad_left - 4, height - pad_bottom - pad_top
    step = plot_w / max(len(points), 1)
    bars = []
    for i, (label, value) in enumerate(points):
        h = plot_h * value / top
        x = pad_left + i * step
        bars.append(
            (
                _fmt(x + 1),
                _fmt(pad_top + plot_h - h),
                _fmt(max(step - 2, 1)),
                _fmt(h),
                BAR,
                label,
                _fmt(value),
            )
        )
    labels = [
        (_fmt(pad_left + i * step + step / 2), height - 6, label)
        for i, (label, _) in enumerate(points)
        if i % label_every == 0 or i == len(points) - 1
    ]
    return format_html(
        '<svg class="chart" role="img" aria-label="{}" viewBox="0 0 {} {}" width="100%" '
        'preserveAspectRatio="xMinYMin meet" xmlns="http://www.w3.org/2000/svg">'
        "<title>{}</title>"
        '<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{}"/>'
        '<text x="{}" y="{}" font-size="11" text-anchor="end">{}</text>'
        '<text x="{}" y="{}" font-size="11" text-anchor="end">0</text>'
        "{}{}</svg>",
        title,
        width,
        height,
        title,
        pad_left,
        pad_top + plot_h,
        width - 4,
        pad_top + plot_h,
        AXIS,
        pad_left - 4,
        pad_top + 10,
        _fmt(top),
        pad_left - 4,
        pad_top + plot_h,
        format_html_join(
            "",
            '<rect x="{}" y="{}" width="{}" height="{}" fill="{}"><title>{}: {}</title></rect>',
            bars,
        ),
        format_html_join(
            "",
            '<text x="{}" y="{}" font-size="11" text-anchor="middle">{}</text>',
            labels,
        ),
    )


def bar_chart(
    rows: Sequence[tuple[str, float, str]],
    *,
    title: str,
    width: int = 520,
    scale: float | None = None,
) -> SafeString:
    """Horizontal bars: (label, value, text shown after the bar).  ``scale`` is the
    value of a full-width bar (1.0 for rates); by default the largest value."""
    row_h, label_w, text_w = 24, 200, 110
    top = scale or max((value for _, value, _ in rows), default=0) or 1
    plot_w = width - label_w - text_w
    height = max(row_h * len(rows), row_h)
    items = []
    for i, (label, value, text) in enumerate(rows):
        y = i * row_h
        # Long names are cut to fit the label column; the bar's tooltip has them whole.
        short = label if len(label) <= 27 else label[:26] + "…"
        w = plot_w * min(value / top, 1)
        items.append(
            (
                label_w - 6,
                y + 16,
                short,
                label_w,
                y + 4,
                _fmt(max(w, 0.5)),
                BAR,
                label,
                text,
                _fmt(label_w + w + 6),
                y + 16,
                text,
            )
        )
    return format_html(
        '<svg class="chart" role="img" aria-label="{}" viewBox="0 0 {} {}" width="{}" '
        'height="{}" xmlns="http://www.w3.org/2000/svg"><title>{}</title>{}</svg>',
        title,
        width,
        height,
        width,
        height,
        title,
        format_html_join(
            "",
            '<text x="{}" y="{}" font-size="12" text-anchor="end">{}</text>'
            '<rect x="{}" y="{}" width="{}" height="16" fill="{}"><title>{}: {}</title></rect>'
            '<text x="{}" y="{}" font-size="12">{}</text>',
            items,
        ),
    )
