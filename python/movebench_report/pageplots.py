"""The page's plots: per benchmark and view, small multiples with shared
axes and at most MAX_SERIES series per axes; a series is one sweep (the
records of one operation that differ only in size), so no line ever joins
points of different sweeps or designs; points that are no sweep (one size)
are markers without a line. One marker per statistic of the figure; the axis
in the figure's own unit and accounting; cache sizes on mem; the peak as a
line where the document records one. Each plot is an inline SVG with a
<title> and a text alternative (<desc>)."""
from __future__ import annotations

import io
import re
from dataclasses import dataclass, field
from html import escape

from . import plots
from .facts import peak_of
from .model import BANDWIDTH_UNITS, TIME_UNITS, select, Filter, format_size
from .render import display_unit

plt = plots.plt
MAX_SERIES = 8
# Parameters that say how a run measured, not what: never a new series.
HOW_PARAMS = {"elements", "shape", "nontemporal", "alignment", "disturbed_samples_retaken", "seed", "cpu",
              "resolved", "clock", "iterations", "batch"}
MARKERS = {"min": "v", "max": "^", "median": "o", "mean": "s", "p90": "D", "p99": "X"}


@dataclass
class Series:
    label: str  # what tells it apart: 'copy.read host_memory=pinned'
    operation: str
    points: list = field(default_factory=list)  # (bytes, value in base units)
    stat: str = ""
    is_sweep: bool = True


def _sweep_params(points: list) -> list:
    """The parameters that tell points of one operation and size apart:
    plain values that differ between two records of the same size."""
    by_size = {}
    for p in points:
        by_size.setdefault((p.operation, p.bytes), []).append(p.params)
    names = set()
    for group in by_size.values():
        for name in {k for params in group for k in params} - HOW_PARAMS:
            values = {repr(params.get(name)) for params in group
                      if not isinstance(params.get(name), (float, list, dict))}
            if len(values) > 1:
                names.add(name)
    return sorted(names)


def series_of(points: list, view: str) -> list:
    """Sweeps of one benchmark: one Series per operation and distinguishing
    parameters; the single points of an operation in one marker-only Series."""
    names = _sweep_params(points)
    sweeps = {}
    for p in points:
        key = " ".join([p.operation] + [f"{n}={p.params[n]}" for n in names if n in p.params])
        s = sweeps.setdefault(key, Series(key, p.operation))
        s.points.append((p.bytes, p.value(view)))
        meaning = p.meaning(view)
        s.stat = meaning.stat if meaning else ""
    out, singles = [], {}
    for s in sweeps.values():
        if len({x for x, _ in s.points}) > 1:
            out.append(s)
        else:
            single = singles.setdefault(s.operation, Series(f"{s.operation} (single sizes)", s.operation,
                                                            stat=s.stat, is_sweep=False))
            single.points += s.points
    return out + list(singles.values())


def panels_of(series: list) -> list:
    """Small multiples: operations packed together up to MAX_SERIES series per
    panel; an operation with more series than that is split over panels."""
    panels, current = [], []
    for op in dict.fromkeys(s.operation for s in series):
        mine = [s for s in series if s.operation == op]
        chunks = [mine[i:i + MAX_SERIES] for i in range(0, len(mine), MAX_SERIES)]
        for chunk in chunks:
            if len(current) + len(chunk) > MAX_SERIES:
                panels.append(current)
                current = []
            current = current + chunk
    return panels + ([current] if current else [])


def _axis_text(points: list, view: str, unit: str) -> str:
    meaning = next((p.meaning(view) for p in points if p.meaning(view)), None)
    text = f"{view} [{unit}]"
    if meaning and view == "bandwidth" and meaning.accounting:
        text += f", {meaning.accounting.text()}"
    return text


def _draw_series(ax, panel: list, divisor: float):
    for i, s in enumerate(panel):
        pts = sorted(s.points)
        ax.plot([x for x, _ in pts], [v / divisor for _, v in pts], marker=MARKERS.get(s.stat, "o"),
                markersize=4, linestyle="-" if s.is_sweep else "none", color=f"C{i % 10}", label=s.label)


def _peak_lines(ax, points: list, view: str, divisor: float):
    """The peak of the figures plotted, where the document records one."""
    seen = set()
    for p in points:
        for fig in p.record["figures"].values():
            peak = peak_of(fig)
            units = BANDWIDTH_UNITS if view == "bandwidth" else TIME_UNITS
            if peak and peak.unit in units and (peak.value, peak.unit) not in seen:
                seen.add((peak.value, peak.unit))
                ax.axhline(peak.value * units[peak.unit] / divisor, color="black", linestyle="--", linewidth=1,
                           label=f"peak ({peak.source})"[:60])


@dataclass
class Plot:
    title: str
    alt: str
    svg: str
    series_per_axes: list


def benchmark_plot(source_points: list, bench: str, view: str, caches: list) -> Plot | None:
    """One figure of small multiples for a benchmark's view, or None."""
    points = [p for p in source_points if p.benchmark == bench and p.value(view) and p.bytes > 0
              and p.operation != plots.LOADED]
    if not points:
        return None
    series = series_of(points, view)
    panels = panels_of(series)
    unit, divisor = display_unit(view, [p.value(view) for p in points])
    cols = min(2, len(panels))
    rows = (len(panels) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(6.2 * cols, 3.6 * rows), squeeze=False, sharex=True,
                             sharey=True)
    for ax, panel in zip(axes.flat, panels):
        _draw_series(ax, panel, divisor)
        _peak_lines(ax, points, view, divisor)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=7)
        ax.set_title(", ".join(dict.fromkeys(s.operation for s in panel))[:70], fontsize=9)
        if bench == "mem":
            plots._draw_caches(ax, caches)
    for ax in axes[-1]:
        ax.set_xlabel("bytes (dataset: all arrays of a kernel)" if bench == "mem" else "bytes")
    for ax in axes[:, 0]:
        ax.set_ylabel(_axis_text(points, view, unit), fontsize=8)
    for ax in list(axes.flat)[len(panels):]:
        ax.set_visible(False)
    title = f"{bench}: size against {view} ({len(series)} series in {len(panels)} panels)"
    fig.suptitle(title, fontsize=11)
    fig.tight_layout()
    alt = _alt_text(bench, view, series, unit, divisor)
    return Plot(title, alt, svg_of(fig, title, alt), [len(p) for p in panels])


def _alt_text(bench: str, view: str, series: list, unit: str, divisor: float) -> str:
    parts = []
    for s in series:
        pts = sorted(s.points)
        best = (max if view == "bandwidth" else min)(v for _, v in pts) / divisor
        parts.append(f"{s.label}: {len(pts)} points from {format_size(pts[0][0])} to {format_size(pts[-1][0])}, "
                     f"best {best:.4g} {unit}")
    return f"{bench} {view} against size. " + "; ".join(parts)


def svg_of(fig, title: str, alt: str) -> str:
    """The figure as an inline <svg> element with our <title> and <desc>; no
    XML prolog or DOCTYPE (it sits inside the page)."""
    buffer = io.StringIO()
    fig.savefig(buffer, format="svg")
    plt.close(fig)
    text = buffer.getvalue()
    text = text[text.index("<svg"):]
    text = re.sub(r"<svg ", "<svg role='img' class='plot' ", text, count=1)
    head_end = text.index(">") + 1
    return text[:head_end] + f"<title>{escape(title)}</title><desc>{escape(alt)}</desc>" + text[head_end:]


def benchmark_plots(source, filt: Filter) -> dict:
    """{benchmark: [Plot]} of one source (one per view that has figures)."""
    points = source.points()
    out = {}
    for bench in dict.fromkeys(p.benchmark for p in points):
        for view in ("bandwidth", "latency"):
            kept = select([p for p in points if p.benchmark == bench], filt, view)
            plot = benchmark_plot(kept, bench, view, source.caches)
            if plot:
                out.setdefault(bench, []).append(plot)
    return out
