"""`history`: each node's figures over time, from the store (docs/history.md).

A series is one figure of one host (and rank or fleet unit) with the same
operation, parameters and size, in the order the runs began. Two questions
are asked of each:
  - the latest run against its own past: the median of its previous N runs,
    with their noise as their median absolute deviation over the median (the
    analogue of the half-interquartile range every view uses), judged by
    compare's rule (compare.judge: beyond the noise of both and the
    threshold);
  - change points: steps and slow drifts found by ruptures (PELT over a
    piecewise-linear model of the series relative to its median, its penalty
    scaled by the series' own noise), each named with the run that first
    showed it, its level before and after judged by the same rule, and the
    facts of the two documents that differ there (kernel, driver, firmware,
    DIMMs, link width, build)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from .compare import judge
from .model import BANDWIDTH_UNITS, TIME_UNITS
from .render import Table
from .tables import Pooled

MIN_PAST = 3  # runs before the latest that a verdict needs
MIN_CHANGE_RUNS = 8  # runs a series needs before change points are looked for
SEGMENT = 3  # the fewest runs between two change points
PENALTY = 8.0  # PELT's penalty in units of the series' noise variance times log(runs)
FACT_SECTIONS = ("host", "facts", "mem_device", "link_device", "build", "mpi", "version", "git_commit")
UNTOLD = ("source", "why", "hostname", "warnings", "warning")  # keys that explain, not facts that change
MAX_FACTS = 8  # facts named per change


@dataclass
class Run:
    time: object
    run: int
    value: float
    noise: float | None
    commit: str
    peak_fraction: float | None = None
    verdict: str | None = None  # its path's verdict (headline figures of movebench run)


@dataclass
class Series:
    host: str
    rank: str | None
    benchmark: str
    operation: str
    variant: str
    bytes: int | None
    figure: str
    unit: str
    better: str
    runs: list = field(default_factory=list)

    @property
    def name(self) -> str:
        parts = [self.figure if "." in self.figure else f"{self.benchmark} {self.operation} {self.figure}"]
        parts += [self.variant] if self.variant else []
        parts += [f"{self.bytes} B"] if self.bytes is not None else []
        return " ".join(parts)

    @property
    def view(self) -> str:
        """compare's view that says which way is better."""
        return "bandwidth" if self.better == "higher" else "latency"


@dataclass
class Change:
    index: int  # the first run of the new level
    run: int
    time: object
    before: float
    after: float
    ratio: float
    verdict: str
    facts: list = field(default_factory=list)


def robust(values) -> Pooled:
    """Median and relative median absolute deviation of some runs' values."""
    values = np.asarray(values, dtype=float)
    median = float(np.median(values))
    mad = float(np.median(np.abs(values - median)))
    return Pooled(median, mad / abs(median) if median else 0.0, len(values))


def latest_verdict(series: Series, last: int, threshold: float):
    """(summary of the previous `last` runs, ratio latest/summary, verdict),
    or None where fewer than MIN_PAST runs came before the latest."""
    past = series.runs[:-1][-last:]
    if len(past) < MIN_PAST:
        return None
    summary = robust([r.value for r in past])
    own = [r.noise for r in past if r.noise is not None]
    summary.spread = max([summary.spread] + ([float(np.median(own))] if own else []))
    latest = series.runs[-1]
    ratio, verdict = judge(summary, Pooled(latest.value, latest.noise or 0.0, 1), series.view, threshold)
    return summary, ratio, verdict


def _noise_sigma(x: np.ndarray) -> float:
    """The noise of a series from its first differences (a step or a drift
    moves few of them): their scaled median absolute deviation over sqrt 2."""
    diffs = np.diff(x)
    return 1.4826 * float(np.median(np.abs(diffs - np.median(diffs)))) / math.sqrt(2)


def breakpoints(values) -> list:
    """The indices where a new level or slope begins (ruptures' PELT)."""
    import ruptures  # loads in a second: only where a history is read

    x = np.asarray(values, dtype=float)
    x = x / np.median(x)
    n = len(x)
    sigma = max(_noise_sigma(x), 1e-4)
    signal = np.column_stack([x, np.ones(n), np.arange(n) / n])
    found = ruptures.Pelt(model="linear", min_size=SEGMENT, jump=1).fit(signal)
    return found.predict(pen=PENALTY * sigma**2 * math.log(n))[:-1]


def changes(series: Series, threshold: float, documents) -> list:
    """The change points of a series, each judged and explained;
    documents(run) gives the stored document of a run."""
    values = [r.value for r in series.runs]
    if len(values) < MIN_CHANGE_RUNS or not all(v > 0 for v in values):
        return []
    points = breakpoints(values)
    edges = [0] + points + [len(values)]
    out = []
    for i, b in enumerate(points):
        before, after = robust(values[edges[i] : b]), robust(values[b : edges[i + 2]])
        ratio, verdict = judge(before, after, series.view, threshold)
        first, previous = series.runs[b], series.runs[b - 1]
        out.append(
            Change(
                b,
                first.run,
                first.time,
                before.value,
                after.value,
                ratio,
                verdict,
                facts_changed(documents(previous.run), documents(first.run)),
            )
        )
    return out


def _flatten(value, path: str, out: dict):
    if isinstance(value, dict):
        for key, item in value.items():
            if key not in UNTOLD:
                _flatten(item, f"{path}.{key}" if path else key, out)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _flatten(item, f"{path}[{i}]", out)
    else:
        out[path] = value


def facts_changed(before: dict, after: dict) -> list:
    """'host.kernel: 6.1.0 -> 6.1.2' for every fact of the two documents that
    differs (their host, facts, devices, build, version), at most MAX_FACTS."""
    old, new = {}, {}
    for doc, flat in ((before, old), (after, new)):
        for section in FACT_SECTIONS:
            if section in doc:
                _flatten(doc[section], section, flat)
    differ = [
        f"{k}: {old.get(k, '-')} -> {new.get(k, '-')}" for k in sorted(set(old) | set(new)) if old.get(k) != new.get(k)
    ]
    return differ[:MAX_FACTS] + ([f"and {len(differ) - MAX_FACTS} more"] if len(differ) > MAX_FACTS else [])


SERIES_KEY = ("host", "rank", "benchmark", "operation", "variant", "bytes", "figure", "unit", "better")


def _common_unit(value: float, unit: str) -> tuple:
    """Times in ns and bandwidths in MB/s (the units movebench writes), so
    that a series whose documents said us or GB/s is one series."""
    if unit in TIME_UNITS:
        return value * TIME_UNITS[unit] / TIME_UNITS["ns"], "ns"
    if unit in BANDWIDTH_UNITS:
        return value * BANDWIDTH_UNITS[unit] / BANDWIDTH_UNITS["MB/s"], "MB/s"
    return value, unit


def series_of(rows) -> list:
    """The stored rows (store.Store.series_rows, in time order) as series."""
    out = {}
    for row in rows:
        value, unit = _common_unit(row.value, row.unit)
        key = tuple(unit if name == "unit" else getattr(row, name) for name in SERIES_KEY)
        series = out.setdefault(key, Series(*key))
        series.runs.append(
            Run(row.time, row.document_id, value, row.noise, row.git_commit, row.peak_fraction, row.verdict)
        )
    return sorted(out.values(), key=lambda s: (s.host, s.rank or "", s.name))


@dataclass
class Finding:
    """What history says of one series."""

    series: Series
    latest: tuple | None  # latest_verdict's answer
    changes: list

    @property
    def slower(self) -> bool:
        """The latest run is slower than its own past."""
        return bool(self.latest) and self.latest[2] == "slower"

    @property
    def worse_level(self) -> bool:
        """The series' last change point was for the worse: the level it
        is at now is a step or a drift down, however long ago it began."""
        return bool(self.changes) and self.changes[-1].verdict == "slower"


def findings(series_list: list, last: int, threshold: float, documents) -> list:
    return [Finding(s, latest_verdict(s, last, threshold), changes(s, threshold, documents)) for s in series_list]


MARKS = {"slower": "SLOWER", "faster": "faster", "noise": "~", "same": ""}


def when_text(time) -> str:
    return time.strftime("%Y-%m-%d %H:%M") if time is not None else "-"


def _who(series: Series) -> list:
    return [series.host or "-", series.rank or "-", series.name, series.unit]


def series_table(found: list) -> Table:
    """Every run of every series, oldest first; a change's first run marked."""
    rows = []
    for f in found:
        starts = {c.index: c for c in f.changes}
        for i, run in enumerate(f.series.runs):
            change = starts.get(i)
            mark = f"change begins: {MARKS[change.verdict] or 'within threshold'}" if change else ""
            rows.append(_who(f.series) + [when_text(run.time), run.run, run.commit, run.value, mark])
    return Table(
        ["host", "rank/unit", "figure", "unit", "time", "run", "commit", "value", "mark"],
        rows,
        "history: every run of each series",
    )


def latest_table(found: list, last: int, threshold: float) -> Table:
    rows = []
    for f in found:
        runs = f.series.runs
        if f.latest is None:
            too_few = f"fewer than {MIN_PAST + 1} runs"
            rows.append(_who(f.series) + [len(runs), None, None, runs[-1].value, None, too_few])
            continue
        summary, ratio, verdict = f.latest
        rows.append(
            _who(f.series)
            + [len(runs), summary.value, 100 * summary.spread, runs[-1].value, round(ratio, 4), MARKS[verdict]]
        )
    slower = sum(f.slower for f in found)
    notes = [
        (
            f"the latest run against the median of its previous {last} (±%: their median absolute deviation "
            f"over the median); ~: inside the noise of both; threshold {100 * threshold:g} %; "
            f"{slower} of {len(found)} series slower"
        )
    ]
    return Table(
        [
            "host",
            "rank/unit",
            "figure",
            "unit",
            "runs",
            f"median of last {last}",
            "±%",
            "latest",
            "latest/median",
            "verdict",
        ],
        rows,
        "history: the latest run against its own past",
        notes,
    )


def changes_table(found: list) -> Table:
    rows = []
    for f in found:
        for c in f.changes:
            rows.append(
                _who(f.series)
                + [
                    when_text(c.time),
                    c.run,
                    c.before,
                    c.after,
                    round(c.ratio, 4),
                    MARKS[c.verdict] or "within threshold",
                    "; ".join(c.facts) or "none",
                ]
            )
    return Table(
        [
            "host",
            "rank/unit",
            "figure",
            "unit",
            "began",
            "first run",
            "before",
            "after",
            "after/before",
            "verdict",
            "facts changed",
        ],
        rows,
        "history: change points (steps and drifts, ruptures PELT)",
        ["before, after: the medians of the runs between this change point and its neighbours"],
    )


def health_reasons(found: list) -> list:
    """Why a node is not healthy, worst first: a degraded path, a latest run
    slower than its past, a level that is a step or drift down, a path below
    its peak's band (the verdicts of `movebench run`, docs/facts.md)."""
    degraded, slower, level, low = [], [], [], []
    for f in found:
        s, latest = f.series, f.series.runs[-1]
        where = f"{s.name}{f' rank {s.rank}' if s.rank else ''}"
        if latest.verdict in ("degraded", "low"):
            (degraded if latest.verdict == "degraded" else low).append(
                f"{where} {latest.verdict} ({latest.value:.4g} {s.unit})"
            )
        if f.slower:
            summary = f.latest[0]
            slower.append(f"{where} {latest.value:.4g} {s.unit} vs median of last runs {summary.value:.4g}")
        elif f.worse_level:
            c = f.changes[-1]
            level.append(
                f"{where} {c.after:.4g} {s.unit} since run {c.run} ({when_text(c.time)}), {c.before:.4g} before"
            )
    return degraded + slower + level + low
