"""The page's plots: per benchmark and view, small multiples with shared
axes and at most MAX_SERIES series per axes; a series is one sweep (the
records of one operation that differ only in size), so no line ever joins
points of different sweeps or designs; points that are no sweep (one size)
are markers without a line. One marker per statistic of the figure; the axis
in the figure's own unit and accounting; cache sizes on mem; the steps the
document records, shaded and named; the peak as a line where the document
records one. Each plot is an inline SVG with a
<title> and a text alternative (<desc>)."""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field, replace

from .canvas import Plot, draw_caches, draw_steps, plt, svg_of
from .facts import measured_link, peak_of
from .fleet import ALL_FIGURES, fleet_of, marks
from .labels import MAX_SHORT, shorten
from .model import BANDWIDTH_UNITS, TIME_UNITS, Filter, format_size, select
from .node import node_of
from .nodeplots import node_plots
from .render import display_unit

MAX_SERIES = 8
LOADED = "loaded_latency"  # mem's loaded latency: all its records share one size (plots: against the load)
# Parameters that say how a run measured, not what: never a new series.
HOW_PARAMS = {
    "elements",
    "shape",
    "nontemporal",
    "alignment",
    "disturbed_samples_retaken",
    "seed",
    "cpu",
    "resolved",
    "clock",
    "iterations",
    "batch",
    "best_method",
}
MARKERS = {"min": "v", "max": "^", "median": "o", "mean": "s", "p90": "D", "p99": "X", "p99.9": "P"}


@dataclass
class Series:
    label: str  # what tells it apart: 'copy.read host_memory=pinned'
    operation: str
    points: list = field(default_factory=list)  # (bytes, value in base units)
    stat: str = ""
    is_sweep: bool = True
    accounting: str = ""  # the bytes a bandwidth counts, in words ('' for a time)
    directions: int = 1  # 2: a bandwidth summed over both directions


def _sweep_params(points: list) -> list:
    """The parameters that tell points of one operation and size apart:
    plain values that differ between two records of the same size."""
    by_size = {}
    for p in points:
        by_size.setdefault((p.operation, p.bytes), []).append(p.params)
    names = set()
    for group in by_size.values():
        for name in {k for params in group for k in params} - HOW_PARAMS:
            values = {
                repr(params.get(name)) for params in group if not isinstance(params.get(name), (float, list, dict))
            }
            if len(values) > 1:
                names.add(name)
    return sorted(names)


def series_of(points: list, view: str, by_source: bool = False) -> list:
    """Sweeps of one benchmark: one Series per operation and distinguishing
    parameters, cut where the same key comes back at a size it already has
    (another sweep with the same parameters: stream's design comparison at
    16 KiB, then its chunk-size sweep through 16 KiB); one whose points are
    all of one size is no sweep."""
    names = _sweep_params(points)
    runs = _runs(points, names, by_source)
    out = []
    for key, segments in runs.items():
        for i, segment in enumerate(_sweeps_of(segments)):
            label = key if i == 0 else f"{key} (sweep {i + 1})"
            series = Series(shorten(label), segment[0].operation, [(p.bytes, p.value(view)) for p in segment])
            meaning = segment[0].meaning(view)
            series.stat = meaning.stat if meaning else ""
            series.accounting = meaning.accounting.text() if meaning and meaning.accounting else ""
            series.directions = meaning.accounting.directions if meaning and meaning.accounting else 1
            series.is_sweep = len({x for x, _ in series.points}) > 1  # one size: a bar, not a line
            out.append(series)
    return out


def _runs(points: list, names: list, by_source: bool = False) -> dict:
    """{key: [runs]}: each run the consecutive points (document order) of one
    key; `by_source`: each file's points their own key (a comparison)."""
    runs, last = {}, None
    for p in points:
        key = " ".join(
            [p.operation]
            + [f"{n}={p.params[n]}" for n in names if n in p.params]
            + ([f"({p.source})"] if by_source else [])
        )
        if key != last:
            runs.setdefault(key, []).append([])
        runs[key][-1].append(p)
        last = key
    return runs


def _sweeps_of(runs: list) -> list:
    """The sweeps of one key: its runs of consecutive records where any has
    more than one record; where every run is one record (a writer that
    interleaves keys, size by size), the records in order, a new sweep only
    where a size comes back."""
    if any(len(run) > 1 for run in runs) or len(runs) == 1:
        return [sweep for run in runs for sweep in _cut_at_repeats(run)]
    return _cut_at_repeats([p for run in runs for p in run])


def _cut_at_repeats(points: list) -> list:
    sweeps, sizes = [[]], set()
    for p in points:
        if p.bytes in sizes:
            sweeps.append([])
            sizes = set()
        sweeps[-1].append(p)
        sizes.add(p.bytes)
    return sweeps


def panels_of(series: list) -> list:
    """Small multiples: operations of one family (link's copy.* or kernel.*)
    and one byte accounting packed together up to MAX_SERIES series per
    panel, never two families or two accountings in one panel (a duplex sum
    counts both directions: its axis is another); an operation with more
    series than that is split over panels."""
    panels, current, family = [], [], None
    groups = dict.fromkeys((s.operation, s.accounting) for s in series)
    for op, accounting in groups:
        mine = [s for s in series if (s.operation, s.accounting) == (op, accounting)]
        chunks = [mine[i : i + MAX_SERIES] for i in range(0, len(mine), MAX_SERIES)]
        for chunk in chunks:
            if current and (len(current) + len(chunk) > MAX_SERIES or (_family(op), accounting) != family):
                panels.append(current)
                current = []
            current = current + chunk
            family = (_family(op), accounting)
    return panels + ([current] if current else [])


def _family(op: str) -> str:
    """'copy' of 'copy.duplex.read'; plain names (allreduce, triad) are one family."""
    return op.split(".")[0] if "." in op else ""


def _axis_text(series: list, view: str, unit: str) -> str:
    """The y axis: the unit, and the bytes counted where every series of
    the figure counts the same (else each panel's title says its own)."""
    text = f"{view} [{unit}]"
    accountings = {s.accounting for s in series}
    if view == "bandwidth" and len(accountings) == 1 and "" not in accountings:
        text += f", {accountings.pop()}"
    return text


def _panel_title(panel: list, mixed: bool) -> str:
    """The operations of a panel, and its bytes counted where the figure's panels differ in that."""
    title = shorten(", ".join(dict.fromkeys(s.operation for s in panel)), MAX_SHORT)
    return f"{title}\n({panel[0].accounting})" if mixed and panel[0].accounting else title


def _draw_series(ax, panel: list, divisor: float, index: int = 0):
    for i, s in enumerate(panel):
        pts = sorted(s.points)
        lines = ax.plot(
            [x for x, _ in pts],
            [v / divisor for _, v in pts],
            marker=MARKERS.get(s.stat, "o"),
            markersize=4,
            linestyle="-" if s.is_sweep else "none",
            color=f"C{i % 10}",
            label=s.label,
        )
        for line in lines:  # the SVG's <g id='series-P-S'>: a reader (and the tests) can count them per axes
            line.set_gid(f"series-{index}-{i}")


def _peak_lines(ax, points: list, view: str, divisor: float):
    """The peak of the figures plotted, where the document records one."""
    seen = set()
    for p in points:
        for fig in p.record["figures"].values():
            peak = peak_of(fig)
            units = BANDWIDTH_UNITS if view == "bandwidth" else TIME_UNITS
            if peak and peak.unit in units and (peak.value, peak.unit) not in seen:
                seen.add((peak.value, peak.unit))
                ax.axhline(
                    peak.value * units[peak.unit] / divisor,
                    color="black",
                    linestyle="--",
                    linewidth=1,
                    label=shorten(f"peak ({peak.source})", MAX_SHORT),
                )


def _in_panel(point, panel: list) -> bool:
    return any(s.operation == point.operation for s in panel)


def _link_peak_line(ax, link, directions: int, divisor: float):
    """The PCIe link's peak (facts: per direction), twice it on a panel of
    sums over both directions."""
    both = " x 2 directions" if directions == 2 else " per direction"
    ax.axhline(
        link.peak * directions / divisor,
        color="black",
        linestyle="--",
        linewidth=1,
        label=shorten(f"PCIe peak, {link.trained()}{both}", MAX_SHORT),
    )


def benchmark_plot(source_points: list, bench: str, view: str, caches: list, link=None, steps=()) -> list:
    """The figures of a benchmark's view: its sweeps as small multiples of
    lines, its single-size points as labelled bars (a cloud of dots at one
    size says nothing)."""
    points = [
        p for p in source_points if p.benchmark == bench and p.value(view) and p.bytes > 0 and p.operation != LOADED
    ]
    if not points:
        return []
    series = series_of(points, view)
    unit, divisor = display_unit(view, [p.value(view) for p in points])
    sweeps = [s for s in series if s.is_sweep]
    singles = [s for s in series if not s.is_sweep]
    out = [_sweep_plot(points, bench, view, sweeps, caches, unit, divisor, link, steps)] if sweeps else []
    return out + ([_bar_plot(points, bench, view, singles, unit, divisor)] if singles else [])


def x_label(bench: str, view: str) -> str:
    """What the size axis counts: mem's bandwidth records carry the dataset
    (all arrays of a kernel), its latency records the chase's working set."""
    if bench == "mem":
        return "bytes (working set)" if view == "latency" else "bytes (dataset: all arrays of a kernel)"
    return "bytes"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


@dataclass
class Panel:
    """What drawing one axes needs besides its series."""

    bench: str
    view: str
    points: list  # the records plotted (their peaks)
    caches: list
    unit: str
    divisor: float
    link: object = None  # facts.Link of the link benchmark, for its PCIe peak
    mixed: bool = False  # the figure's series count bytes in more than one way
    steps: list = field(default_factory=list)  # the documents' `steps` (Source.steps)


def draw_sweeps(ax, panel: list, ctx: Panel, index: int = 0):
    """One axes of sweeps: a line per series, the peaks, caches on mem."""
    _draw_series(ax, panel, ctx.divisor, index)
    _peak_lines(ax, [p for p in ctx.points if _in_panel(p, panel)], ctx.view, ctx.divisor)
    if ctx.link is not None and ctx.link.peak and ctx.view == "bandwidth" and ctx.bench == "link":
        _link_peak_line(ax, ctx.link, panel[0].directions, ctx.divisor)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7, title=_marker_key(panel), title_fontsize=7)
    ax.set_title(_panel_title(panel, ctx.mixed), fontsize=9)
    if ctx.bench in ("mem", "all") and ctx.caches:
        draw_caches(ax, ctx.caches)
    draw_steps(ax, steps_of(ctx, panel))


def steps_of(ctx: Panel, panel: list) -> list:
    """The recorded steps of the panel's sweeps: the sweeps of its benchmark
    and operations whose figure is the view's, each with its sweep's memory
    kind (`memory`, link's) where it has one, so that its label says which."""
    operations = {s.operation for s in panel}
    return [
        dict(step, memory=sweep["memory"]) if isinstance(sweep.get("memory"), str) else step
        for sweep in ctx.steps
        if sweep.get("benchmark") in (ctx.bench, None) or ctx.bench == "all"
        if sweep.get("operation") in operations and sweep.get("figure") == ctx.view
        for step in sweep.get("steps", [])
        if isinstance(step, dict)
    ]


def _sweep_plot(points, bench, view, series, caches, unit, divisor, link=None, steps=()) -> Plot:
    panels = panels_of(series)
    ctx = Panel(bench, view, points, caches, unit, divisor, link, len({s.accounting for s in series}) > 1, list(steps))
    cols = min(2, len(panels))
    rows = (len(panels) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(6.2 * cols, 3.6 * rows), squeeze=False, sharex=True, sharey=True)
    for i, (ax, panel) in enumerate(zip(axes.flat, panels)):
        draw_sweeps(ax, panel, ctx, i)
    for ax in axes[-1]:
        ax.set_xlabel(x_label(bench, view))
    for ax in axes[:, 0]:
        ax.set_ylabel(_axis_text(series, view, unit), fontsize=8)
    for ax in list(axes.flat)[len(panels) :]:
        ax.set_visible(False)
    title = (
        f"{shorten(bench)}: size against {view} ({_plural(len(series), 'sweep')} in {_plural(len(panels), 'panel')})"
    )
    return _finish(fig, title, _alt_text(bench, view, series, unit, divisor), [len(p) for p in panels])


MAX_BARS = 24  # bars per axes: more go to another axes


def bars_of(series: list, divisor: float) -> list:
    """[(label, value, statistic)] of single-size series, in groups of MAX_BARS (one axes each)."""
    mixed = len({s.accounting for s in series}) > 1  # then each bar says the bytes it counts
    bars = [
        (
            f"{s.label} @ {format_size(x)}" + (f" ({s.accounting})" if mixed and s.accounting else ""),
            v / divisor,
            s.stat,
        )
        for s in series
        for x, v in sorted(s.points)
    ]
    return [bars[i : i + MAX_BARS] for i in range(0, len(bars), MAX_BARS)]


def draw_bars(ax, group: list):
    """Single-size points as horizontal bars, each labelled with what it is and its value."""
    ax.barh(range(len(group)), [v for _, v, _ in group], color="C0", height=0.6)
    ax.set_yticks(range(len(group)), [label for label, _, _ in group], fontsize=7)
    ax.invert_yaxis()
    for i, (_, v, _) in enumerate(group):
        ax.annotate(f"{v:.4g}", (v, i), xytext=(3, 0), textcoords="offset points", va="center", fontsize=7)
    ax.grid(True, axis="x", alpha=0.3)
    ax.margins(x=0.15)


def bar_label(series: list, view: str, unit: str, groups: list) -> str:
    stats = ", ".join(sorted({shorten(st) for group in groups for _, _, st in group if st}))
    return _axis_text(series, view, unit) + (f" ({stats})" if stats else "")


def _bar_plot(points, bench, view, series, unit, divisor) -> Plot:
    groups = bars_of(series, divisor)
    fig, axes = plt.subplots(
        len(groups), 1, figsize=(9, 0.9 + 0.26 * max(len(g) for g in groups) * len(groups)), squeeze=False, sharex=True
    )
    for ax, group in zip(axes[:, 0], groups):
        draw_bars(ax, group)
    axes[-1, 0].set_xlabel(bar_label(series, view, unit, groups), fontsize=8)
    bars = [bar for group in groups for bar in group]
    title = f"{shorten(bench)}: {view} of the single-size runs ({_plural(len(bars), 'point')})"
    alt = f"{title}: " + "; ".join(f"{label} {v:.4g} {unit}" for label, v, _ in bars)
    return _finish(fig, title, alt, [1] * len(groups))


def _marker_key(panel: list) -> str:
    stats = sorted({shorten(s.stat) for s in panel if s.stat})
    return (
        "marker: " + ", ".join(f"{MARKER_NAMES.get(MARKERS.get(st, 'o'), 'o')} {st}" for st in stats) if stats else None
    )


MARKER_NAMES = {"v": "▼", "^": "▲", "o": "●", "s": "■", "D": "◆", "X": "✖"}


def _finish(fig, title: str, alt: str, series_per_axes: list) -> Plot:
    fig.suptitle(title, fontsize=11)
    fig.tight_layout()
    return Plot(title, alt, svg_of(fig, title, alt), series_per_axes)


def _alt_text(bench: str, view: str, series: list, unit: str, divisor: float) -> str:
    parts = []
    for s in series:
        pts = sorted(s.points)
        best = (max if view == "bandwidth" else min)(v for _, v in pts) / divisor
        parts.append(
            f"{s.label}: {len(pts)} points from {format_size(pts[0][0])} to {format_size(pts[-1][0])}, "
            f"best {best:.4g} {unit}"
        )
    return f"{bench} {view} against size. " + "; ".join(parts)


def benchmark_plots(source, filt: Filter) -> dict:
    """{benchmark: [Plot]} of one source (one per view that has figures). A
    fleet result's records are units and pairs, not sizes: its strip plot;
    a node result's are cells of matrices: their heat maps (nodeplots)."""
    points = source.points()
    link = measured_link(source.documents[0]) if source.documents else None
    out = {}
    for path, doc in zip(source.paths, source.documents):
        fleet = fleet_of(doc, str(path))
        plot = fleet_strip_plot(source.label, fleet) if fleet else None
        if plot:
            out.setdefault("fleet", []).append(plot)
        node = node_of(doc, str(path))
        if node:
            out.setdefault("node", []).extend(node_plots(source.label, node))
    for bench in dict.fromkeys(p.benchmark for p in points):
        if bench in out or bench == "node":
            continue  # fleet and node: drawn above (a node's records are cells, not sizes)
        for view in ("bandwidth", "latency"):
            kept = select([p for p in points if p.benchmark == bench], filt, view)
            out.setdefault(bench, []).extend(benchmark_plot(kept, bench, view, source.caches, link, source.steps))
    return out


MAX_LABELS = 10  # labels per strip: more are coloured and listed in the text alternative, not labelled


def _strip_heights(members: list, figure: str, tables: tuple) -> list:
    """Each dot's height in a strip: the labelled ones evenly apart, so no
    two labels overlap; the others a fixed spread (the page stays the same
    for the same data)."""
    named = [i for i, m in enumerate(members) if any((m.key, figure) in t for t in tables)]
    ys = [((i * 7) % 11 - 5) / 10 for i in range(len(members))]
    for n, i in enumerate(named):
        ys[i] = 0.8 - 1.6 * n / max(1, len(named) - 1) if len(named) > 1 else 0.0
    return ys


def fleet_strip_plot(label: str, fleet) -> Plot | None:
    """A fleet result's figures as strip plots, one axes per figure: one dot
    per unit (or pair) along the value, spread up and down so that equal
    values stay visible; the median as a line; outliers red and labelled,
    what got slower than the baseline ringed and labelled."""
    rows = [(f, u, b, [m for m in getattr(fleet, of) if f in m.figures]) for f, u, b, of in ALL_FIGURES]
    rows = [r for r in rows if r[3]]
    if not rows:
        return None
    outliers, slower = marks(fleet.outliers), marks(fleet.regressions)
    fig, axes = plt.subplots(len(rows), 1, figsize=(9, 0.3 + 1.25 * len(rows)), squeeze=False)
    alt = []
    for ax, (figure, unit, better, members) in zip(axes[:, 0], rows):
        values = [m.figures[figure] for m in members]
        ys = _strip_heights(members, figure, (outliers, slower))
        bad = [(m, x, y) for m, x, y in zip(members, values, ys) if (m.key, figure) in outliers]
        ax.scatter(values, ys, s=14, color="C0", alpha=0.7)
        ax.scatter([x for _, x, _ in bad], [y for _, _, y in bad], s=30, color="C3", zorder=3)
        median = statistics.median(values)
        ax.axvline(median, color="0.4", lw=0.8, ls="--")
        named = []
        for m, x, y in zip(members, values, ys):
            words = [w for w, table in (("OUTLIER", outliers), ("SLOWER", slower)) if (m.key, figure) in table]
            if "SLOWER" in words:
                ax.scatter([x], [y], s=70, facecolors="none", edgecolors="C1", zorder=4)
            if words and len(named) < MAX_LABELS:
                right = x > (min(values) + max(values)) / 2  # the label toward the middle: inside the axes
                ax.annotate(
                    f"{shorten(m.name)} ({', '.join(words)})",
                    (x, y),
                    xytext=(-6 if right else 6, 0),
                    textcoords="offset points",
                    fontsize=7,
                    va="center",
                    ha="right" if right else "left",
                )
            if words:
                named.append(f"{shorten(m.name)} {x:.4g} {unit} {' '.join(words)}")
        ax.set_ylim(-1, 1)
        ax.set_yticks([])
        ax.set_ylabel(figure, rotation=0, ha="right", va="center", fontsize=8)
        ax.set_xlabel(f"{unit} ({better} is better; dashed: median)", fontsize=7)
        ax.tick_params(labelsize=7)
        ax.grid(True, axis="x", alpha=0.3)
        alt.append(
            f"{figure}: {len(values)} values from {min(values):.4g} to {max(values):.4g} {unit}, median "
            f"{median:.4g}" + (f"; named: {'; '.join(named)}" if named else "; none named")
        )
    title = (
        f"{shorten(label)}: fleet of {len(fleet.units)} units, every figure (outliers red, slower than baseline ringed)"
    )
    return _finish(fig, title, title + ". " + ". ".join(alt), [1] * len(rows))


def plot_panels(sources: list, filt: Filter, views, combined=False, per_array=False, unit=None) -> list:
    """`plot`'s axes, as the page draws them: [(draw(ax), its series
    count)] per sweep panel (at most MAX_SERIES series, one family and byte
    accounting each; several files: each file's sweeps their own series) and
    per group of single-size bars, for every benchmark and view
    (`combined`: all benchmarks' sweeps of a view in shared panels)."""
    out = []
    link = measured_link(sources[0].documents[0]) if sources and sources[0].documents else None
    for view in views:
        points = _plot_points(sources, filt, view, combined, per_array)
        for bench in ["all"] if combined and points else dict.fromkeys(p.benchmark for p in points):
            mine = [p for p in points if combined or p.benchmark == bench]
            series = series_of(mine, view, by_source=len(sources) > 1)
            name, divisor = display_unit(view, [p.value(view) for p in mine], unit if view == "bandwidth" else None)
            sweeps = [s for s in series if s.is_sweep]
            ctx = Panel(
                bench,
                view,
                mine,
                [] if per_array else sources[0].caches,
                name,
                divisor,
                link if bench == "link" else None,
                len({s.accounting for s in sweeps}) > 1,
                [] if per_array else [step for s in sources for step in s.steps],
            )
            axis = _axis_text(sweeps, view, name)
            xlabel = "bytes per array" if per_array and bench in ("mem", "all") else x_label(bench, view)
            for i, panel in enumerate(panels_of(sweeps)):
                out.append(
                    (_labelled(draw_sweeps, (panel, ctx, i), f"{shorten(bench)}: {view}", xlabel, axis), len(panel))
                )
            singles = [s for s in series if not s.is_sweep]
            groups = bars_of(singles, divisor) if singles else []
            for group in groups:
                out.append(
                    (
                        _labelled(
                            draw_bars,
                            (group,),
                            f"{shorten(bench)}: {view} of the single-size runs",
                            bar_label(singles, view, name, groups),
                            None,
                        ),
                        1,
                    )
                )
    return out


def array_bytes(p, doc_settings: dict) -> int:
    """mem records carry the dataset size (all arrays of the kernel); this is
    the size of one array (TheBandwidthBenchmark's 'array size' plot)."""
    traffic = doc_settings.get(p.benchmark, {}).get("traffic", {})
    arrays = (
        traffic.get(p.operation, {}).get("arrays", 1)
        if isinstance(traffic, dict) and isinstance(traffic.get(p.operation), dict)
        else 1
    )
    return p.bytes // arrays if isinstance(arrays, int) and arrays >= 1 else p.bytes


def _plot_points(sources: list, filt: Filter, view: str, combined: bool, per_array: bool) -> list:
    """The points of every source for one view, as `plot` draws them: mem's
    sizes per array with --per-array, operations named with their benchmark
    where --combined puts benchmarks together."""
    out = []
    for s in sources:
        settings = s.documents[0]["settings"] if s.documents else {}
        for p in select(s.points(), filt, view):
            if p.operation == LOADED or not p.value(view) or p.bytes <= 0:
                continue  # loaded latency has its own panel; a log axis has no place for zero
            if per_array:
                p = replace(p, bytes=array_bytes(p, settings))
            out.append(replace(p, operation=f"{p.benchmark}.{p.operation}") if combined else p)
    return [p for p in out if p.bytes > 0]


def _labelled(draw, args: tuple, title: str, xlabel: str, ylabel: str | None):
    """draw(ax, *args), then the axes' own labels (plot's axes share nothing)."""

    def run(ax):
        draw(ax, *args)
        ax.set_title(f"{title}\n{ax.get_title()}" if ax.get_title() else title, fontsize=9)
        ax.set_xlabel(xlabel, fontsize=8)
        if ylabel:
            ax.set_ylabel(ylabel, fontsize=8)

    return run
