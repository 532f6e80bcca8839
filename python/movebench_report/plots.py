"""`plot`: the page's small multiples (pageplots) in one PNG or SVG: size
against bandwidth and latency, log axes, per benchmark and view at most 8
series per axes, one series per sweep (and per file, where several are
compared), never a line across two sweeps; `combined` puts every
benchmark's sweeps of a view in shared panels. For `mem`, the cache sizes
are drawn as vertical lines so the memory hierarchy shows as steps; peaks
as dashed lines. `mem loaded-latency` records get their own panel: latency
against the bandwidth of the load (the curve and its knee). The bounds of
panels and lines and the ratio plot of `compare` are here too; the drawing
primitives and the writing of files are canvas's."""

from __future__ import annotations

import math

from .canvas import plt
from .labels import shorten
from .model import BANDWIDTH_UNITS, TIME_UNITS, VIEWS, Filter, ReportError, names, select
from .pageplots import LOADED, plot_panels
from .render import display_unit

LINESTYLES = ("-", "--", ":", "-.")

# Bounds of one plot, so that no input makes a figure that eats the memory
# (matplotlib holds the whole raster): panels and lines (canvas: pixels).
MAX_PANELS = 32
MAX_LINES = 256


def loaded_curves(sources: list, filt: Filter) -> dict:
    """{(source, series): [(load bytes/s, latency s)]} of mem loaded-latency records (the
    latency figure: the fastest sample, as in the size plots)."""
    curves = {}
    for s in sources:
        for p in select(s.points(), filt, "latency"):
            figures = p.record["figures"]
            load, lat = figures.get("load_bandwidth"), figures.get("latency")
            if (
                p.operation != LOADED
                or not load
                or not lat
                or load["unit"] not in BANDWIDTH_UNITS
                or lat["unit"] not in TIME_UNITS
            ):
                continue
            loaders = p.params.get("loaders", "?")
            series = f"{p.params.get('load_kernel', 'load')} on {loaders} thread{'' if loaders == 1 else 's'}"
            curves.setdefault((s.label, series), []).append(
                (load["value"] * BANDWIDTH_UNITS[load["unit"]], lat["value"] * TIME_UNITS[lat["unit"]])
            )
    return curves


def _draw_loaded(ax, curves: dict, labels: list, unit=None):
    bw_name, bw_div = display_unit("bandwidth", [], unit)
    lat_name, lat_div = display_unit("latency", [v for pts in curves.values() for _, v in pts])
    several = len({label for label, _ in curves}) > 1
    for i, ((label, series), pts) in enumerate(sorted(curves.items())):
        pts = sorted(pts)
        legend = shorten(f"{series} ({label})" if several else series)
        ax.plot(
            [x / bw_div for x, _ in pts],
            [v / lat_div for _, v in pts],
            marker="o",
            markersize=3,
            linestyle=LINESTYLES[labels.index(label) % len(LINESTYLES)] if several else "-",
            color=f"C{i % 10}",
            label=legend,
        )
    ax.set_ylim(bottom=0)
    ax.set_title("mem: loaded latency (min) against the load", fontsize=10)
    ax.set_xlabel(f"load bandwidth [{bw_name}]")
    ax.set_ylabel(f"latency [{lat_name}]")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=6)


def figure_for(sources: list, filt: Filter, views=VIEWS, combined=False, per_array=False, unit=None):
    """One figure of the page's small multiples (pageplots): per benchmark
    and view its sweep panels (at most 8 series each, no line across two
    sweeps, caches on mem, peaks dashed) and its single-size bars; mem's
    loaded latency against the load in a panel of its own."""
    panels = plot_panels(sources, filt, views, combined, per_array, unit)
    loaded = loaded_curves(sources, filt) if "latency" in views else {}
    if not panels and not loaded:
        raise ReportError(
            f"{names(sources)}: nothing to plot: no bandwidth or latency figures above zero left after filtering"
        )
    count = len(panels) + bool(loaded)
    lines = sum(n for _, n in panels) + len(loaded)
    if count > MAX_PANELS or lines > MAX_LINES:
        raise ReportError(
            f"{names(sources)}: {count} panels and {lines} lines is more than one plot holds "
            f"({MAX_PANELS} panels, {MAX_LINES} lines): choose with -b, --op or --sizes"
        )
    cols = min(2, count)
    rows = (count + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(6.4 * cols, 4.2 * rows), squeeze=False)
    for ax, (draw, _) in zip(axes.flat, panels):
        draw(ax)
    if loaded:
        _draw_loaded(axes.flat[len(panels)], loaded, [s.label for s in sources], unit)
    for ax in list(axes.flat)[count:]:
        ax.set_visible(False)
    fig.tight_layout()
    return fig


def ratio_figure(verdicts: list, view: str, labels: tuple, where: str = ""):
    """Comparison plot: B/A against size, one line per operation, the noise band shaded."""
    fig, ax = plt.subplots(figsize=(7, 4.2))
    series = {}
    for v in verdicts:
        bench, op, variant, size = v.key
        if size <= 0 or not math.isfinite(v.ratio):
            continue  # a log axis has no place for 0 bytes; B/A of a zero A has no place on the plot
        series.setdefault(f"{bench}.{op} {variant}".strip(), []).append((size, v.ratio, v.spread_a + v.spread_b))
    if len(series) > MAX_LINES:
        plt.close(fig)
        raise ReportError(
            f"{where}: {len(series)} lines of B/A is more than one plot holds ({MAX_LINES}): "
            "choose with -b, --op or --sizes"
        )
    for i, (name, pts) in enumerate(sorted(series.items())):
        pts = sorted(pts)
        xs, ys, band = zip(*pts)
        colour = f"C{i % 10}"
        ax.plot(xs, ys, marker="o", markersize=3, color=colour, label=shorten(name))
        ax.fill_between(xs, [1 - b for b in band], [1 + b for b in band], color=colour, alpha=0.08)
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("bytes")
    first, second = shorten(labels[0]), shorten(labels[1])
    ax.set_ylabel(f"{view} {second} / {first}")
    ax.set_title(f"{second} against {first} (shaded: noise of both)", fontsize=10)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=6, ncol=2)
    fig.tight_layout()
    return fig
