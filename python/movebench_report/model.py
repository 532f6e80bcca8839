"""The result model: loading and validating result documents, and one flat view
of each timing record (a point) that every subcommand works on.

Files are only ever parsed with json.loads; nothing in them is executed."""

from __future__ import annotations

import json
import math
import os
import pathlib
import re
import stat
from dataclasses import dataclass, field
from importlib import resources

import jsonschema
import numpy as np

from .vocabulary import Meaning, meaning


class ReportError(Exception):
    """A problem with an input file or an argument: one line, exit status 2."""


# Units of the schema that convert to bytes per second or to seconds.
BANDWIDTH_UNITS = {"B/s": 1.0, "KB/s": 1e3, "MB/s": 1e6, "GB/s": 1e9, "MiB/s": 2.0**20, "GiB/s": 2.0**30}
TIME_UNITS = {"s": 1.0, "ms": 1e-3, "us": 1e-6, "ns": 1e-9}

# Figure names preferred for each view, before any figure with a fitting unit.
BANDWIDTH_FIGURES = ("bandwidth", "busbw", "algbw")
LATENCY_FIGURES = ("latency", "avg", "time_avg")

# Parameters that tell two points of the same operation and size apart (the
# scale of the run, where data lives). Counters such as iterations are not.
# What tells two points of one operation and size apart: what the user chose
# to measure. Not how a run chose to measure it: mem's calibrated loop shape
# (params.shape, params.nontemporal) may differ between two runs of the same
# command, and comparing them is what compare is for.
# host, rank and hosts: a fleet unit or pair (movebench fleet), one row each.
VARIANT_PARAMS = (
    "threads",
    "ranks",
    "nodes",
    "comm",
    "pattern",
    "host_memory",
    "path",
    "src",
    "dst",
    "host",
    "rank",
    "hosts",
)
# A node result's records (movebench node, docs/node.md#records): one per
# NUMA cell and kernel, device, host NUMA node and case, pair of CPUs; these
# say which, so that table and compare keep them apart and match a cell with
# the same cell of another run.
NODE_PARAMS = ("kernel", "initiator", "target", "device", "numa_node", "case", "cpu_a", "cpu_b")
SCALE_PARAMS = ("threads", "ranks", "nodes")
VIEWS = ("bandwidth", "latency")


def schema() -> dict:
    """The result schema shipped in the package (a link to docs/result.schema.json)."""
    text = resources.files("movebench_report").joinpath("result.schema.json").read_text()
    return json.loads(text)


_VALIDATOR = None


def validator():
    global _VALIDATOR
    if _VALIDATOR is None:
        _VALIDATOR = jsonschema.Draft202012Validator(schema())
    return _VALIDATOR


# Bounds of what a result file may hold. Past them a file is refused with one
# line, before any work: no real run comes near them, and a hostile file must
# not make the tool run out of memory, recurse without end or overflow.
MAX_INPUT_BYTES = 64 * 2**20  # a 10,000-record sweep with its samples is ~20 MB
MAX_DEPTH = 64  # nesting of objects and arrays; movebench writes 5 levels
MAX_INT = 2**63 - 1  # sizes and counts: what the C++ side can hold
MAX_FLOAT = 1e30  # seconds, bytes per second, flops: far above any real figure


def check_values(doc, where: str):
    """Every number finite and in range, every string writable as UTF-8 (JSON
    may escape a lone surrogate), nesting bounded: walks without recursion,
    so no input can exhaust the stack here. The fast pass carries no path; the
    message's path comes from a second pass, only when something is wrong."""
    stack = [(doc, 0)]
    while stack:
        value, depth = stack.pop()
        kind = type(value)
        if kind is dict or kind is list:
            if depth >= MAX_DEPTH:
                _fail_at(doc, where)
            items = value.values() if kind is dict else value
            stack.extend((v, depth + 1) for v in items)
            if kind is dict:
                stack.extend((k, depth + 1) for k in value)
        elif (
            (kind is float and not -MAX_FLOAT <= value <= MAX_FLOAT)
            or (kind is int and abs(value) > MAX_INT)
            or (kind is str and not value.isascii() and not _encodable(value))
        ):
            _fail_at(doc, where)
    return doc


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
        return True
    except UnicodeEncodeError:
        return False


def _problem(value, depth: int):
    if isinstance(value, (dict, list)) and depth >= MAX_DEPTH:
        return f"nested deeper than {MAX_DEPTH} levels"
    if type(value) is float and not -MAX_FLOAT <= value <= MAX_FLOAT:
        return f"number out of range ({value:g}; finite and up to {MAX_FLOAT:g})"
    if type(value) is int and abs(value) > MAX_INT:
        return "number out of range (integers up to 2^63-1)"
    if type(value) is str and not _encodable(value):
        return "text that is not Unicode (a lone surrogate escape such as \\ud800)"
    return None


def _fail_at(doc, where: str):
    """The first problem check_values found, with its path in the document."""
    stack = [(doc, (), 0)]
    while stack:
        value, path, depth = stack.pop()
        problem = _problem(value, depth)
        if problem:
            raise ReportError(f"{where}: {problem} at {_json_path(path)}")
        if isinstance(value, dict):
            stack.extend((v, path + (k,), depth + 1) for k, v in value.items())
            stack.extend((k, path + (k,), depth + 1) for k in value)
        elif isinstance(value, list):
            stack.extend((v, path + (i,), depth + 1) for i, v in enumerate(value))
    raise ReportError(f"{where}: a value out of range")


def _json_path(path: tuple) -> str:
    return "/".join(map(str, path)) or "top level"


def _check_params(doc, where: str):
    """What the schema cannot say: the parameters that tell points apart are
    plain values (or lists of them), as every movebench command writes them."""
    for i, rec in enumerate(doc["timings"]):
        for name in variant_params(rec.get("benchmark")):
            value = rec["params"].get(name)
            items = value if isinstance(value, list) else [value]
            if not all(v is None or isinstance(v, (str, int, float, bool)) for v in items):
                raise ReportError(f"{where}: timings/{i}/params/{name}: a number, a string or a list of them")


def check_document(doc, where: str) -> dict:
    """Raises ReportError naming `where` and the first problem: numbers out of
    range, too deep, then the first schema violation, then the parameters."""
    check_values(doc, where)
    error = jsonschema.exceptions.best_match(validator().iter_errors(doc))
    if error is not None:
        path = "/".join(str(p) for p in error.absolute_path) or "top level"
        raise ReportError(f"{where}: not a movebench result document ({path}: {error.message[:160]})")
    _check_params(doc, where)
    return doc


def read_text(path) -> str:
    """The one way a file comes in: a regular file (a FIFO would block, a
    device never end), at most MAX_INPUT_BYTES, UTF-8."""
    path = pathlib.Path(path)
    try:
        with open(path, "rb", opener=lambda p, flags: os.open(p, flags | os.O_NONBLOCK)) as f:
            st = os.fstat(f.fileno())
            if not stat.S_ISREG(st.st_mode):
                raise ReportError(f"{path}: not a regular file")
            data = f.read(MAX_INPUT_BYTES + 1)
    except OSError as e:
        raise ReportError(f"{path}: cannot read ({e.strerror or e})") from None
    if len(data) > MAX_INPUT_BYTES:
        raise ReportError(f"{path}: larger than {MAX_INPUT_BYTES // 2**20} MiB: not a result file this tool reads")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise ReportError(f"{path}: not a text file (bytes that are not UTF-8)") from None


def _reject_constant(name: str):
    raise ValueError(f"{name} is not standard JSON")


def parse_json(text: str, where: str):
    """Standard JSON only (no NaN, Infinity); check_values (in
    check_document) bounds the numbers and the nesting."""
    if text.lstrip()[:1] not in ("{", "["):
        raise ReportError(
            f"{where}: not JSON (it starts with {text.strip()[:20]!r}); other tools' text outputs "
            "go through `movebench-report import`"
        )
    try:
        doc = json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as e:
        truncated = e.pos >= len(text.rstrip()) - 1 or e.msg.startswith("Unterminated")
        hint = " (truncated?)" if truncated else ""
        raise ReportError(f"{where}: not valid JSON{hint}: {e.msg} at line {e.lineno} column {e.colno}") from None
    except RecursionError:
        raise ReportError(f"{where}: nested deeper than {MAX_DEPTH} levels") from None
    except ValueError as e:  # NaN/Infinity, an integer of thousands of digits
        raise ReportError(f"{where}: not valid JSON: {str(e)[:120]}") from None
    return doc


def load_document(path) -> dict:
    where = str(path)
    text = read_text(path)
    if not text.strip():
        raise ReportError(f"{where}: empty file")
    return check_document(parse_json(text, where), where)


@dataclass
class Point:
    """One timing record of one source, with the values every view needs."""

    source: str
    benchmark: str
    operation: str
    bytes: int
    params: dict
    bandwidth: float | None  # bytes per second
    latency: float | None  # seconds
    noise: dict  # per view: relative half-width of the noise band (0.05 = +-5 %)
    count: int
    record: dict = field(repr=False, default_factory=dict)
    meanings: dict = field(default_factory=dict)  # per view: the Meaning of the figure chosen (vocabulary.py)
    names: dict = field(default_factory=dict)  # per view: the name of the figure chosen

    @property
    def variant(self) -> str:
        return variant_text(self.params, self.benchmark)

    @property
    def key(self) -> tuple:
        return (self.benchmark, self.operation, self.variant, self.bytes)

    def value(self, view: str):
        return self.bandwidth if view == "bandwidth" else self.latency

    def spread(self, view: str) -> float:
        return self.noise[view]

    def meaning(self, view: str) -> Meaning | None:
        return self.meanings.get(view)

    def record_figure(self, view: str) -> str | None:
        return self.names.get(view)


# Values that mean "the default" and so match a tool that does not say them.
DEFAULT_PARAMS = {"comm": "MPI_COMM_WORLD"}


def variant_params(benchmark) -> tuple:
    """The parameters that tell a benchmark's points apart: a node result's cells too."""
    return VARIANT_PARAMS + (NODE_PARAMS if benchmark == "node" else ())


def variant_text(params: dict, benchmark: str = "") -> str:
    parts = []
    for name in variant_params(benchmark):
        if name in params and params[name] != DEFAULT_PARAMS.get(name):
            value = params[name]
            text = ",".join(map(str, value)) if isinstance(value, list) else str(value)
            parts.append(f"{name}={text}")
    return " ".join(parts)


@dataclass(frozen=True)
class ByStat:
    """A figure chosen by its statistic (`--stat p99`), not its name: of each
    record, the preferred figure's own percentile (`latency_p99`), else the
    bare one (`p99`, OSU -z's collective columns), else the first by name."""

    stat: str

    def __repr__(self) -> str:  # as the messages name what was asked for
        return f"'{self.stat}' (--stat)"

    def candidates(self, figures: dict, names: tuple) -> list:
        suffix = self.stat.replace(".", "_")
        preferred = [f"{n}_{suffix}" for n in names] + [suffix]
        return [n for n in preferred + sorted(figures) if figures.get(n, {}).get("stat") == self.stat]


def _figure(figures: dict, names: tuple, units: dict, wanted):
    """(value converted to base units, name) of the figure chosen, or (None, None).
    `wanted`: a figure's name (--figure), a ByStat (--stat) or None (the view's own)."""
    if isinstance(wanted, ByStat):
        candidates = wanted.candidates(figures, names)
    else:
        candidates = [wanted] if wanted else list(names) + sorted(figures)
    for name in candidates:
        fig = figures.get(name)
        if fig and fig["unit"] in units:
            return fig["value"] * units[fig["unit"]], name
    return None, None


def _band(figures: dict, name: str | None, value: float | None):
    """Relative half-range from <name>_min/<name>_max or min/max figures."""
    if not value or not name:
        return None
    for lo, hi in ((f"{name}_min", f"{name}_max"), ("min", "max"), ("time_min", "time_max")):
        if lo in figures and hi in figures and figures[lo]["unit"] == figures[hi]["unit"]:
            low, high = figures[lo]["value"], figures[hi]["value"]
            mid = (low + high) / 2
            return abs(high - low) / (2 * mid) if mid else None
    return None


def sample_spread(samples: list, best_of: bool) -> float | None:
    """The noise of a figure from its samples. A best-of figure (the least
    time, the greatest rate): the gap between the two fastest samples over the
    fastest (how well the best repeats; outliers do not matter). Any other:
    half the interquartile range over the median (robust to the odd outlier)."""
    if best_of and len(samples) >= 2:
        first, second = sorted(samples)[:2]
        return (second - first) / first if first > 0 else None
    if len(samples) < 3:
        return None
    q1, med, q3 = np.percentile(samples, [25, 50, 75])
    return float((q3 - q1) / (2 * med)) if med > 0 else None


def _spread(record: dict, name: str | None, value: float | None, sense: Meaning | None) -> float:
    if value is None:
        return 0.0
    figures = record["figures"]
    for guess in (sample_spread(record["samples"], bool(sense and sense.best_of)), _band(figures, name, value)):
        if guess is not None and math.isfinite(guess):
            return guess
    stats = record.get("stats")
    if stats and stats["median"] > 0:
        return (stats["max"] - stats["min"]) / (2 * stats["median"])
    return 0.0


def figure_noise(record: dict, name: str, version: int) -> float:
    """The relative noise of figure `name` of a record, as every view reads
    it (the samples' spread, else the figure's band, else the stats')."""
    figure = record["figures"][name]
    return _spread(record, name, figure["value"], _meaning(record, name, version))


# A bare timing (a record without figures): the median of its seconds.
BARE_TIMING = Meaning("median", "time", "lower")


def _meaning(record: dict, name: str | None, version: int) -> Meaning | None:
    return meaning(name, record, version) if name is not None else None


def point_from_record(source: str, record: dict, figure: str | None = None, version: int = 2) -> Point:
    figures = record["figures"]
    bw, bw_name = _figure(figures, BANDWIDTH_FIGURES, BANDWIDTH_UNITS, figure)
    lat, lat_name = _figure(figures, LATENCY_FIGURES, TIME_UNITS, figure)
    senses = {"bandwidth": _meaning(record, bw_name, version), "latency": _meaning(record, lat_name, version)}
    if lat is None and not figures and record.get("stats"):
        lat = record["stats"]["median"]  # a bare timing: seconds per sample
        senses["latency"] = BARE_TIMING
    stats = record.get("stats") or {}
    count = stats.get("count") or len(record["samples"]) or 1
    noise = {
        view: _spread(record, name, value, senses[view])
        for view, name, value in (("bandwidth", bw_name, bw), ("latency", lat_name, lat))
    }
    return Point(
        source,
        record["benchmark"],
        record["operation"],
        record["bytes"],
        record["params"],
        bw,
        lat,
        noise,
        count,
        record,
        senses,
        {"bandwidth": bw_name, "latency": lat_name},
    )


@dataclass
class Source:
    """One labelled data set: one file, or a group of files (compare -data)."""

    label: str
    paths: list
    documents: list

    def points(self, figure: str | None = None) -> list:
        return [
            point_from_record(self.label, rec, figure, doc["schema_version"])
            for doc in self.documents
            for rec in doc["timings"]
        ]

    @property
    def caches(self) -> list:
        """The caches of the memory measured: a device's own (mem_device.caches,
        `mem --backend opencl|cuda`) where the run was in device memory, else
        the host's."""
        if not self.documents:
            return []
        device = self.documents[0].get("mem_device")
        if isinstance(device, dict) and isinstance(device.get("caches"), list):
            return device["caches"]
        return self.documents[0]["host"].get("caches", [])

    @property
    def steps(self) -> list:
        """Every sweep's steps the documents record (`steps`, written by the
        binary: its change-point method and the causes it named), as they
        are; a peer tool's imported output has none: its sweeps' steps are
        found here by the same method (steps.sweep_steps)."""
        out = []
        for doc in self.documents:
            recorded = doc.get("steps", [])
            if "steps" not in doc and is_imported(doc):
                from .steps import sweep_steps  # ruptures loads only where an imported sweep is drawn

                recorded = sweep_steps(doc)
            out += [s for s in recorded if isinstance(s, dict)]
        return out


def is_imported(doc: dict) -> bool:
    """A document `movebench-report import` wrote from another tool's output."""
    return doc.get("command_line", [""])[:2] == ["movebench-report", "import"]


def labels_for(paths: list) -> list:
    """Short, distinct labels: file stems, with parent folders added on a clash."""
    paths = [pathlib.Path(p) for p in paths]
    labels = [p.stem for p in paths]
    if len(set(labels)) < len(labels):
        labels = [f"{p.parent.name}/{p.stem}" for p in paths]
    if len(set(labels)) < len(labels):
        labels = [f"{label}#{i + 1}" for i, label in enumerate(labels)]
    return labels


def names(sources: list) -> str:
    """The files behind these data sets, for a message."""
    return ", ".join(str(p) for s in sources for p in s.paths) or "no files"


def load_sources(paths: list) -> list:
    return [Source(label, [p], [load_document(p)]) for label, p in zip(labels_for(paths), paths)]


# Sizes as movebench writes them: 64, 4K, 1M, 2G (powers of 1024).
_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([KMGT]?)(i?B?)?\s*$", re.IGNORECASE)


def parse_size(text: str) -> int:
    match = _SIZE.match(text)
    if not match:
        raise ReportError(f"invalid size '{text}': a number with an optional K, M, G or T suffix")
    scale = 1024 ** " KMGT".index((match.group(2) or " ").upper())
    value = float(match.group(1)) * scale
    if not value <= MAX_INT:
        raise ReportError(f"invalid size '{text}': larger than 2^63-1 bytes")
    return int(value)


def parse_size_range(text: str) -> tuple:
    """'4K:1M', '4K:', ':1M' or a single size; bounds are inclusive."""
    low, sep, high = text.partition(":")
    if not sep:
        return parse_size(low), parse_size(low)
    return (parse_size(low) if low.strip() else 0, parse_size(high) if high.strip() else math.inf)


def format_size(n: int) -> str:
    for unit, scale in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if n >= scale:
            value = n / scale
            return f"{value:.0f} {unit}" if value == int(value) else f"{value:.2f} {unit}"
    return f"{n} B"


@dataclass
class Filter:
    benchmarks: list = field(default_factory=list)
    operations: list = field(default_factory=list)
    sizes: tuple = (0, math.inf)

    def keep(self, p: Point) -> bool:
        return (
            (not self.benchmarks or p.benchmark in self.benchmarks)
            and (not self.operations or p.operation.lower() in self.operations)
            and self.sizes[0] <= p.bytes <= self.sizes[1]
        )


def select(points: list, filt: Filter, view: str) -> list:
    return [p for p in points if filt.keep(p) and p.value(view) is not None]
