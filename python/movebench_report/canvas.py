"""The plot primitives every plot of the report draws with, and their one
owner: matplotlib (headless, text kept as text in SVG, the same SVG for the
same data), the bounds of a figure's pixels and of --dpi, the cache lines of
a mem panel, the heat map of a matrix (movebench node's), the steps of a sweep, a latency distribution's
percentile plot, and a figure's way out (a PNG or SVG file, an inline <svg> element). plots (the `plot` command) and pageplots (the page's small
multiples) import this module; it imports neither."""

from __future__ import annotations

import io
import math
import pathlib
import re
from dataclasses import dataclass
from html import escape

import matplotlib

matplotlib.use("Agg")  # headless: no display is ever needed
matplotlib.rcParams["svg.fonttype"] = "none"  # SVG text stays text: smaller, searchable
matplotlib.rcParams["svg.hashsalt"] = "movebench"  # the same data gives the same SVG
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib import colormaps, colors  # noqa: E402
from matplotlib.cm import ScalarMappable  # noqa: E402
from matplotlib.patches import Rectangle  # noqa: E402

from .labels import shorten  # noqa: E402
from .model import ReportError, format_size  # noqa: E402

# Bounds of one plot, so that no input or --dpi makes a figure that eats the
# memory (matplotlib holds the whole raster): pixels, and --dpi's range.
MAX_PIXELS = 40_000_000
DPI_RANGE = (10, 1200)


@dataclass
class Plot:
    """One plot of the page: its title, text alternative, inline <svg> and
    how many series each of its axes holds."""

    title: str
    alt: str
    svg: str
    series_per_axes: list


def draw_caches(ax, caches: list):
    """Each cache level's size as a dotted vertical line, labelled (mem: the hierarchy shows as steps)."""
    seen = set()
    for cache in caches:
        if cache["bytes"] and cache["level"] not in seen:
            seen.add(cache["level"])
            ax.axvline(cache["bytes"], color="grey", linewidth=0.8, linestyle=":")
            ax.annotate(
                shorten(f"L{cache['level']} {format_size(cache['bytes'])}"),
                (cache["bytes"], 1.0),
                xycoords=("data", "axes fraction"),
                rotation=90,
                va="top",
                ha="right",
                fontsize=7,
                color="grey",
            )


def _memory_text(step: dict) -> str:
    """ "pinned: " before a link step's label, first so that no cut takes it away."""
    memory = step.get("memory")
    return f"{memory}: " if isinstance(memory, str) and memory else ""


def draw_steps(ax, steps: list):
    """Each step a sweep's document records (its `steps`, docs/results.md#steps)
    as a shaded band from the last size of the level before to the first of
    the level after, labelled with its cause (and its sweep's memory kind,
    link's, where it has one) at the foot of the axes. Steps of several sweeps
    over the same span (link's memory kinds) share one band, their labels side
    by side in it rather than written over each other."""
    spans: dict = {}
    for step in steps:
        low, high = step.get("size_before"), step.get("size")
        if not isinstance(low, (int, float)) or not isinstance(high, (int, float)) or low <= 0 or high <= low:
            continue
        label = shorten(f"{_memory_text(step)}x{step.get('ratio', 1):.3g} {step.get('cause', '')}")
        spans.setdefault((low, high), []).append(label)
    for (low, high), labels in spans.items():
        ax.axvspan(low, high, color="tab:red", alpha=0.12, linewidth=0)
        ax.annotate(
            "\n".join(labels),
            ((low * high) ** 0.5, 0.0),
            xycoords=("data", "axes fraction"),
            rotation=90,
            va="bottom",
            ha="center",
            fontsize=6,
            color="tab:red",
        )


# The percentile axis of a latency distribution: -log10(1 - share), so that
# 90, 99, 99.9 % stand equally apart and a tail shows as the line's rise at
# the right (`plot --distributions` and the page's distribution panels).
NINES_TICKS = ((0, "0"), (math.log10(2), "50"), (1, "90"), (2, "99"), (3, "99.9"), (4, "99.99"))


def nines(share: float, total: int) -> float:
    """The x of a cumulative share: -log10(1 - share), the last sample at
    half a sample beyond the one before (it has no 1 - share)."""
    return -math.log10(max(1 - share, 0.5 / total))


def draw_percentiles(ax, title: str, curves: list):
    """Latency distributions as percentile plots on one axes: each of
    `curves` (label, [seconds], [cumulative share], sample count) a step
    line, the latency against the percentile on the nines axis (NINES_TICKS)."""
    unit, div = ("us", 1e-6) if max(max(seconds) for _, seconds, _, _ in curves) >= 1e-5 else ("ns", 1e-9)
    top = 0
    for i, (label, seconds, shares, count) in enumerate(curves):
        xs = [nines(s, count) for s in shares]
        top = max(top, xs[-1])
        ax.step(xs, [s / div for s in seconds], where="post", color=f"C{i % 10}", label=label)
    ticks = [t for t in NINES_TICKS if t[0] <= max(top, 2)]
    ax.set_xticks([t for t, _ in ticks], [text for _, text in ticks])
    ax.set_xlabel("percentile [%]", fontsize=8)
    ax.set_ylabel(f"latency [{unit}]", fontsize=8)
    ax.set_title(title, fontsize=8)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=6)


def check_plot_path(out: pathlib.Path, option: str = "-o"):
    if out.suffix.lower() not in (".png", ".svg"):
        raise ReportError(f"{option} {out}: plot files end in .png or .svg")


def check_pixels(fig, dpi: int):
    width, height = fig.get_size_inches() * dpi
    if width * height > MAX_PIXELS:
        plt.close(fig)
        raise ReportError(
            f"--dpi {dpi}: the plot would be {width:.0f}x{height:.0f} pixels, more than "
            f"{MAX_PIXELS // 10**6} million: lower --dpi or plot fewer benchmarks"
        )


def save(fig, out: pathlib.Path, dpi: int = 100, option: str = "-o"):
    check_plot_path(out, option)
    check_pixels(fig, dpi)
    try:
        fig.savefig(out, format=out.suffix.lower().lstrip("."), dpi=dpi)
    except OSError as e:
        raise ReportError(f"{option} {out}: cannot write ({e.strerror or e})") from None
    finally:
        plt.close(fig)


def svg_of(fig, title: str, alt: str) -> str:
    """The figure as an inline <svg> element with our <title> and <desc>; no
    XML prolog or DOCTYPE (it sits inside the page)."""
    buffer = io.StringIO()
    # No metadata block: it names outside namespaces and the date (the page
    # stays the same for the same data).
    fig.savefig(buffer, format="svg", metadata={"Creator": None, "Date": None, "Format": None, "Type": None})
    plt.close(fig)
    text = buffer.getvalue()
    text = text[text.index("<svg") :]
    text = re.sub(r"<svg ", "<svg role='img' class='plot' ", text, count=1)
    head_end = text.index(">") + 1
    return text[:head_end] + f"<title>{escape(title)}</title><desc>{escape(alt)}</desc>" + text[head_end:]


# A heat map's bounds: up to VALUES_UPTO rows and columns each cell has its
# value written in it; up to PATCHES_UPTO each cell is a patch of its own
# (an SVG <g id>, so a cell can be found); beyond, the matrix is one image.
VALUES_UPTO = 24
PATCHES_UPTO = 32
MOST_TICKS = 32
MOST_OUTLINES = 256


def _ink(rgba) -> str:
    """Black on a light cell, white on a dark one."""
    r, g, b = rgba[:3]
    return "black" if 0.299 * r + 0.587 * g + 0.114 * b > 0.5 else "white"


def cell_text(value: float) -> str:
    """A cell's value in at most four characters or so: 1840, 87.3, 0.912."""
    return f"{value:.0f}" if abs(value) >= 100 else f"{value:.3g}"


def _ticks(ax, labels: list, axis: str):
    step = max(1, math.ceil(len(labels) / MOST_TICKS))
    at = list(range(0, len(labels), step))
    shown = [shorten(labels[i], 32) for i in at]
    if axis == "x":
        ax.set_xticks([i + 0.5 for i in at], shown, rotation=90 if len(labels) > 6 else 0, fontsize=7)
    else:
        ax.set_yticks([i + 0.5 for i in at], shown, fontsize=7)


def draw_heatmap(ax, cells: list, rows: list, columns: list, name: str, unit: str, higher_better: bool, marked=()):
    """A matrix as coloured cells (cells[r][c] a number, or None: not
    measured, left white and said so), the better end of the scale bright
    (viridis; the colour bar names the unit and which end is better). Each
    cell is a patch with the SVG id cell-NAME-R-C and, in a small matrix,
    its value written in it (id value-NAME-R-C). A cell of `marked` ((r, c)
    pairs: named in a finding) is outlined in red (id finding-NAME-R-C) and
    its value ends in '*': the colour is never the only carrier."""
    values = [v for row in cells for v in row if v is not None]
    low, high = (min(values), max(values)) if values else (0.0, 1.0)
    if high <= low:
        low, high = low * 0.99 - 1e-12, high * 1.01 + 1e-12
    norm = colors.Normalize(low, high)
    cmap = colormaps["viridis" if higher_better else "viridis_r"]
    n_rows, n_cols = len(rows), len(columns)
    if max(n_rows, n_cols) <= PATCHES_UPTO:
        written = max(n_rows, n_cols) <= VALUES_UPTO
        size = 8 if max(n_rows, n_cols) <= 6 else 6 if max(n_rows, n_cols) <= 12 else 4.5
        for r, row in enumerate(cells):
            for c, v in enumerate(row):
                face = cmap(norm(v)) if v is not None else (1, 1, 1, 1)
                ax.add_patch(
                    Rectangle((c, r), 1, 1, facecolor=face, edgecolor="white", lw=0.5, gid=f"cell-{name}-{r}-{c}")
                )
                if written and v is not None:
                    mark = "*" if (r, c) in marked else ""
                    ax.text(
                        c + 0.5,
                        r + 0.5,
                        f"{cell_text(v)}{mark}",
                        ha="center",
                        va="center",
                        fontsize=size,
                        color=_ink(face),
                        gid=f"value-{name}-{r}-{c}",
                    )
    else:
        grid = [[math.nan if v is None else v for v in row] for row in cells]
        ax.imshow(grid, cmap=cmap, norm=norm, extent=(0, n_cols, n_rows, 0), interpolation="nearest", aspect="auto")
    for r, c in sorted(marked)[:MOST_OUTLINES]:
        ax.add_patch(
            Rectangle(
                (c + 0.04, r + 0.04), 0.92, 0.92, fill=False, edgecolor="#d62728", lw=2.2, gid=f"finding-{name}-{r}-{c}"
            )
        )
    ax.set_xlim(0, n_cols)
    ax.set_ylim(n_rows, 0)
    ax.set_aspect("equal")
    _ticks(ax, columns, "x")
    _ticks(ax, rows, "y")
    ax.tick_params(length=0)
    bar = ax.figure.colorbar(ScalarMappable(norm, cmap), ax=ax, fraction=0.046, pad=0.04)
    bar.set_label(f"{unit} ({'higher' if higher_better else 'lower'} is better)", fontsize=7)
    bar.ax.tick_params(labelsize=6)
