"""`history --plot` and the history page's plots (docs/history.md): each
figure's series over time as small multiples, in the report's style (canvas
primitives, at most pageplots.MAX_SERIES series per axes, two columns as
`plot` lays them out): one axes per figure, one line per host (or rank or
fleet unit), the figure's value against the time its run began. A change
point is marked at the run that first showed it (▼ for the worse, ▲ for the
better, ◆ within the threshold) with the medians before and after it as
dashed levels; a latest run slower than its own past is ringed (in black: a
series has a colour of C0 to C9). Each mark is an SVG group of its own
(<g id='change-P-S-run-R'>, 'slower-P-S-run-R': axes, series, stored run),
so a reader and the tests can find them. Where two or more series (the
units of a fleet, the hosts of a site) have runs at the same times, the
spread of their values at each such time (min to max) is a grey band behind
the lines (<g id='spread-P'>): how far apart the fleet was, run by run."""

from __future__ import annotations

import matplotlib.dates as mdates

from .canvas import plt, svg_of
from .history import when_text
from .labels import MAX_SHORT, shorten
from .model import ReportError
from .pageplots import MAX_SERIES, Plot
from .plots import MAX_LINES, MAX_PANELS

CHANGE_MARKS = {"slower": ("v", "C3"), "faster": ("^", "C2")}
WITHIN = ("D", "0.5")  # a change point inside the threshold or the noise
KEY = "change points: ▼ worse, ▲ better, ◆ within threshold (dashed: medians); ○ latest run slower"


def panels_of(found: list) -> list:
    """[(title, unit, [Finding])]: one figure (name and unit: every host's
    series of it) per axes, split where it has more than MAX_SERIES series."""
    figures = {}
    for f in found:
        figures.setdefault((f.series.name, f.series.unit), []).append(f)
    panels = []
    for (name, unit), members in figures.items():
        chunks = [members[i : i + MAX_SERIES] for i in range(0, len(members), MAX_SERIES)]
        for k, chunk in enumerate(chunks):
            part = f" ({k + 1}/{len(chunks)})" if len(chunks) > 1 else ""
            panels.append((shorten(f"{name} [{unit}]", MAX_SHORT) + part, unit, chunk))
    return panels


def _who(series) -> str:
    return shorten(f"{series.host or '-'}{f' rank {series.rank}' if series.rank else ''}", MAX_SHORT)


def _timed(runs: list) -> list:
    """The runs that say when they began (a document without a time is not drawn)."""
    return [r for r in runs if r.time is not None]


def _draw_changes(ax, finding, colour: str, gid: str):
    """Each change point's mark, and the medians of the levels around it."""
    runs, changes = finding.series.runs, finding.changes
    for n, c in enumerate(changes):
        first = runs[c.index]
        if first.time is None:
            continue
        marker, mark_colour = CHANGE_MARKS.get(c.verdict, WITHIN)
        (mark,) = ax.plot([first.time], [first.value], marker=marker, markersize=9, color=mark_colour, zorder=4)
        mark.set_gid(f"change-{gid}-run-{c.run}")
        ax.axvline(first.time, color=colour, linewidth=0.8, linestyle=":")
        start = changes[n - 1].index if n > 0 else 0
        end = changes[n + 1].index if n + 1 < len(changes) else len(runs)
        for level, part in ((c.before, runs[start : c.index]), (c.after, runs[c.index : end])):
            times = [r.time for r in _timed(part)]
            if times:
                ax.hlines(level, times[0], times[-1], colors=colour, linestyles="--", linewidth=0.9)


def _draw_finding(ax, finding, colour: str, gid: str):
    series = finding.series
    runs = _timed(series.runs)
    if not runs:
        return
    (line,) = ax.plot(
        [r.time for r in runs], [r.value for r in runs], marker="o", markersize=3, color=colour, label=_who(series)
    )
    line.set_gid(f"series-{gid}")
    _draw_changes(ax, finding, colour, gid)
    latest = series.runs[-1]
    if finding.slower and latest.time is not None:
        ring = ax.scatter(
            [latest.time], [latest.value], s=110, facecolors="none", edgecolors="black", linewidths=1.5, zorder=5
        )
        ring.set_gid(f"slower-{gid}-run-{latest.run}")


def spread_of(members: list) -> list:
    """[(time, least, greatest)]: at each time two or more of the series have
    a run, the range of their values, oldest first."""
    at = {}
    for f in members:
        for r in _timed(f.series.runs):
            at.setdefault(r.time, []).append(r.value)
    return [(t, min(v), max(v)) for t, v in sorted(at.items()) if len(v) >= 2]


def _draw_spread(ax, members: list, gid: str):
    """The fleet's spread over time, behind the series (two such times at least)."""
    spread = spread_of(members)
    if len(spread) < 2:
        return
    times, least, greatest = zip(*spread)
    band = ax.fill_between(times, least, greatest, color="0.5", alpha=0.18, linewidth=0, label="spread (min..max)")
    band.set_gid(f"spread-{gid}")


def draw_panel(ax, panel: tuple, index: int = 0):
    """One axes: every series of one figure over time, their spread, its marks."""
    title, unit, members = panel
    _draw_spread(ax, members, str(index))
    for i, f in enumerate(members):
        _draw_finding(ax, f, f"C{i % 10}", f"{index}-{i}")
    locator = mdates.AutoDateLocator()
    ax.xaxis.set_major_locator(locator)
    ax.xaxis.set_major_formatter(mdates.ConciseDateFormatter(locator))
    ax.set_title(title, fontsize=9)
    ax.set_ylabel(shorten(unit, MAX_SHORT))
    ax.grid(True, alpha=0.3)
    ax.tick_params(labelsize=7)
    ax.legend(fontsize=7)


def _check_bounds(panels: list, where: str):
    lines = sum(len(members) for _, _, members in panels)
    if len(panels) > MAX_PANELS or lines > MAX_LINES:
        raise ReportError(
            f"{where}: {len(panels)} panels and {lines} lines is more than one plot holds "
            f"({MAX_PANELS} panels, {MAX_LINES} lines): choose with --host or --figure"
        )


def _grid(panels: list, indices: list):
    """The panels in two columns, as `plot` lays them out."""
    cols = min(2, len(panels))
    rows = (len(panels) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(6.4 * cols, 3.6 * rows), squeeze=False)
    for ax, panel, index in zip(axes.flat, panels, indices):
        draw_panel(ax, panel, index)
    for ax in list(axes.flat)[len(panels) :]:
        ax.set_visible(False)
    return fig


def _drawable(found: list) -> list:
    return [p for p in panels_of(found) if any(_timed(f.series.runs) for f in p[2])]


def history_figure(found: list, where: str = "history"):
    """Every figure's panels in one matplotlib figure (`history --plot`)."""
    panels = _drawable(found)
    if not panels:
        raise ReportError(f"{where}: nothing to plot: no run with a time")
    _check_bounds(panels, where)
    fig = _grid(panels, list(range(len(panels))))
    fig.suptitle(f"history: every figure over time\n{KEY}", fontsize=8)
    fig.tight_layout()
    return fig


def alt_text(panel: tuple) -> str:
    """The panel in words: per series its runs, latest value and marks."""
    title, unit, members = panel
    parts = []
    for f in members:
        runs = _timed(f.series.runs)
        if not runs:
            parts.append(f"{_who(f.series)}: no run with a time")
            continue
        words = [f"{_who(f.series)}: {len(runs)} runs from {when_text(runs[0].time)} to {when_text(runs[-1].time)}"]
        words.append(f"latest {runs[-1].value:.4g} {shorten(unit, MAX_SHORT)}")
        words += [f"change at run {c.run} ({when_text(c.time)}, {c.verdict}, x{c.ratio:.3f})" for c in f.changes]
        words += ["latest slower than its past"] if f.slower else []
        parts.append(", ".join(words))
    spread = spread_of(members)
    if spread:
        widest = max(spread, key=lambda s: s[2] - s[1])
        parts.append(
            f"spread of the series at {len(spread)} common times, widest at {when_text(widest[0])}: "
            f"{widest[1]:.4g} to {widest[2]:.4g}"
        )
    return f"{title} over time. " + "; ".join(parts)


def figure_plots(found: list) -> tuple:
    """The page's plots: ({figure name: its Plot, an inline SVG}, why the
    figures with more panels or lines than one plot holds are not drawn)."""
    figures = {}
    for index, panel in enumerate(_drawable(found)):
        figures.setdefault(panel[2][0].series.name, []).append((index, panel))
    plots, too_many = {}, []
    for name, numbered in figures.items():
        panels = [p for _, p in numbered]
        try:
            _check_bounds(panels, name)
        except ReportError as e:
            too_many.append(str(e))
            continue
        fig = _grid(panels, [i for i, _ in numbered])
        fig.tight_layout()
        title = shorten(f"{name} over time", MAX_SHORT)
        alt = " ".join(alt_text(p) for p in panels)
        plots[name] = Plot(title, alt, svg_of(fig, title, alt), [len(p[2]) for p in panels])
    return plots, too_many
