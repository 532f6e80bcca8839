"""nvbandwidth: per test case 'Running <testcase>.', a matrix title such as
'memcpy CE CPU(row) -> GPU(column) bandwidth (GB/s)', a line of column
indices, rows '<index> <value|N/A> ...', and 'SUM <testcase> <value>'."""
from __future__ import annotations

import re

from .common import bandwidth_figure, count, counted, document, is_number, record, time_figure

NAME = "nvbandwidth"
RUNNING = re.compile(r"^Running\s+(\w+)\.?\s*$")
MATRIX = re.compile(r"^(?P<what>memcpy|memory latency)\s+(?P<engine>\w+)\s+(?P<row>\w+)\(row\)\s*(?P<arrow>\S+)\s*"
                    r"(?P<col>\w+)\(column\)\s+(?P<quantity>.*?)\s*\((?P<unit>[^)]+)\)\s*$")
DEFAULT_BYTES = 64 * 2**20  # nvbandwidth's default buffer size, unless the output says otherwise


def detect(text: str) -> bool:
    return bool(re.search(r"^Running \w+_(ce|sm)\.?\s*$", text, re.MULTILINE)) or "nvbandwidth Version" in text


def parse(text: str, path):
    testcase = matrix = None
    header_seen = False  # the line of column indices after the matrix title
    size = _buffer_bytes(text)
    records = []
    for line in text.splitlines():
        if m := RUNNING.match(line.strip()):
            testcase, matrix = m.group(1), None
        elif m := MATRIX.match(line.strip()):
            matrix, header_seen = m, False
        elif testcase and matrix and line.strip():
            if header_seen:
                records += row_records(testcase, matrix, line, size)
            header_seen = True
    version = re.search(r"nvbandwidth Version:\s*(\S+)", text)
    devices = re.findall(r"^Device (\d+): (.+)$", text, re.MULTILINE)
    settings = {"tool_version": version.group(1) if version else "", "buffer_bytes": size,
                "devices": {d: name.strip() for d, name in devices}}
    return document(path, NAME, records, settings, device="; ".join(n.strip() for _, n in devices))


def _buffer_bytes(text: str) -> int:
    m = re.search(r"buffer size[^\d]*(\d+)\s*(MiB|B|bytes)?", text, re.IGNORECASE)
    if not m:
        return DEFAULT_BYTES
    return count(int(m.group(1)) * (2**20 if (m.group(2) or "").lower() == "mib" else 1))


def cell_figure(name: str, value, unit: str) -> dict:
    """nvbandwidth reports the median over its trials (--testSamples) of each
    trial's bandwidth or latency. A bandwidth counts the bytes of the measured
    copy: in the bidirectional cases, one direction while the other runs
    (its README, "Bandwidth calculation")."""
    if name == "latency":
        return time_figure(value, unit, "median")
    return bandwidth_figure(value, unit, "median", "rate", counted("application", 1))


def row_records(testcase: str, matrix, line: str, size: int) -> list:
    fields = line.split()
    if len(fields) < 2 or not fields[0].isdigit():
        return []
    unit = {"GB/s": "GB/s", "ns": "ns", "us": "us"}.get(matrix["unit"])
    name = "latency" if matrix["what"] == "memory latency" else "bandwidth"
    if (name == "bandwidth") != (unit == "GB/s"):
        return []  # a matrix whose unit does not fit its quantity: nothing to say
    out = []
    for col, value in enumerate(fields[1:]):
        if unit and is_number(value):
            row, column = f"{matrix['row'].lower()}{fields[0]}", f"{matrix['col'].lower()}{col}"
            src, dst = (column, row) if matrix["arrow"] == "<-" else (row, column)
            params = {"src": src, "dst": dst, "engine": matrix["engine"]}
            out.append(record("link", testcase, size, params, {name: cell_figure(name, value, unit)}))
    return out
