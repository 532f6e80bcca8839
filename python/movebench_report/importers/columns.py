"""Column tables with a header line and numeric rows (OSU and IMB print
them): split the header into labels, read the rows that have as many numbers."""

from __future__ import annotations

import re

from .common import is_number, number

# "Avg Latency(us)", "Bandwidth (MB/s)", "t_min[usec]", "Mbytes/sec"
UNIT = re.compile(r"^(?P<name>.*?)\s*[\(\[](?P<unit>[^\)\]]+)[\)\]]\s*$")
UNITS = {"us": "us", "usec": "us", "MB/s": "MB/s", "Mbytes/sec": "MB/s", "ms": "ms", "ns": "ns"}


def split_label(label: str) -> tuple:
    """('Avg Latency', 'us'), ('Mbytes/sec', 'MB/s'), ('Iterations', None)."""
    if label in UNITS:
        return label, UNITS[label]
    m = UNIT.match(label)
    return (m["name"], UNITS.get(m["unit"], m["unit"])) if m else (label, None)


def numeric_row(line: str, width: int):
    """The numbers of a data row with `width` columns, else None."""
    fields = line.split()
    if len(fields) != width or not all(is_number(f) for f in fields):
        return None
    return [number(f) for f in fields]
