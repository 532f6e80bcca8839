"""OSU Micro-Benchmarks: '# OSU MPI <Title> Test vX', a '# Size  <columns>'
header (more columns with -f, -z, -c) and one row per size."""
from __future__ import annotations

import re

from .columns import numeric_row, split_label
from .common import FormatError, bandwidth_figure, count, counted, document, rate_figure, record, time_figure

NAME = "OSU Micro-Benchmarks"
TITLE = re.compile(r"^#\s*OSU\s+(?P<api>[\w-]+)\s+(?P<title>.+?)\s+Test\s+v(?P<version>\S+)")
P2P = {"Latency": "latency", "Bandwidth": "bw", "Bi-Directional Bandwidth": "bibw",
       "Multiple Bandwidth / Message Rate": "mbw_mr", "Multi-threaded Latency": "latency_mt"}


def detect(text: str) -> bool:
    return any(TITLE.match(line) for line in text.splitlines()[:20])


def operation(title: str) -> tuple:
    """(benchmark, operation, figure prefix) of a test title."""
    if title in P2P:
        return "p2p", P2P[title], "latency"
    words = title.replace("Latency", "").split()
    name = words[-1].lower() if words else title.lower()
    return "coll", ("i" + name if "Non-blocking" in title else name), ""


def figure_name(label: str, prefix: str) -> str:
    """'Avg Latency' -> latency (p2p) or avg (coll); 'Min Latency' -> latency_min or min."""
    low = label.lower()
    if "bandwidth" in low:
        return "bandwidth"
    if "messages" in low or "message rate" in low:
        return "message_rate"
    stat = next((s for s in ("min", "max", "p50", "p90", "p99", "avg") if low.startswith(s)), "avg")
    if prefix:
        return prefix if stat == "avg" else f"{prefix}_{stat}"
    return stat


def header_labels(line: str) -> list:
    return re.split(r"\s{2,}", line.lstrip("#").strip())


def parse(text: str, path):
    lines = text.splitlines()
    title = next((m for m in map(TITLE.match, lines) if m), None)
    if title is None:
        raise FormatError("no '# OSU MPI <Title> Test vX' line")
    bench, op, prefix = operation(title["title"])
    labels, records = None, []
    for line in lines:
        if line.startswith("#") and re.match(r"^#\s*Size\b", line):
            labels = header_labels(line)
        elif labels and (row := numeric_row(line, len(labels))):
            records.append(row_record(bench, op, prefix, labels, row))
    notes = [l.lstrip("# ").strip() for l in lines if l.startswith("#") and not TITLE.match(l)]
    settings = {"tool_version": title["version"], "test": title["title"], "api": title["api"], "notes": notes}
    return document(path, NAME, records, settings)


# OSU's latency is the mean over the iterations (the collectives': over
# the ranks of each rank's mean, with min and max over the ranks); its
# bandwidths are all bytes over all time; osu_bibw counts both directions,
# osu_mbw_mr the bytes of all pairs.
STATS = {"avg": "mean", "min": "min", "max": "max", "p50": "median", "p90": "p90", "p99": "p99"}
BOTH_DIRECTIONS = {"bibw"}


def row_record(bench, op, prefix, labels, row):
    params, figures = {}, {}
    for label, value in zip(labels[1:], row[1:]):
        name, unit = split_label(label)
        if unit == "MB/s":
            accounting = counted("application", 2 if op in BOTH_DIRECTIONS else 1)
            figures["bandwidth"] = bandwidth_figure(value, unit, "mean", "time", accounting)
        elif unit in ("us", "ms", "ns"):
            fig = figure_name(name, prefix)
            figures[fig] = time_figure(value, unit, STATS["avg" if fig == prefix else fig.split("_")[-1]])
        elif name.lower().startswith("messages"):
            figures["message_rate"] = rate_figure(value, "1/s", "mean")
        else:
            params[re.sub(r"\W+", "_", name.lower()).strip("_")] = value
    if "iterations" in params:
        params["iters"] = count(params.pop("iterations"))
    return record(bench, op, count(row[0]), params, figures)
