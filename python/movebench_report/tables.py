"""`table` and `scaling`: points of many sources side by side."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .model import SCALE_PARAMS, Filter, ReportError, format_size, names, select
from .render import Table, display_unit

NOISE = (
    "noise: for a best-of figure the gap between the two best samples, "
    "else half the interquartile range over the median"
)
DIFFERS = "figures differ in statistic or bytes counted: not comparable"


@dataclass
class Pooled:
    """One key of one source: the median over its points and the wider of the
    points' own noise and their spread around that median; the meanings of
    the figures pooled (one, unless the files disagree)."""

    value: float
    spread: float
    count: int
    meanings: tuple = ()

    def describe(self, view: str) -> str:
        return describe(self.meanings, view)


def describe(meanings, view: str) -> str:
    """The statistic, and for bandwidths the bytes counted: 'min of times
    (best); application bytes'. Several meanings (files that disagree)
    joined by ' | '."""
    texts = []
    for m in meanings:
        text = m.stat_text() + (f"; {m.accounting_text()}" if view == "bandwidth" else "")
        if text not in texts:
            texts.append(text)
    return " | ".join(texts)


def meanings_of(points: list, view: str) -> tuple:
    return tuple(dict.fromkeys(p.meaning(view) for p in points))


def pool(points: list, view: str) -> dict:
    """{key: Pooled} for the points of one source."""
    groups = {}
    for p in points:
        groups.setdefault(p.key, []).append(p)
    out = {}
    for key, group in groups.items():
        values = np.array([p.value(view) for p in group])
        median = float(np.median(values))
        between = float((values.max() - values.min()) / (2 * median)) if median else 0.0
        out[key] = Pooled(
            median,
            max([between] + [p.spread(view) for p in group]),
            sum(p.count for p in group),
            meanings_of(group, view),
        )
    return out


def sort_key(key: tuple) -> tuple:
    bench, op, variant, size = key
    return (bench, op, variant, size)


def pooled_sources(sources: list, filt: Filter, view: str, figure=None) -> list:
    """[(label, {key: Pooled})] with only the points the filter keeps."""
    return [(s.label, pool(select(s.points(figure), filt, view), view)) for s in sources]


def merged_table(sources: list, filt: Filter, view: str, unit: str | None = None, figure=None) -> Table:
    per_source = [(label, pooled) for label, pooled in pooled_sources(sources, filt, view, figure) if pooled]
    keys = sorted({k for _, pooled in per_source for k in pooled}, key=sort_key)
    if not keys:
        asked = f" named {figure!r} (--figure)" if figure else ""
        raise ReportError(f"{names(sources)}: no {view} figures{asked} left after filtering")
    name, divisor = display_unit(view, [p.value for _, d in per_source for p in d.values()], unit)
    columns = ["benchmark", "operation", "params", "bytes", "size", "figure"]
    for label, _ in per_source:
        columns += [f"{label} [{name}]", f"{label} ±%"]
    rows = []
    differ = 0
    for key in keys:
        cells = [(label, pooled.get(key)) for label, pooled in per_source]
        meanings = tuple(dict.fromkeys(m for _, c in cells if c for m in c.meanings))
        figure_text = describe(meanings, view)
        if len(meanings) > 1:
            differ += 1
            figure_text = "DIFFERS: " + "; ".join(f"{label}: {c.describe(view)}" for label, c in cells if c)
        row = [key[0], key[1], key[2], key[3], format_size(key[3]), figure_text]
        for _, cell in cells:
            row += [cell.value / divisor, 100 * cell.spread] if cell else [None, None]
        rows.append(row)
    title = f"{view} ({name}); ±%: {NOISE}"
    notes = [FIGURE_NOTE[view]]
    if differ:
        notes.append(f"DIFFERS on {differ} of {len(rows)} rows: the {DIFFERS}")
    return Table(columns, rows, title, notes)


# What the figure column says (docs/report.md).
FIGURE_NOTE = {
    "bandwidth": "figure: the statistic of the samples' times or of their rates (best, worst: the best or the "
    "worst sample) and the bytes counted (docs/results.md)",
    "latency": "figure: the statistic of the samples' times (best: the least; docs/results.md)",
}


def scale_param(points: list, wanted: str | None, where: str) -> str:
    if wanted:
        return wanted
    for name in SCALE_PARAMS:
        if len({_scalar(p.params.get(name)) for p in points if name in p.params}) > 1:
            return name
    raise ReportError(
        f"{where}: no thread, rank or node count varies between these results: nothing to scale over (give --by PARAM)"
    )


def _scalar(value):
    """A count to sort by: a list counts its items; a value of another type
    than a number (a hand-edited file) sorts by its text."""
    value = len(value) if isinstance(value, list) else value
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else str(value)


def scaling_table(
    sources: list, filt: Filter, view: str, by: str | None, unit: str | None = None, size: int | None = None
) -> Table:
    """The thread/rank/node-count column table: one row per count, one column
    per operation, each cell at the largest size measured for that count and
    operation (or at `size`), the median over runs."""
    points = [p for s in sources for p in select(s.points(), filt, view)]
    where = names(sources)
    by = scale_param(points, by, where)
    several = len({p.benchmark for p in points}) > 1  # column names: op, or bench.op where several
    cells = {}
    for p in points:
        if by in p.params and (size is None or p.bytes == size):
            column = f"{p.benchmark}.{p.operation}" if several else p.operation
            cells.setdefault((_scalar(p.params[by]), column), {}).setdefault(p.bytes, []).append(p.value(view))
    if not cells:
        raise ReportError(
            f"{where}: no {view} figures with a '{by}' parameter"
            + (f" at {size} bytes (--size)" if size else " (--by)")
        )
    largest = {cell: by_size[max(by_size)] for cell, by_size in cells.items()}
    name, divisor = display_unit(view, [v for vs in largest.values() for v in vs], unit)
    counts = sorted({c for c, _ in largest}, key=lambda c: (isinstance(c, str), c))
    ops = list(dict.fromkeys(op for _, op in largest))
    rows = [[c] + [_median(largest.get((c, op)), divisor) for op in ops] for c in counts]
    short = {"threads": "nt", "ranks": "np", "nodes": "nn"}.get(by, by)
    return Table([short] + ops, rows, notes=[f"# {view} in {name}, median over runs, by {by}"], comment_header=True)


def _median(values, divisor):
    return float(np.median(values)) / divisor if values else None
