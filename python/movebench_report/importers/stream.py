"""McCalpin's STREAM and TheBandwidthBenchmark: a 'Function  Rate ... Avg
time  Min time  Max time' table, one kernel per line, with the problem size
and thread count printed above it."""

from __future__ import annotations

import re

from .common import bandwidth_figure, count, counted, document, is_number, number, rate_figure, record, time_figure

# Arrays each kernel touches: mem records carry the dataset of the kernel
# (array bytes x arrays), as `movebench mem` does.
ARRAYS = {
    "copy": 2,
    "scale": 2,
    "add": 3,
    "triad": 3,
    "init": 1,
    "sum": 1,
    "update": 1,
    "daxpy": 2,
    "striad": 4,
    "sdaxpy": 3,
}
RATE = re.compile(r"^Function\s+(Best\s+)?Rate\s*\(?(?P<unit>[MG]B/s)\)?", re.IGNORECASE)


def detect_stream(text: str) -> bool:
    return "STREAM version" in text and any(RATE.match(l.strip()) for l in text.splitlines())


def detect_bwbench(text: str) -> bool:
    return (
        not detect_stream(text)
        and any(RATE.match(l.strip()) for l in text.splitlines())
        and bool(
            re.search(r"Total allocated datasize|running with \d+ threads|^(Init|STriad|SDaxpy)\b", text, re.MULTILINE)
        )
    )


def kernel_rows(text: str):
    """(header match, [(kernel, [fields])]) of the first rate table."""
    header, rows = None, []
    for line in text.splitlines():
        line = line.strip()
        if m := RATE.match(line):
            header = m
        elif header and (m := re.match(r"^([A-Za-z]+):?\s+(.+)$", line)):
            fields = m.group(2).split()
            if len(fields) >= 4 and is_number(fields[0]) and all(is_number(f) for f in fields[-3:]):
                rows.append((m.group(1), fields))
    return header, rows


def kernel_record(kernel: str, fields: list, unit: str, size: int, threads: int):
    """`size`: bytes of one array. Both tools count each kernel's loads and
    stores (no write-allocate) over the best (least) time."""
    figures = {"bandwidth": bandwidth_figure(fields[0], unit, "min", "time", counted("application"))}
    if len(fields) == 5 and is_number(fields[1]):  # TheBandwidthBenchmark's flop rate
        figures["flops"] = rate_figure(fields[1], unit.replace("B/s", "Flop/s"), "min")
    for name, value in zip(("time_avg", "time_min", "time_max"), fields[-3:]):
        figures[name] = time_figure(value, "s", name.split("_")[1].replace("avg", "mean"))
    op = kernel.lower()
    return record("mem", op, size * ARRAYS.get(op, 1), {"threads": threads}, figures)


def _int(pattern: str, text: str, default: int) -> int:
    m = re.search(pattern, text)
    return count(m.group(1)) if m else default


def parse_stream(text: str, path):
    header, rows = kernel_rows(text)
    elem = _int(r"uses (\d+) bytes per array element", text, 8)
    size = _int(r"Array size = (\d+)", text, 0) * elem
    threads = _int(r"Number of Threads counted = (\d+)", text, _int(r"Number of Threads requested = (\d+)", text, 1))
    records = [kernel_record(k, f, header["unit"], size, threads) for k, f in rows]
    version = re.search(r"STREAM version \$Revision: ([\d.]+)", text)
    settings = {"tool_version": version.group(1) if version else "", "bytes_per_element": elem}
    return document(path, "STREAM", records, settings, validated=_verdict(text))


def parse_bwbench(text: str, path):
    header, rows = kernel_rows(text)
    total = re.search(r"Total allocated datasize:\s*([\d.]+)\s*MB", text)
    # TheBandwidthBenchmark allocates four arrays (a, b, c, d) of equal size.
    total_bytes = count(number(total.group(1)) * 1e6) if total else None
    size = total_bytes // 4 if total else 0
    threads = _int(r"running with (\d+) threads", text, 1)
    records = [kernel_record(k, f, header["unit"], size, threads) for k, f in rows]
    settings = {"arrays": 4, "total_bytes": total_bytes}
    return document(path, "TheBandwidthBenchmark", records, settings, validated=_verdict(text))


def _verdict(text: str):
    if "Solution Validates" in text:
        return True
    return False if re.search(r"Failed Validation|ERROR", text) else None
