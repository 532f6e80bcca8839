"""The plot primitives every plot of the report draws with, and their one
owner: matplotlib (headless, text kept as text in SVG, the same SVG for the
same data), the bounds of a figure's pixels and of --dpi, the cache lines of
a mem panel, the steps of a sweep, and a figure's way out (a PNG or SVG file, an inline <svg> element). plots (the `plot` command) and pageplots (the page's small
multiples) import this module; it imports neither."""

from __future__ import annotations

import io
import pathlib
import re
from html import escape

import matplotlib

matplotlib.use("Agg")  # headless: no display is ever needed
matplotlib.rcParams["svg.fonttype"] = "none"  # SVG text stays text: smaller, searchable
matplotlib.rcParams["svg.hashsalt"] = "movebench"  # the same data gives the same SVG
import matplotlib.pyplot as plt  # noqa: E402

from .labels import shorten  # noqa: E402
from .model import ReportError, format_size  # noqa: E402

# Bounds of one plot, so that no input or --dpi makes a figure that eats the
# memory (matplotlib holds the whole raster): pixels, and --dpi's range.
MAX_PIXELS = 40_000_000
DPI_RANGE = (10, 1200)


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


def draw_steps(ax, steps: list):
    """Each step a sweep's document records (its `steps`, docs/results.md#steps)
    as a shaded band from the last size of the level before to the first of
    the level after, labelled with its cause at the foot of the axes."""
    for step in steps:
        low, high = step.get("size_before"), step.get("size")
        if not isinstance(low, (int, float)) or not isinstance(high, (int, float)) or low <= 0 or high <= low:
            continue
        ax.axvspan(low, high, color="tab:red", alpha=0.12, linewidth=0)
        ax.annotate(
            shorten(f"x{step.get('ratio', 1):.3g} {step.get('cause', '')}"),
            ((low * high) ** 0.5, 0.0),
            xycoords=("data", "axes fraction"),
            rotation=90,
            va="bottom",
            ha="center",
            fontsize=6,
            color="tab:red",
        )


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
