"""nvbandwidth: per test case 'Running <testcase>.', a matrix title such as
'memcpy CE CPU(row) -> GPU(column) bandwidth (GB/s)', a line of column
indices, rows '<index> <value|N/A> ...', and 'SUM <testcase> <value>'; or
its JSON (-j, 0.5 and later: json_output.cpp): nvbandwidth.testcases[], each
with the same title as bandwidth_description and the matrix as rows of
strings."""

from __future__ import annotations

import re

from ..model import parse_json as parse_json_text
from .common import FormatError, bandwidth_figure, count, counted, document, is_number, record, time_figure

NAME = "nvbandwidth"
RUNNING = re.compile(r"^Running\s+(\w+)\.?\s*$")
MATRIX = re.compile(
    r"^(?P<what>memcpy|memory latency)\s+(?P<engine>\w+)\s+(?P<row>\w+)\(row\)\s*(?P<arrow>\S+)\s*"
    r"(?P<col>\w+)\(column\)\s+(?P<quantity>.*?)\s*\((?P<unit>[^)]+)\)\s*$"
)
# nvbandwidth's default buffer (-b, MiB), which it does not print: 64 MiB
# up to 0.6, 512 MiB from 0.7 on (common.h, defaultBufferSize). Its latency
# tests always chase a 2 MiB buffer (testcase.cpp, run(2 * _MiB, ...)).
OLD_DEFAULT_BYTES, DEFAULT_BYTES, LATENCY_BYTES = 64 * 2**20, 512 * 2**20, 2 * 2**20


def detect(text: str) -> bool:
    if text.lstrip()[:1] == "{":
        return '"nvbandwidth"' in text and '"testcases"' in text
    return bool(re.search(r"^Running \w+_(ce|sm)\.?\s*$", text, re.MULTILINE)) or "nvbandwidth Version" in text


def parse(text: str, path):
    if text.lstrip()[:1] == "{":
        return parse_json(text, path)
    testcase = matrix = None
    header_seen = False  # the line of column indices after the matrix title
    version = re.search(r"nvbandwidth Version:\s*(\S+)", text)
    size = _buffer_bytes(text, version.group(1) if version else "")
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
    devices = re.findall(r"^Device (\d+): (.+)$", text, re.MULTILINE)
    settings = {
        "tool_version": version.group(1) if version else "",
        "buffer_bytes": size,
        "devices": {d: name.strip() for d, name in devices},
    }
    return document(path, NAME, records, settings, device="; ".join(n.strip() for _, n in devices))


def parse_json(text: str, path):
    doc = parse_json_text(text, str(path))
    root = doc.get("nvbandwidth") if isinstance(doc, dict) else None
    if not isinstance(root, dict) or not isinstance(root.get("testcases"), list):
        raise FormatError("no nvbandwidth.testcases list")
    version = str(root.get("version", ""))
    size = _buffer_bytes("", version)
    records = []
    for case in root["testcases"]:
        if not isinstance(case, dict) or case.get("status") != "Passed":
            continue  # waived, not found or failed: nothing measured
        matrix = MATRIX.match(str(case.get("bandwidth_description", "")).strip())
        rows = case.get("bandwidth_matrix")
        if not matrix or not isinstance(rows, list):
            raise FormatError(f"test case {str(case.get('name'))[:60]} has no matrix it can read")
        for i, row in enumerate(rows):
            if isinstance(row, list):
                records += row_records(str(case.get("name")), matrix, f"{i} " + " ".join(map(str, row)), size)
    devices = [str(d) for d in root.get("GPU Device list", []) if isinstance(d, str)]
    settings = {
        "tool_version": version,
        "buffer_bytes": size,
        "devices": devices,
        "driver_version": str(root.get("Driver Version", "")),
    }
    return document(path, NAME, records, settings, device="; ".join(devices))


def _buffer_bytes(text: str, version: str) -> int:
    m = re.search(r"buffer size[^\d]*(\d+)\s*(MiB|B|bytes)?", text, re.IGNORECASE)
    if m:
        return count(int(m.group(1)) * (2**20 if (m.group(2) or "").lower() == "mib" else 1))
    v = re.match(r"v?(\d+)\.(\d+)", version)
    return DEFAULT_BYTES if v and (int(v.group(1)), int(v.group(2))) >= (0, 7) else OLD_DEFAULT_BYTES


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
            out.append(
                record(
                    "link",
                    testcase,
                    LATENCY_BYTES if name == "latency" else size,
                    params,
                    {name: cell_figure(name, value, unit)},
                )
            )
    return out
