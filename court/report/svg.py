"""Small inline SVG charts for the HTML report (no scripts, no network)."""

from __future__ import annotations

import math
from html import escape

COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"]
W, ROW, LEFT, PAD = 640, 34, 110, 20


def _q(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p * (len(xs) - 1))))]


def _log_scale(lo: float, hi: float, width: float):
    lo, hi = math.log10(max(lo, 1e-9)), math.log10(max(hi, lo * 10, 1e-8))
    if hi - lo < 1e-9:
        hi = lo + 1

    def x(v: float) -> float:
        return LEFT + (math.log10(max(v, 1e-9)) - lo) / (hi - lo) * width
    return x, lo, hi


def _axis_ticks(lo: float, hi: float, x, y: float, unit: str, scale: float) -> list[str]:
    out = []
    for e in range(math.floor(lo), math.ceil(hi) + 1):
        v = 10 ** e
        px = x(v)
        if LEFT - 12 <= px <= W - PAD + 1:
            px = max(px, LEFT)
            out.append(f'<line x1="{px:.1f}" y1="{PAD}" x2="{px:.1f}" y2="{y}" stroke="#ddd"/>')
            out.append(f'<text x="{px:.1f}" y="{y + 14}" font-size="10" text-anchor="middle">'
                       f'{v * scale:g}{unit}</text>')
    return out


def box_plot(series: dict[str, list[float]], title: str, unit: str = " ms",
             scale: float = 1000.0) -> str:
    """Horizontal box plots on a log axis: whiskers min..p95, box p25..p75, line at median."""
    series = {k: v for k, v in series.items() if v}
    if not series:
        return f"<p>{escape(title)}: no data</p>"
    allv = [v for vs in series.values() for v in vs]
    width = W - LEFT - PAD
    x, lo, hi = _log_scale(min(allv), max(allv), width)
    h = PAD * 2 + ROW * len(series) + 16
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{h}" '
             f'role="img" aria-label="{escape(title)}">',
             f'<text x="{LEFT}" y="14" font-size="12" font-weight="bold">{escape(title)}</text>']
    parts += _axis_ticks(lo, hi, x, PAD + ROW * len(series), unit, scale)
    for i, (name, vs) in enumerate(series.items()):
        y = PAD + ROW * i + ROW / 2
        c = COLORS[i % len(COLORS)]
        mn, p25, med, p75, p95 = (min(vs), _q(vs, .25), _q(vs, .5), _q(vs, .75), _q(vs, .95))
        parts += [
            f'<text x="{LEFT - 6}" y="{y + 4}" font-size="11" text-anchor="end">'
            f'{escape(name)}</text>',
            f'<line x1="{x(mn):.1f}" y1="{y}" x2="{x(p95):.1f}" y2="{y}" stroke="{c}"/>',
            f'<rect x="{x(p25):.1f}" y="{y - 9}" width="{max(x(p75) - x(p25), 1):.1f}" '
            f'height="18" fill="{c}" fill-opacity="0.3" stroke="{c}"/>',
            f'<line x1="{x(med):.1f}" y1="{y - 10}" x2="{x(med):.1f}" y2="{y + 10}" '
            f'stroke="{c}" stroke-width="2"><title>median {med * scale:.3g}{unit}</title></line>',
        ]
    parts.append("</svg>")
    return "".join(parts)


def bars(values: dict[str, tuple[float, float]], title: str, unit: str = " MiB",
         scale: float = 1 / (1 << 20)) -> str:
    """Horizontal bars: a solid bar for the median and an outline for the maximum."""
    values = {k: v for k, v in values.items() if v[1]}
    if not values:
        return f"<p>{escape(title)}: no data</p>"
    top = max(v[1] for v in values.values())
    width = W - LEFT - PAD - 190  # room for the label after the longest bar
    h = PAD * 2 + ROW * len(values)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{h}" role="img" '
             f'aria-label="{escape(title)}">',
             f'<text x="{LEFT}" y="14" font-size="12" font-weight="bold">{escape(title)}</text>']
    for i, (name, (med, mx)) in enumerate(values.items()):
        y = PAD + ROW * i + 6
        c = COLORS[i % len(COLORS)]
        parts += [
            f'<text x="{LEFT - 6}" y="{y + 13}" font-size="11" text-anchor="end">'
            f'{escape(name)}</text>',
            f'<rect x="{LEFT}" y="{y}" width="{mx / top * width:.1f}" height="18" fill="none" '
            f'stroke="{c}"/>',
            f'<rect x="{LEFT}" y="{y}" width="{med / top * width:.1f}" height="18" fill="{c}" '
            f'fill-opacity="0.5"/>',
            f'<text x="{LEFT + mx / top * width + 4:.1f}" y="{y + 13}" font-size="10">'
            f'median {med * scale:.1f}{unit}, max {mx * scale:.1f}{unit}</text>',
        ]
    parts.append("</svg>")
    return "".join(parts)


def _ratio_label(e: int) -> str:
    return f"{2 ** e:g}x" if e >= 0 else f"1/{2 ** -e:g}x"


MIN_TICK_GAP = 18  # pixels between y labels of 10px text, so they never overlap


def ratio_curves(ratios: dict[str, list[float]], title: str) -> str:
    """Per-case time ratios, each series sorted, on a log2 axis centred on 1x. The y labels are
    powers of two, thinned to stay apart; the x axis is the share of cases."""
    ratios = {k: sorted(v) for k, v in ratios.items() if v}
    if not ratios:
        return f"<p>{escape(title)}: no data</p>"
    lg = [math.log2(max(r, 1e-6)) for vs in ratios.values() for r in vs]
    span = max(1, math.ceil(max(abs(v) for v in lg)))
    top, plot_h, width = PAD + 10, 200, W - LEFT - PAD
    mid = top + plot_h / 2
    legend_y = top + plot_h + 34

    def y(r: float) -> float:
        return mid - math.log2(max(r, 1e-6)) / span * plot_h / 2

    per_step = plot_h / (2 * span)
    step = max(1, math.ceil(MIN_TICK_GAP / per_step))
    h = legend_y + 14 * len(ratios)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{h}" role="img" '
             f'aria-label="{escape(title)}">',
             f'<text x="{LEFT}" y="14" font-size="12" font-weight="bold">{escape(title)}</text>']
    for e in range(-span, span + 1):
        if e % step:
            continue
        yy = y(2 ** e)
        parts.append(f'<line x1="{LEFT}" y1="{yy:.1f}" x2="{W - PAD}" y2="{yy:.1f}" '
                     f'stroke="{"#999" if e == 0 else "#eee"}"/>')
        parts.append(f'<text x="{LEFT - 6}" y="{yy + 4:.1f}" font-size="10" text-anchor="end">'
                     f'{_ratio_label(e)}</text>')
    base = top + plot_h
    for frac in (0, 0.25, 0.5, 0.75, 1):
        xx = LEFT + frac * width
        parts.append(f'<text x="{xx:.1f}" y="{base + 14}" font-size="10" '
                     f'text-anchor="middle">{frac:.0%}</text>')
    parts.append(f'<text x="{LEFT + width / 2:.1f}" y="{base + 26}" font-size="10" '
                 f'text-anchor="middle" fill="#555">cases, sorted by ratio</text>')
    for i, (name, vs) in enumerate(ratios.items()):
        c = COLORS[(i + 1) % len(COLORS)]
        n = len(vs)
        pts = " ".join(f"{LEFT + (j / max(n - 1, 1)) * width:.1f},{y(r):.1f}"
                       for j, r in enumerate(vs))
        parts.append(f'<polyline fill="none" stroke="{c}" stroke-width="1.5" points="{pts}"/>')
        parts.append(f'<text x="{LEFT}" y="{legend_y + 14 * i}" font-size="10" '
                     f'fill="{c}">{escape(name)} (above 1x: slower)</text>')
    parts.append("</svg>")
    return "".join(parts)
