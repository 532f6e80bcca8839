"""The answer first: one summary row per path measured (DRAM, DRAM latency,
device memory, each link direction, streaming, the network), its headline
figure against its peak, and the verdict with its reason.

Rows come from the document's `verdicts` (the facts layer, issue 18) where
it has them; every other path gets a row derived from the headline `results`
with the verdict "unknown" and the reason why. Several sources: the same rows
side by side, judged by compare.judge (the noise-aware ratio of `compare`)."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from .compare import judge
from .facts import NO_PEAK, facts_of, links_of, peak_of, peak_why, verdicts_of
from .labels import shorten
from .model import BANDWIDTH_UNITS, TIME_UNITS, format_size, is_imported, point_from_record
from .render import Table


@dataclass
class Row:
    """One path of one document."""

    path: str  # dram, dram latency, device-memory, link:<device> H2D, network ...
    what: str  # the figure in words: 'triad, 2 threads'
    figure: str  # the result key, e.g. mem.triad.2t
    value: float | None
    unit: str
    better: str  # higher or lower
    peak: float | None = None
    fraction: float | None = None
    verdict: str = "unknown"
    reasons: list = field(default_factory=list)
    peak_source: str = ""
    spread: float = 0.0  # the noise of the figure's record (model.Point.noise): for the ratio
    tails: dict = field(default_factory=dict)  # a latency's {"P50": seconds, "P99": seconds}, where its record has them

    @property
    def benchmark(self) -> str:
        return self.figure.split(".", 1)[0]

    @property
    def view(self) -> str:
        return "bandwidth" if self.better == "higher" else "latency"


@dataclass(frozen=True)
class Rule:
    """Which headline result stands for a path: the keys matching `pattern`,
    the one with the greatest rank (the most threads, the largest working set)."""

    path: str
    pattern: str
    what: str  # format string over the match's groups
    rank: object = None  # match -> sortable; None: the first key in order; "value": the greatest value


def _threads(m):
    return (int(m.group(2)), m.group(1) == "triad")


RULES = (
    Rule("dram", r"^mem\.(triad|copy)\.(\d+)t$", "{0}, all {1} threads", _threads),
    Rule("dram latency", r"^mem\.latency\.(\d+)$", "pointer chase, {size0} working set", lambda m: int(m.group(1))),
    Rule(
        "device-memory",
        r"^mem\.(triad|copy)\.(cuda|opencl)$",
        "{0} in {1} device memory",
        lambda m: m.group(1) == "triad",
    ),
    Rule(
        "link H2D",
        r"^link\.copy\.read(?:\.(\w+))?$",
        "copy host to device ({0} memory)",
        lambda m: m.group(1) == "pinned",
    ),
    Rule(
        "link D2H",
        r"^link\.copy\.write(?:\.(\w+))?$",
        "copy device to host ({0} memory)",
        lambda m: m.group(1) == "pinned",
    ),
    Rule(
        "link duplex",
        r"^link\.copy\.duplex\.total(?:\.(\w+))?$",
        "copy both ways, sum ({0} memory)",
        lambda m: m.group(1) == "pinned",
    ),
    Rule("stream", r"^stream\.(\w+)\.throughput$", "{0} design throughput (the fastest design)", "value"),
    Rule("network latency", r"^p2p\.latency$", "MPI ping-pong latency", None),
    Rule("network", r"^p2p\.bw$", "MPI point-to-point bandwidth", None),
    Rule("network coll", r"^coll\.(\w+)\.busbw$", "{0} bus bandwidth", None),
    Rule("network beff", r"^beff\.hpcc\.b_eff$", "effective bandwidth (HPCC b_eff)", None),
)


def _pick(rule: Rule, results: dict):
    """(key, match) of the result that stands for the rule's path, or None."""
    found = [(key, m) for key in results if (m := re.match(rule.pattern, key))]
    if not found:
        return None
    if rule.rank == "value":  # no design is the path: the fastest one says what the path gives
        return max(found, key=lambda km: _number_or(results[km[0]].get("value")))
    return max(found, key=lambda km: rule.rank(km[1])) if rule.rank else sorted(found)[0]


def _number_or(value, default=float("-inf")) -> float:
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else default


def _source_point(doc: dict, figure: dict):
    """The record a headline figure was taken from (the record with a figure
    of the same value and unit) as a Point of that figure, or None."""
    for rec in doc["timings"]:
        for name, fig in rec["figures"].items():
            if fig.get("value") == figure.get("value") and fig.get("unit") == figure.get("unit"):
                return point_from_record("", rec, name, doc["schema_version"])
    return None


# The percentiles a latency row shows beside its value (docs/report.md).
TAILS = (("P50", "p50"), ("P99", "p99"))


def tails_of(record: dict, name: str | None) -> dict:
    """{"P50": seconds, "P99": seconds} of a latency record's distribution:
    the figures `<name>_p50` and `<name>_p99` (or bare `p50`, `p99`, as OSU -z
    names a collective's), those the record has (docs/results.md, Distributions)."""
    figures, out = record["figures"], {}
    for label, stat in TAILS:
        for key in ([f"{name}_{stat}"] if name else []) + [stat]:
            fig = figures.get(key)
            if fig and fig.get("stat") == stat and fig.get("unit") in TIME_UNITS:
                out[label] = fig["value"] * TIME_UNITS[fig["unit"]]
                break
    return out


def _figure_tails(doc: dict, figure: dict) -> dict:
    """The tails of the record a latency headline was taken from ({} for a bandwidth or where none)."""
    if figure.get("better") != "lower" or figure.get("unit") not in TIME_UNITS:
        return {}
    for rec in doc["timings"]:
        for name, fig in rec["figures"].items():
            if fig.get("value") == figure.get("value") and fig.get("unit") == figure.get("unit"):
                return tails_of(rec, name)
    return {}


def _figure_spread(doc: dict, figure: dict) -> float:
    """The noise of the record a headline figure was taken from (0 where none is found)."""
    point = _source_point(doc, figure)
    return max(point.noise.values()) if point else 0.0


def _in_cache(doc: dict, figure: dict) -> str:
    """Where a 'DRAM' figure was measured on a working set the caches hold:
    what says so ('' where it was not, or where it is not known)."""
    point = _source_point(doc, figure)
    caches = [c for c in doc["host"].get("caches", []) if c.get("bytes")]
    if not point or not caches:
        return ""
    last = max(caches, key=lambda c: c["level"])
    total = last["bytes"] * max(1, last.get("instances") or 1)
    return (
        f"in cache: {format_size(point.bytes)} fits L{last['level']} ({format_size(total)})"
        if point.bytes <= total
        else ""
    )


def _derived(doc: dict, rule: Rule, key: str, m) -> Row:
    figure = doc["results"][key]
    peak = peak_of(figure)
    words = _words(key)
    reasons = [peak_why(figure) or _no_peak(doc)] if peak is None else ["no verdict recorded"]
    path = rule.path.replace("link", f"link:{_device(doc)}", 1) if rule.path.startswith("link") else rule.path
    cached = _in_cache(doc, figure) if path == "dram" else ""
    if cached:  # a DRAM path measured in cache is not the DRAM path
        path, words, reasons = "cache", f"{words} ({cached})", reasons
    return Row(
        path,
        words,
        key,
        figure.get("value"),
        figure.get("unit", ""),
        figure.get("better", "higher"),
        peak.value if peak else None,
        peak.fraction if peak else None,
        "unknown",
        reasons,
        peak.source if peak else "",
        _figure_spread(doc, figure),
        _figure_tails(doc, figure),
    )


def _no_peak(doc: dict) -> str:
    """Why a figure has no peak: the document predates the facts layer, or
    the facts layer holds this figure against none (a latency, a stream)."""
    if is_imported(doc):
        return "no peak recorded (an imported output)"
    return "no peak recorded for this figure" if facts_of(doc) else NO_PEAK


def _device(doc: dict) -> str:
    """The link's device: its name (link_device's, else the document's
    device), 'host' for the host backend (copies in RAM by a worker thread:
    no device), else 'device'."""
    device = doc.get("link_device")
    device = device if isinstance(device, dict) else {}
    if device.get("backend") == "host":
        return "host"
    for name in (device.get("name"), doc.get("device")):
        if isinstance(name, str) and name:
            return name
    return "device"


DIRECTIONS = (("link.copy.read", "H2D"), ("link.copy.write", "D2H"), ("link.copy.duplex", "duplex"))


def device_name(doc: dict, bus_id: str) -> str:
    """The name of the device at a PCIe bus id: the link's device where it is
    that one, else the facts' PCIe name, else the bus id."""
    device = doc.get("link_device")
    if isinstance(device, dict) and bus_id and device.get("bus_id") == bus_id:
        return _device(doc)
    return next((link.name for link in links_of(facts_of(doc)) if link.bus_id == bus_id and link.name), bus_id)


def _link_path(doc: dict, path: str, figure: str) -> str:
    """A link verdict's path as the derived rows name theirs: 'link:<device>
    H2D'. The facts layer names the link by its bus id ('link 0000:00:06.0')
    and leaves the direction to the figure."""
    direction = next((d for prefix, d in DIRECTIONS if figure.startswith(prefix + ".")), "")
    if not direction or not path.startswith("link") or path.endswith(direction):
        return path
    name = path[5:] if path.startswith("link:") else device_name(doc, path[5:].strip())
    return f"link:{name} {direction}"


def _words(key: str) -> str:
    """A result key in words where a rule knows it ('triad, all 2 threads'), else the key."""
    for rule in RULES:
        m = re.match(rule.pattern, key)
        if m:
            groups = [g or "default" for g in m.groups()]
            first = groups[0] if groups else ""
            return rule.what.format(*groups, size0=format_size(int(first)) if first.isdigit() else first)
    return key


def _from_verdict(doc: dict, v) -> Row:
    figure = doc["results"].get(v.figure, {})
    better = figure.get("better") or ("lower" if v.unit.endswith("s") and "/" not in v.unit else "higher")
    value = v.value if v.value is not None else figure.get("value")
    unit = v.unit or figure.get("unit", "")
    fraction = v.fraction
    if fraction is None and value is not None and v.peak and unit == figure.get("unit", unit):
        fraction = value / v.peak  # the writer left it out: the same division it would make
    reasons = v.reasons or ([_no_peak(doc)] if v.peak is None and v.verdict == "unknown" else [])
    if v.verdict in ("low", "degraded") and v.normal_from and fraction is not None and fraction < v.normal_from:
        # the measure behind the word, before the facts' own reasons
        reasons = [f"{100 * fraction:.0f}% of peak, under the normal band (from {100 * v.normal_from:.0f}%)"] + reasons
    return Row(
        _link_path(doc, v.path, v.figure),
        _words(v.figure),
        v.figure,
        value,
        unit,
        better,
        v.peak,
        fraction,
        v.verdict,
        reasons,
        v.peak_source,
        _figure_spread(doc, figure) if figure else 0.0,
        _figure_tails(doc, figure) if figure else {},
    )


# A document without headline results (an import of another tool's output):
# the path's row from its records. (path, benchmark, operation pattern, view,
# size: the largest for a bandwidth, the smallest above 0 for a latency).
TIMING_RULES = (
    ("dram", "mem", r"^(triad|copy)$", "bandwidth"),
    ("link:device H2D", "link", r"^host_to_device", "bandwidth"),
    ("link:device D2H", "link", r"^device_to_host", "bandwidth"),
    ("link:device latency", "link", r"latency", "latency"),
    ("network latency", "p2p", r"^latency$", "latency"),
    ("network", "p2p", r"^(bw|bibw)$", "bandwidth"),
    ("network coll", "coll", r".", "bandwidth"),
)


def _timing_row(doc: dict, rule: tuple) -> Row | None:
    path, bench, pattern, view = rule
    points = [
        p
        for rec in doc["timings"]
        if rec["benchmark"] == bench and re.search(pattern, rec["operation"])
        for p in [point_from_record("", rec, None, doc["schema_version"])]
        if p.value(view)
    ]
    if not points:
        return None
    if view == "bandwidth":
        best = max(points, key=lambda p: (p.bytes, p.operation == "triad", p.value(view)))
    else:
        best = min(points, key=lambda p: (p.bytes <= 0, p.bytes, p.value(view)))
    what = f"{best.operation} at {format_size(best.bytes)}" + (f" ({best.variant})" if best.variant else "")
    if path == "dram" and doc["settings"].get("mem", {}).get("device_memory") is True:
        path = "device-memory"  # a GPU's own memory (BabelStream's CUDA model), not the host's DRAM
    path = path.replace("link:device", f"link:{_imported_device(doc)}", 1)
    return Row(
        path,
        what,
        f"{bench}.{best.operation}@{best.bytes}",
        best.value(view),
        "B/s" if view == "bandwidth" else "s",
        "higher" if view == "bandwidth" else "lower",
        reasons=[_no_peak(doc)],
        spread=best.spread(view),
        tails=tails_of(best.record, best.record_figure(view)) if view == "latency" else {},
    )


def _imported_device(doc: dict) -> str:
    """The device an imported tool names: nvbandwidth's '0: NVIDIA H200
    (00000000:00:06): (vm)' reads 'NVIDIA H200'; several devices or none:
    'device'."""
    name = doc.get("device") if isinstance(doc.get("device"), str) else ""
    if not name or ";" in name:
        return "device"
    return re.sub(r"\s*\(.*$", "", re.sub(r"^\d+:\s*", "", name)).strip() or "device"


def rows_of(doc: dict) -> list:
    """The summary rows of one document: its verdicts, then a derived row
    for every path they do not cover (from the headline results, or where
    it has none, from its records)."""
    rows = [_from_verdict(doc, v) for v in verdicts_of(doc)]
    covered = {r.figure for r in rows} | {r.path for r in rows}
    for rule in RULES:
        picked = _pick(rule, doc["results"])
        if picked and picked[0] not in covered:
            row = _derived(doc, rule, *picked)
            if row.path not in covered:
                rows.append(row)
    if not doc["results"]:
        rows += [r for r in map(lambda rule: _timing_row(doc, rule), TIMING_RULES) if r and r.path not in covered]
    return rows


def document_facts(doc: dict) -> dict:
    """CPU model, host, date and commit: what says where the rows come from."""
    host = doc["host"]
    return {
        "cpu": host.get("cpu_model", ""),
        "host": host.get("hostname", ""),
        "date": doc.get("execution_time", ""),
        "commit": doc.get("git_commit", ""),
    }


def origin_text(doc: dict) -> str:
    """'host vm, Intel(R) Xeon(R), 2026-11-23T12:10:48Z, commit ad9817e' (what is known of it)."""
    f = document_facts(doc)
    imported = is_imported(doc)
    parts = [
        f"host {shorten(f['host'])}" if f["host"] else "",
        shorten(f["cpu"]),
        f"imported {shorten(f['date'])}" if imported else shorten(f["date"]),
        f"commit {shorten(f['commit'][:10])}" if f["commit"] else "",
    ]
    return ", ".join(p for p in parts if p) or "origin not recorded"


def source_rows(source) -> list:
    """The rows of every document of a source (a -data group pools files)."""
    return [r for doc in source.documents for r in rows_of(doc)]


@dataclass
class Side:
    """One row of the side-by-side table: the first source's row and each
    other's, with the judge's verdict of each against the first."""

    path: str
    figure: str
    rows: list  # Row or None per source
    judged: list  # (ratio, compare verdict) or None per other source


def side_by_side(sources: list, threshold: float) -> list:
    per_source = [{(r.path, r.figure): r for r in source_rows(s)} for s in sources]
    keys = list(dict.fromkeys(k for rows in per_source for k in rows))
    out = []
    for key in keys:
        rows = [rows.get(key) for rows in per_source]
        base = rows[0]
        judged = [
            judge(_Judged(base), _Judged(r), base.view, threshold)
            if base and r and base.value and r.value is not None and base.unit == r.unit
            else None
            for r in rows[1:]
        ]
        out.append(Side(key[0], key[1], rows, judged))
    return out


class _Judged:
    """A row in the shape compare.judge reads (value, spread)."""

    def __init__(self, row: Row):
        self.value, self.spread = row.value, row.spread


def fraction_text(row: Row) -> str:
    return f"{100 * row.fraction:.0f}%" if row.fraction is not None and math.isfinite(row.fraction) else "-"


def value_text(value, unit: str) -> str:
    """Bandwidths in GB/s (decimal, as peaks are), times in ns or us: one
    scale for every row, whatever unit each benchmark writes."""
    if value is None:
        return "-"
    if unit in BANDWIDTH_UNITS:
        rate = value * BANDWIDTH_UNITS[unit]
        return f"{rate / 1e12:.3g} TB/s" if rate >= 1e12 else f"{rate / 1e9:.3g} GB/s"
    if unit in TIME_UNITS:
        seconds = value * TIME_UNITS[unit]
        return f"{seconds * 1e9:.4g} ns" if seconds < 1e-5 else f"{seconds * 1e6:.4g} us"
    return f"{value:.4g} {shorten(unit)}".strip()


def tails_text(row: Row) -> str:
    """' (P50 1.21 us, P99 3.4 us)' of a latency row whose record has them, else ''."""
    parts = [f"{label} {value_text(row.tails[label], 's')}" for label, _ in TAILS if label in row.tails]
    return f" ({', '.join(parts)})" if parts else ""


def reason_text(row: Row) -> str:
    return "; ".join(map(shorten, row.reasons)) if row.reasons else "-"


def summary_table(sources: list, benchmarks=()) -> Table:
    """The verdict lines of `table`: one row per path of each source (of
    these benchmarks, where -b names some)."""
    columns = ["source", "path", "figure", "value", "peak", "of peak", "verdict", "reason"]
    rows = []
    for s in sources:
        for r in source_rows(s):
            if benchmarks and r.benchmark not in benchmarks:
                continue
            rows.append(
                [
                    s.label,
                    r.path,
                    r.what,
                    value_text(r.value, r.unit) + tails_text(r),
                    value_text(r.peak, r.unit),
                    fraction_text(r),
                    r.verdict,
                    reason_text(r),
                ]
            )
    notes = list(dict.fromkeys(f"{s.label}: {origin_text(d)}" for s in sources for d in s.documents))
    return Table(columns, rows, "summary: one row per path (verdicts: movebench facts)", notes)
