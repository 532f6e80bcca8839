"""What every importer shares: building records and a valid result document."""

from __future__ import annotations

import datetime as dt
import os
import pathlib
import re
import statistics

from .. import __version__
from ..model import MAX_FLOAT, MAX_INT, ReportError, check_document
from ..vocabulary import bus_factor

NUMBER = re.compile(r"^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$")


class FormatError(ReportError):
    """Something in a tool's output that does not fit its format; import_file
    adds the file and the format to the message."""


def is_number(text: str) -> bool:
    """Written as a number (the range is checked where it is read: number())."""
    return bool(NUMBER.match(text))


def number(text) -> float:
    """A number a tool printed, finite and in the range a result file holds."""
    value = float(text)
    if not abs(value) <= MAX_FLOAT:
        raise FormatError(f"number out of range: {str(text)[:40]}")
    return value


def count(text) -> int:
    """A size or count a tool printed: a whole number from 0 to 2^63-1."""
    value = number(text)
    if not (0 <= value <= MAX_INT and value == int(value)):
        raise FormatError(f"not a size or count from 0 to 2^63-1: {str(text)[:40]}")
    return int(value)


def stats_of(samples: list):
    if not samples:
        return None
    return {
        "min": min(samples),
        "median": statistics.median(samples),
        "mean": statistics.fmean(samples),
        "max": max(samples),
        "stddev": statistics.pstdev(samples),
        "count": len(samples),
    }


# The figures' vocabulary (docs/results.md): each importer says, from its
# tool's source, which statistic a printed figure is, of the times or of the
# rates, and which bytes a bandwidth counts. Times become ns, as movebench
# writes every time.
TO_NS = {"s": 1e9, "ms": 1e6, "us": 1e3, "ns": 1.0}


def time_figure(value, unit: str, stat: str) -> dict:
    """A time printed in `unit` (s, ms, us, ns), in ns."""
    return {"value": number(number(value) * TO_NS[unit]), "unit": "ns", "stat": stat, "of": "time", "better": "lower"}


def counted(kind: str = "application", directions: int = 1, factor: float = 1.0) -> dict:
    """Which bytes a bandwidth counts: application, write_allocate, algorithm, bus (times factor)."""
    return {"bytes": kind, "directions": directions, "factor": factor}


def bandwidth_figure(value, unit: str, stat: str, of: str, accounting: dict) -> dict:
    """A bandwidth in B/s, KB/s, MB/s or GB/s (decimal, as every tool imported prints them)."""
    return {"value": number(value), "unit": unit, "stat": stat, "of": of, "better": "higher", "accounting": accounting}


def rate_figure(value, unit: str, stat: str, of: str = "time") -> dict:
    """Another rate: MFlop/s, GFlop/s, 1/s (messages per second)."""
    return {"value": number(value), "unit": unit, "stat": stat, "of": of, "better": "higher"}


def record(benchmark: str, operation: str, size: int, params: dict, figures: dict, samples=()) -> dict:
    samples = [number(s) for s in samples]
    return {
        "benchmark": benchmark,
        "operation": operation,
        "bytes": count(size),
        "params": params,
        "samples": samples,
        "stats": stats_of(samples),
        "figures": figures,
    }


def iso_time(text: str | None, path: pathlib.Path) -> str:
    """The tool's own date ('Sat Nov 21 05:48:14 2026', optionally with a zone
    name) in ISO form; else the file's modification time."""
    if text:
        cleaned = re.sub(r"\s+[A-Z]{3,4}(?=\s+\d{4}$)", "", text.strip())
        for fmt in ("%a %b %d %H:%M:%S %Y", "%Y-%m-%dT%H:%M:%S"):
            try:
                return dt.datetime.strptime(cleaned, fmt).strftime("%Y-%m-%dT%H:%M:%SZ")
            except ValueError:
                continue
    stamp = dt.datetime.fromtimestamp(os.stat(path).st_mtime, dt.timezone.utc)
    return stamp.strftime("%Y-%m-%dT%H:%M:%SZ")


def document(
    path: pathlib.Path,
    tool: str,
    records: list,
    settings: dict,
    *,
    when: str | None = None,
    validated: bool | None = None,
    complete: bool = True,
    host: dict | None = None,
    results: dict | None = None,
    device: str = "",
    mpi: dict | None = None,
    environment: dict | None = None,
) -> dict:
    """A result document around imported records. `validated` None: the tool
    printed no verdict, which the document says in validation_skipped. Every
    part of it goes through check_document, copied values too."""
    if not records:
        raise ReportError(f"{path}: recognised as {tool} output but holds no results (truncated?)")
    benchmarks = sorted({r["benchmark"] for r in records})
    top = benchmarks[0] if len(benchmarks) == 1 else "import"
    stamp = iso_time(when, path)
    doc = {
        "schema_version": 2,
        "name": f"movebench {top}",
        "benchmark": top,
        "version": __version__,
        "git_commit": "",
        "config_time": stamp,
        "execution_time": stamp,
        "end_time": None,
        "command_line": ["movebench-report", "import", str(path)],
        "device": device,
        "host": {
            "hostname": "",
            "cpu_model": "",
            "logical_cpus": 1,
            "caches": [],
            "memory_bytes": 0,
            "os": "",
            "kernel": "",
            **(host or {}),
        },
        "environment": environment or {},
        "build": {"compiler": "", "build_type": "", "backends": ["host"]},
        "mpi": mpi,
        "settings": {b: {"imported_from": tool, "source_file": path.name, **settings} for b in benchmarks},
        "timings": records,
        "results": results or {},
        "errors": {},
        "validated": bool(validated),
        "complete": complete,
    }
    if validated is None:
        doc["validation_skipped"] = f"imported from {tool}, which printed no validation verdict"
    return check_document(doc, f"{path} (imported)")


# How many bytes a collective moves, and the bus factor, as `movebench coll`
# computes them (after nccl-tests), so imported collectives get algbw/busbw.
WHOLE_BUFFER = {
    "alltoall",
    "allgather",
    "gather",
    "scatter",
    "reducescatter",
    "reduce_scatter",
    "alltoallv",
    "allgatherv",
    "gatherv",
    "scatterv",
}


def collective_bandwidth(op: str, size: int, ranks: int | None, seconds: float) -> dict:
    """algbw and busbw figures in GB/s from the slowest rank's time (the max
    over the ranks); {} where undefined."""
    if not ranks or seconds <= 0 or size <= 0 or op == "barrier":
        return {}
    moved = size * ranks if op in WHOLE_BUFFER else size
    factor = bus_factor(op, ranks)
    algbw = moved / seconds / 1e9
    if not algbw <= MAX_FLOAT:  # a size or time at the edge of the range: no bandwidth to say
        return {}
    return {
        "algbw": bandwidth_figure(algbw, "GB/s", "max", "time", counted("algorithm")),
        "busbw": bandwidth_figure(algbw * factor, "GB/s", "max", "time", counted("bus", 1, factor)),
    }
