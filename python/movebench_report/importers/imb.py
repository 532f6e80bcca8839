"""Intel MPI Benchmarks: '# Benchmarking <Name>', '# #processes = N', a
'#bytes #repetitions t[usec] ...' header and one row per size."""
from __future__ import annotations

import re

from .columns import numeric_row, split_label
from .common import collective_bandwidth, count, document, figure, record

NAME = "Intel MPI Benchmarks"
BLOCK = re.compile(r"^#\s*Benchmarking\s+(\S+)")
PROCS = re.compile(r"^#\s*#processes\s*=\s*(\d+)")
P2P = {"pingpong", "pingping", "sendrecv", "exchange", "uniband", "biband"}
FIGURES = {"t": "latency", "t_avg": "avg", "t_min": "min", "t_max": "max", "Mbytes/sec": "bandwidth",
           "Msg/sec": "message_rate"}


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
    settings = {"tool_version": version.group(1) if version else "",
                "machine": machine.group(1).strip() if machine else ""}
    return document(path, NAME, records, settings, when=date.group(1) if date else None, host=host,
                    complete="All processes entering MPI_Finalize" in text)


def row_record(bench: str, procs, labels: list, row: list):
    values = dict(zip(labels, row))
    size = count(values.pop("#bytes", 0))
    params = {"iters": count(values.pop("#repetitions", 0))}
    if procs:
        params["ranks"] = procs
    figures = {}
    for label, value in values.items():
        name, unit = split_label(label)
        key = FIGURES.get(name) or FIGURES.get(label)
        if key and unit:
            figures[key] = figure(value, unit, {"avg": "mean", "latency": "mean", "bandwidth": "mean"}.get(key, key))
        else:
            params[re.sub(r"\W+", "_", label.lower()).strip("_")] = value
    if bench.lower() in P2P:
        return record("p2p", bench.lower(), size, params, figures)
    slowest = figures.get("max", figures.get("latency", {})).get("value", 0) * 1e-6
    figures.update(collective_bandwidth(bench.lower(), size, procs, slowest))
    return record("coll", bench.lower(), size, params, figures)
