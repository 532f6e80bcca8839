"""OSU Micro-Benchmarks: '# OSU MPI <Title> Test vX', a '# Size  <columns>'
header (more columns with -f, -z, -c) and one row per size."""

from __future__ import annotations

import re

from .columns import numeric_row, split_label
from .common import FormatError, bandwidth_figure, count, counted, document, rate_figure, record, time_figure

NAME = "OSU Micro-Benchmarks"
TITLE = re.compile(r"^#\s*OSU\s+(?P<api>[\w-]+)\s+(?P<title>.+?)\s+Test\s+v(?P<version>\S+)")
P2P = {
    "Latency": "latency",
    "Bandwidth": "bw",
    "Bi-Directional Bandwidth": "bibw",
    "Multiple Bandwidth / Message Rate": "mbw_mr",
    "Multi-threaded Latency": "latency_mt",
}


def detect(text: str) -> bool:
    return any(TITLE.match(line) for line in text.splitlines()[:20])


# Collective titles whose last word is not the MPI call's name (the rest
# are: 'Allreduce Latency' -> allreduce), named as movebench coll names them.
COLL_NAMES = {
    "All-to-All Personalized Exchange": "alltoall",
    "All-to-Allv Personalized Exchange": "alltoallv",
    "All-to-Allw Personalized Exchange": "alltoallw",
    "Broadcast": "bcast",
}


def operation(title: str) -> tuple:
    """(benchmark, operation, figure prefix) of a test title."""
    if title in P2P:
        return "p2p", P2P[title], "latency"
    call = " ".join(title.replace("Latency", "").replace("Non-blocking", "").split())
    words = call.split()
    name = COLL_NAMES.get(call, words[-1].lower() if words else title.lower())
    return "coll", ("i" + name if "Non-blocking" in title else name), ""


# -z's tail columns: 'P50 Tail Lat' (a percentile of the iterations' times)
# or 'P99 Tail BW' (of their bandwidths); -z takes any percentiles, the
# result vocabulary has the defaults (50, 90, 99).
TAIL = re.compile(r"^p(\d+)\s+tail\b")
TAILS = ("p50", "p90", "p99")


def tail_stat(label: str):
    """'p50' of 'P50 Tail Lat', None for a column that is not a tail."""
    m = TAIL.match(label.lower())
    if m is None:
        return None
    if f"p{m[1]}" not in TAILS:
        raise FormatError(f"tail percentile P{m[1]} (osu -z): only P50, P90 and P99 are in the result vocabulary")
    return f"p{m[1]}"


def figure_name(label: str, prefix: str) -> str:
    """'Avg Latency' -> latency (p2p) or avg (coll); 'Min Latency' -> latency_min or min;
    'P99 Tail Lat' -> latency_p99 or p99 (a tail bandwidth is named in row_record)."""
    low = label.lower()
    tail = tail_stat(label)
    if "bandwidth" in low:
        return "bandwidth"
    if "messages" in low or "message rate" in low:
        return "message_rate"
    stat = tail or next((s for s in ("min", "max", "avg") if low.startswith(s)), "avg")
    if prefix:
        return prefix if stat == "avg" else f"{prefix}_{stat}"
    return stat


def header_labels(line: str) -> list:
    """The column labels: two spaces or more apart, except before a -z tail
    column, which OSU pads to its field width: one space after a wide label
    ('Bandwidth (MB/s) P50 Tail BW(MB/s)')."""
    return re.split(r"\s{2,}|\s(?=P\d+ Tail\b)", line.lstrip("#").strip())


def data_row(line: str, labels: list):
    """The numbers of a data row under `labels`, its size first; osu_barrier's
    header and rows have no size: size 0."""
    row = numeric_row(line, len(labels))
    return row if not row or labels[0] == "Size" else [0.0, *row]


def parse(text: str, path):
    lines = text.splitlines()
    title = next((m for m in map(TITLE.match, lines) if m), None)
    if title is None:
        raise FormatError("no '# OSU MPI <Title> Test vX' line")
    bench, op, prefix = operation(title["title"])
    labels, records = None, []
    for line in lines:
        if line.startswith("#") and re.match(r"^#\s*(Size|Avg Latency)\b", line):
            labels = header_labels(line)
        elif labels and (row := data_row(line, labels)):
            sized = labels if labels[0] == "Size" else ["Size", *labels]
            records.append(row_record(bench, op, prefix, sized, row))
    notes = [l.lstrip("# ").strip() for l in lines if l.startswith("#") and not TITLE.match(l)]
    settings = {"tool_version": title["version"], "test": title["title"], "api": title["api"], "notes": notes}
    return document(path, NAME, records, settings)


# OSU's latency is the mean over the iterations (the collectives': over
# the ranks of each rank's mean, with min and max over the ranks); its
# bandwidths are all bytes over all time; osu_bibw counts both directions,
# osu_mbw_mr the bytes of all pairs. A -z tail is the nearest-rank
# percentile (omb_calculate_tail_lat: sorted[round(n * p / 100) - 1]) of
# the iterations' times, or of their bandwidths (one per window): p50 is
# then not quite the median, so it keeps its own name.
STATS = {"avg": "mean", "min": "min", "max": "max", "p50": "p50", "p90": "p90", "p99": "p99"}
BOTH_DIRECTIONS = {"bibw"}


def row_record(bench, op, prefix, labels, row):
    params, figures = {}, {}
    for label, value in zip(labels[1:], row[1:]):
        name, unit = split_label(label)
        if unit == "MB/s":
            accounting = counted("application", 2 if op in BOTH_DIRECTIONS else 1)
            tail = tail_stat(name)
            stat, of = (tail, "rate") if tail else ("mean", "time")
            figures[f"bandwidth_{tail}" if tail else "bandwidth"] = bandwidth_figure(value, unit, stat, of, accounting)
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
