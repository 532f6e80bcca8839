"""`plot`: size against bandwidth and latency, log axes, one panel per
benchmark and view; several sources are drawn in one panel (a comparison);
`combined` puts every operation of every benchmark in one panel per view.
For `mem`, the host's cache sizes are drawn as vertical lines so the memory
hierarchy shows as steps in the sweep."""
from __future__ import annotations

import io
import pathlib

import matplotlib

matplotlib.use("Agg")  # headless: no display is ever needed
matplotlib.rcParams["svg.fonttype"] = "none"  # SVG text stays text: smaller, searchable
matplotlib.rcParams["svg.hashsalt"] = "movebench"  # the same data gives the same SVG
import matplotlib.pyplot as plt  # noqa: E402

from .model import VIEWS, Filter, ReportError, format_size, select  # noqa: E402
from .render import display_unit  # noqa: E402

LINESTYLES = ("-", "--", ":", "-.")


def _array_bytes(p, doc_settings: dict) -> int:
    """mem records carry the dataset size (all arrays of the kernel); this is
    the size of one array (TheBandwidthBenchmark's 'array size' plot)."""
    traffic = doc_settings.get(p.benchmark, {}).get("traffic", {}).get(p.operation, {})
    return p.bytes // max(1, traffic.get("arrays", 1))


def collect(sources: list, filt: Filter, views, per_array: bool) -> dict:
    """{(panel, view): {(source, series): [(x, value)]}} with the points kept."""
    panels = {}
    for s in sources:
        settings = s.documents[0]["settings"] if s.documents else {}
        for view in views:
            for p in select(s.points(), filt, view):
                if p.value(view) <= 0:
                    continue  # a log axis has no place for zero (e.g. 0-byte messages)
                x = _array_bytes(p, settings) if per_array else p.bytes
                series = f"{p.operation} {p.variant}".strip()
                panels.setdefault((p.benchmark, view), {}).setdefault((s.label, series), []).append(
                    (x, p.value(view)))
    return panels


def _draw_caches(ax, caches: list):
    seen = set()
    for cache in caches:
        if cache["bytes"] and cache["level"] not in seen:
            seen.add(cache["level"])
            ax.axvline(cache["bytes"], color="grey", linewidth=0.8, linestyle=":")
            ax.annotate(f"L{cache['level']} {format_size(cache['bytes'])}", (cache["bytes"], 1.0),
                        xycoords=("data", "axes fraction"), rotation=90, va="top", ha="right", fontsize=7,
                        color="grey")


def _draw_panel(ax, view: str, lines: dict, title: str, labels: list, unit=None):
    name, div = display_unit(view, [v for pts in lines.values() for _, v in pts], unit if view == "bandwidth"
                             else None)
    colours = {}
    several = len({label for label, _ in lines}) > 1
    for (label, series), pts in sorted(lines.items()):
        pts = sorted(pts)
        colour = colours.setdefault(series, f"C{len(colours) % 10}")
        style = LINESTYLES[labels.index(label) % len(LINESTYLES)] if several else "-"
        legend = f"{series} ({label})" if several else series
        ax.plot([x for x, _ in pts], [v / div for _, v in pts], marker="o", markersize=3, linestyle=style,
                color=colour, label=legend)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_title(title, fontsize=10)
    ax.set_xlabel("bytes")
    ax.set_ylabel(f"{view} [{name}]")
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(fontsize=6, ncol=2)


def figure_for(sources: list, filt: Filter, views=VIEWS, combined=False, per_array=False, unit=None):
    panels = collect(sources, filt, views, per_array)
    if combined:
        merged = {}
        for (bench, view), lines in panels.items():
            for (label, series), pts in lines.items():
                merged.setdefault(("all", view), {})[(label, f"{bench}.{series}")] = pts
        panels = merged
    if not panels:
        raise ReportError("nothing to plot: no bandwidth or latency figures left after filtering")
    keys = sorted(panels)
    cols = min(2, len(keys))
    rows = (len(keys) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(6.4 * cols, 4.2 * rows), squeeze=False)
    labels = [s.label for s in sources]
    for ax, key in zip(axes.flat, keys):
        bench, view = key
        _draw_panel(ax, view, panels[key], f"{bench}: size vs {view}", labels, unit)
        ax.set_xlabel("bytes per array" if per_array else "bytes (dataset: all arrays of a kernel)"
                      if bench == "mem" else "bytes")
        if bench in ("mem", "all") and not per_array:
            _draw_caches(ax, sources[0].caches)
    for ax in list(axes.flat)[len(keys):]:
        ax.set_visible(False)
    fig.tight_layout()
    return fig


def save(fig, out: pathlib.Path, dpi: int = 100):
    fmt = out.suffix.lower().lstrip(".")
    if fmt not in ("png", "svg"):
        plt.close(fig)
        raise ReportError(f"{out}: plot files end in .png or .svg")
    fig.savefig(out, format=fmt, dpi=dpi)
    plt.close(fig)


def png_bytes(fig) -> bytes:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=80)
    plt.close(fig)
    return buffer.getvalue()


def ratio_figure(verdicts: list, view: str, labels: tuple):
    """Comparison plot: B/A against size, one line per operation, the noise band shaded."""
    fig, ax = plt.subplots(figsize=(7, 4.2))
    series = {}
    for v in verdicts:
        bench, op, variant, size = v.key
        series.setdefault(f"{bench}.{op} {variant}".strip(), []).append((size, v.ratio, v.spread_a + v.spread_b))
    for i, (name, pts) in enumerate(sorted(series.items())):
        pts = sorted(pts)
        xs, ys, band = zip(*pts)
        colour = f"C{i % 10}"
        ax.plot(xs, ys, marker="o", markersize=3, color=colour, label=name)
        ax.fill_between(xs, [1 - b for b in band], [1 + b for b in band], color=colour, alpha=0.08)
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("bytes")
    ax.set_ylabel(f"{view} {labels[1]} / {labels[0]}")
    ax.set_title(f"{labels[1]} against {labels[0]} (shaded: noise of both)", fontsize=10)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=6, ncol=2)
    fig.tight_layout()
    return fig
