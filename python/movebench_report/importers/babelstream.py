"""BabelStream (UoB-HPC): its table 'Function  MB/s  Min (sec)  Max  Average'
(5.0; 'MBytes/sec' before), or with --csv 'function,num_times,n_elements,
sizeof,max_<unit>_per_sec,min_runtime,max_runtime,avg_runtime'. The rate is
of the best (least) time, the first repetition left out (src/main.cpp);
bytes are each kernel's loads and stores, no write-allocate."""

from __future__ import annotations

import re

from .common import FormatError, bandwidth_figure, count, counted, document, is_number, number, record, time_figure

NAME = "BabelStream"
# Arrays each kernel reads or writes (a record's bytes are that many arrays).
ARRAYS = {"copy": 2, "mul": 2, "add": 3, "triad": 3, "dot": 2, "nstream": 3}
# Its units, as printed in the table header or the CSV column, to MB/s (10^6 B/s).
TO_MB = {
    "MB": 1.0,
    "MBytes": 1.0,
    "mbytes": 1.0,
    "MiB": 2**20 / 1e6,
    "MiBytes": 2**20 / 1e6,
    "mibytes": 2**20 / 1e6,
    "GB": 1e3,
    "GBytes": 1e3,
    "gbytes": 1e3,
    "GiB": 2**30 / 1e6,
    "GiBytes": 2**30 / 1e6,
    "gibytes": 2**30 / 1e6,
    "TB": 1e6,
    "TiB": 2**40 / 1e6,
}
HEADER = re.compile(r"^Function\s+(?P<unit>[A-Za-z]+)(/s|/sec)\s+Min \(sec\)\s+Max\s+Average\s*$")
# A GPU model names its device: 'CUDA Device 0: "NVIDIA H200" 132 SMs...'
# (--csv, on stderr with the other preamble), 'Using CUDA device NVIDIA H200'
# (the table's preamble); HIP's the same way.
GPU = re.compile(
    r'^(?:(?:CUDA|HIP) Device \d+: "(?P<name>[^"]+)"|Using (?:CUDA|HIP) device (?P<used>.+)$)', re.MULTILINE
)
CSV_HEADER = re.compile(
    r"^function,num_times,n_elements,sizeof,max_(?P<unit>[A-Za-z]+)_per_sec,"
    r"min_runtime,max_runtime,avg_runtime\s*$"
)


def detect(text: str) -> bool:
    lines = [l.strip() for l in text.splitlines()]
    return any(CSV_HEADER.match(l) for l in lines) or (
        lines[:1] == ["BabelStream"] and any(HEADER.match(l) for l in lines)
    )


def _to_mb(unit: str) -> float:
    if unit not in TO_MB:
        raise FormatError(f"a rate unit BabelStream does not print: {unit[:20]}")
    return TO_MB[unit]


def kernel(name: str, rate_mb: float, times: list, elements: int, elem_bytes: int):
    op = name.lower()
    figures = {"bandwidth": bandwidth_figure(rate_mb, "MB/s", "min", "time", counted("application"))}
    for stat, value in zip(("min", "max", "mean"), times):
        figures[f"time_{stat}"] = time_figure(value, "s", stat)
    return record(
        "mem",
        op,
        elements * elem_bytes * ARRAYS.get(op, 1),
        {"elements": elements, "bytes_per_element": elem_bytes},
        figures,
    )


def parse(text: str, path):
    lines = [l.strip() for l in text.splitlines()]
    records, settings = [], {}
    if header := next((CSV_HEADER.match(l) for l in lines if CSV_HEADER.match(l)), None):
        factor = _to_mb(header["unit"])
        for line in lines:
            fields = line.split(",")
            if len(fields) == 8 and all(is_number(f) for f in fields[1:]):
                records.append(
                    kernel(fields[0], number(fields[4]) * factor, fields[5:8], count(fields[2]), count(fields[3]))
                )
                settings["repetitions"] = count(fields[1])
    else:
        elements = count(_field(r"^Number of elements: (\d+)", text))
        elem_bytes = 4 if _field(r"^Precision: (\w+)", text) == "float" else 8
        factor = None
        for line in lines:
            if m := HEADER.match(line):
                factor = _to_mb(m["unit"])
            elif factor and (m := re.match(r"^([A-Za-z]+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)$", line)):
                if all(is_number(f) for f in m.groups()[1:]):
                    records.append(kernel(m[1], number(m[2]) * factor, [m[3], m[4], m[5]], elements, elem_bytes))
        reps = re.search(r"^Running\s+(?:\w+\s+)?kernels (\d+) times", text, re.MULTILINE)
        if reps:
            settings["repetitions"] = count(reps[1])
    version = re.search(r"^Version: (\S+)", text, re.MULTILINE)
    implementation = re.search(r"^Implementation: (.+)$", text, re.MULTILINE)
    settings["tool_version"] = version[1] if version else ""
    if implementation:
        settings["implementation"] = implementation[1].strip()
    # BabelStream checks every array and the dot sum against a host replay
    # before it prints the table (check_solution in src/main.cpp), saying only
    # what failed: 'Validation failed on a[]' (4.x, stdout, then the table) or
    # 'FAILED validation of a[i]' (5.0, stderr, then it exits before the
    # table). A table with no such line has validated.
    failed = re.search(r"^(Validation failed|FAILED validation)", text, re.MULTILINE)
    gpu = GPU.search(text)
    if gpu:  # its arrays were in that device's memory, not the host's DRAM
        settings["device_memory"] = True
    return document(
        path,
        NAME,
        records,
        settings,
        validated=not failed,
        device=(gpu["name"] or gpu["used"]).strip() if gpu else implementation[1].strip() if implementation else "",
    )


def _field(pattern: str, text: str) -> str:
    m = re.search(pattern, text, re.MULTILINE)
    if not m:
        raise FormatError(f"no '{pattern.strip('^').split(':')[0]}' line")
    return m[1]
