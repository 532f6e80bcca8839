"""Intel MPI Benchmarks: '# Benchmarking <Name>', '# #processes = N', a
'#bytes #repetitions t[usec] ...' header and one row per size."""

from __future__ import annotations

import re

from .columns import numeric_row, split_label
from .common import bandwidth_figure, collective_bandwidth, count, counted, document, rate_figure, record, time_figure

NAME = "Intel MPI Benchmarks"
BLOCK = re.compile(r"^#\s*Benchmarking\s+(\S+)")
PROCS = re.compile(r"^#\s*#processes\s*=\s*(\d+)")
P2P = {"pingpong", "pingping", "sendrecv", "exchange", "uniband", "biband"}
# IMB's throughput counts both directions for these (Sendrecv 2X/t,
# Exchange 4X/t: to and from both neighbours, Biband both ways); PingPong,
# PingPing and Uniband one message's bytes over its one-way time.
BOTH_DIRECTIONS = {"sendrecv", "exchange", "biband"}
FIGURES = {
    "t": "latency",
    "t_avg": "avg",
    "t_min": "min",
    "t_max": "max",
    "Mbytes/sec": "bandwidth",
    "Msg/sec": "message_rate",
}
# t[usec] is the mean over the repetitions; t_avg, t_min, t_max are over the ranks.
STATS = {"latency": "mean", "avg": "mean", "min": "min", "max": "max", "bandwidth": "mean", "message_rate": "mean"}


def detect(text: str) -> bool:
    return "Intel(R) MPI Benchmarks" in text or any(BLOCK.match(l) for l in text.splitlines())


def parse(text: str, path):
    bench = labels = procs = None
    records = []
    for line in text.splitlines():
        if m := BLOCK.match(line):
            bench, labels = m.group(1), None
        elif m := PROCS.match(line):
            procs = count(m.group(1))
        elif bench and "#repetitions" in line:
            labels = line.split()
        elif bench and labels and (row := numeric_row(line, len(labels))):
            records.append(row_record(bench, procs, labels, row))
    version = re.search(r"Intel\(R\) MPI Benchmarks\s+(\S+)", text)
    date = re.search(r"^#\s*Date\s*:\s*(.+)$", text, re.MULTILINE)
    machine = re.search(r"^#\s*Machine\s*:\s*(.+)$", text, re.MULTILINE)
    release = re.search(r"^#\s*Release\s*:\s*(.+)$", text, re.MULTILINE)
    host = {"kernel": release.group(1).strip() if release else "", "os": "Linux" if "Linux" in text else ""}
    settings = {
        "tool_version": version.group(1) if version else "",
        "machine": machine.group(1).strip() if machine else "",
    }
    return document(
        path,
        NAME,
        records,
        settings,
        when=date.group(1) if date else None,
        host=host,
        complete="All processes entering MPI_Finalize" in text,
    )


def row_record(bench: str, procs, labels: list, row: list):
    values = dict(zip(labels, row))
    size = count(values.pop("#bytes", 0))
    params = {"iters": count(values.pop("#repetitions", 0))}
    if procs:
        params["ranks"] = procs
    figures = {}
    op = bench.lower()
    for label, value in values.items():
        name, unit = split_label(label)
        key = FIGURES.get(name) or FIGURES.get(label)
        if key == "bandwidth" and unit == "MB/s":
            accounting = counted("application", 2 if op in BOTH_DIRECTIONS else 1)
            figures[key] = bandwidth_figure(value, unit, STATS[key], "time", accounting)
        elif key == "message_rate":
            figures[key] = rate_figure(value, "1/s", STATS[key])
        elif key and unit in ("us", "ms", "ns"):
            figures[key] = time_figure(value, unit, STATS[key])
        else:
            params[re.sub(r"\W+", "_", label.lower()).strip("_")] = value
    if op in P2P:
        return record("p2p", op, size, params, figures)
    slowest = figures.get("max", figures.get("latency", {})).get("value", 0) * 1e-9
    figures.update(collective_bandwidth(op, size, procs, slowest))
    return record("coll", op, size, params, figures)
